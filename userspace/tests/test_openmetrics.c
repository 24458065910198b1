// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * cs-om-crafted: the exposition (openmetrics.c) of one crafted row whose
 * names hold what the format must escape (backslash, double quote,
 * newline), for tests/openmetrics.sh: with --raw the label values are
 * written as they are, unescaped, which promtool must refuse (so that its
 * acceptance of the escaped output means something).
 *
 *   cs-om-crafted [--raw]
 */
#include <stdio.h>
#include <string.h>

#include "cbrow.h"
#include "chainscope.h"
#include "openmetrics.h"

#define CRAFTED "bad\\name\"}\nx{"

int main(int argc, char **argv)
{
	struct cs_cbrow row = {
		.chain = { .addr = 0xffffffff82000000ULL, .name = "chain\"q" },
		.cb = { .addr = 0xffffffffc0000100ULL, .name = CRAFTED, .module = "mod\\x" },
		.kind = 2,
	};
	struct cs_om_pass pass = {
		.chain = { .addr = 0xffffffff82000000ULL, .name = CRAFTED },
		.kind = 2, .passes = 3, .stopped = 1, .rollbacks = 1,
	};
	struct cs_om_lock lock = {
		.chain = { .addr = 0xffffffff82000000ULL, .name = CRAFTED },
		.kind = 2, .op = 1, .sum_ns = 5000,
	};
	struct cs_om_set set = {
		.units = CS_UNITS_US,
		.cbs = &row, .nr_cbs = 1,
		.passes = &pass, .nr_passes = 1,
		.locks = &lock, .nr_locks = 1,
		.lost = 1, .missed = 2, .dropped = 3,
		.mode = "tracepoints",
	};

	row.st.slots[3] = 2;	/* 8..15 us */
	row.st.count = 3;
	row.st.untimed = 1;
	row.st.sum_ns = 20000;
	row.st.stop = 1;
	lock.slots[2] = 1;
	if (argc > 1 && !strcmp(argv[1], "--raw")) {
		/* what a writer that forgot to escape would print */
		printf("# TYPE chainscope_callback_untimed_total counter\n"
		       "chainscope_callback_untimed_total{chain=\"%s\",callback=\"%s\"} 1\n",
		       row.chain.name, row.cb.name);
		return 0;
	}
	return cs_om_write(stdout, &set) ? 1 : 0;
}
