// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * cs-om-crafted: the exposition (openmetrics.c) of one crafted row whose
 * names hold what the format must escape (backslash, double quote,
 * newline), for tests/sh/openmetrics.sh: with --raw the label values are
 * written as they are, unescaped, which promtool must refuse (so that its
 * acceptance of the escaped output means something).
 *
 * With --live [--only-first-chain], the exposition om_counters.c makes of two
 * synthetic samples of latency's maps (and one of contention's), as
 * `chainscope serve` adds them up: the counters must be the sums, and a
 * callback of the first sample only must keep its values. Addresses are
 * hidden ("addr#N") as in serve, unless --show-addresses.
 *
 * With --dup, rows of two heads that print alike (passes, lock waits,
 * callbacks whose blocks have no symbol), lock ops that print as no
 * name, and addresses that no symbol names: no two series may read
 * alike, and no address may show unless --show-addresses.
 *
 *   cs-om-crafted [--raw]
 * With --max-rows N, om_counters.c keeps N rows at most and counts the rest.
 *
 *   cs-om-crafted --live [--only-first-chain] [--show-addresses] [--max-rows N]
 *   cs-om-crafted --dup [--show-addresses]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callback_row.h"
#include "chainscope.h"
#include "om_counters.h"
#include "openmetrics.h"

#define CRAFTED "bad\\name\"}\nx{"

#define H1 0xffffffff82000000ULL
#define H2 0xffffffff82000100ULL
#define CB1 0xffffffffc0000100ULL
#define CB2 0xffffffffc0000200ULL

/* two heads named alike, and more; see the top */
static int dup_heads(void)
{
	struct cs_cbrow rows[4] = {
		{ .chain = { .addr = H1, .name = "dup_chain" },
		  .cb = { .addr = CB1, .name = "dup_cb" }, .nb = { .addr = 0xffff888001000000ULL },
		  .kind = 2 },
		{ .chain = { .addr = H2, .name = "dup_chain" },
		  .cb = { .addr = CB1, .name = "dup_cb" }, .nb = { .addr = 0xffff888002000000ULL },
		  .kind = 2 },
		/* a heap head and block: no symbol at all */
		{ .chain = { .addr = 0xffff888003000000ULL },
		  .cb = { .addr = CB2 }, .nb = { .addr = 0xffff888004000000ULL }, .kind = 1 },
		{ .chain = { .addr = 0xffff888003000000ULL },
		  .cb = { .addr = CB2 }, .nb = { .addr = 0xffff888005000000ULL }, .kind = 1 },
	};
	struct cs_om_pass passes[3] = {
		{ .chain = { .addr = H1, .name = "dup_chain" }, .kind = 2, .passes = 1 },
		{ .chain = { .addr = H2, .name = "dup_chain" }, .kind = 2, .passes = 2 },
		{ .chain = { .addr = 0xffff888003000000ULL }, .kind = 1, .passes = 3 },
	};
	struct cs_om_lock locks[5] = {
		{ .chain = { .addr = H1, .name = "dup_chain" }, .kind = 2, .op = 0 },
		{ .chain = { .addr = H2, .name = "dup_chain" }, .kind = 2, .op = 0 },
		{ .chain = { .addr = H2, .name = "dup_chain" }, .kind = 2, .op = 1 },
		{ .chain = { .addr = H1, .name = "dup_chain" }, .kind = 2, .op = 5 },
		{ .chain = { .addr = H1, .name = "dup_chain" }, .kind = 2, .op = 6 },
	};
	struct cs_om_set set = {
		.units = CS_UNITS_US,
		.cbs = rows, .nr_cbs = 4,
		.passes = passes, .nr_passes = 3,
		.locks = locks, .nr_locks = 5,
		.mode = "tracepoints",
	};

	if (cs_cbrows_disambiguate(rows, 4))
		return 1;
	return cs_om_write(stdout, &set) ? 1 : 0;
}

static int live(bool only_first, long max_rows)
{
	struct cs_lat_entry s1[2] = {
		{ .key = { H1, CB1, 0x1000, 0 },
		  .val = { .slots = { [3] = 3 }, .count = 3, .sum_ns = 30000, .stop = 1, .kind = 2 } },
		{ .key = { H2, CB2, 0x2000, 0 },
		  .val = { .slots = { [1] = 2 }, .count = 2, .sum_ns = 5000, .kind = 1 } },
	};
	struct cs_lat_entry s2[1] = {
		{ .key = { H1, CB1, 0x1000, 0 },
		  .val = { .slots = { [3] = 1, [5] = 1 }, .count = 2, .sum_ns = 50000, .bad = 1,
			   .kind = 2 } },
	};
	struct cs_chain_entry c1 = { .key = { H1, 0 },
				     .val = { .count = 4, .stopped = 1, .rollbacks = 1, .kind = 2 } };
	struct cs_chain_entry c2 = { .key = { H1, 0 }, .val = { .count = 1, .kind = 2 } };
	struct cs_cont_entry l1 = { .key = { H1, 0, 0 },
				    .val = { .slots = { [2] = 2 }, .count = 2, .sum_ns = 5000,
					     .kind = 2 } };
	struct cs_lat_sample a = { .lat = s1, .nlat = 2, .chains = &c1, .nchain = 1,
				   .health = { .dropped = 1, .missed = 2 } };
	struct cs_lat_sample b = { .lat = s2, .nlat = 1, .chains = &c2, .nchain = 1,
				   .health = { .dropped = 3, .missed = 2 } };
	struct cs_cont_sample l = { .ce = &l1, .nc = 1 };
	struct cs_common c;
	__u64 only = H1;
	struct cs_om_live *om;
	int err;

	cs_common_init(&c, "cs-om-crafted");
	c.mode = CS_MODE_PROBES;
	om = cs_om_live_new(&c, &only, only_first ? 1 : 0);
	if (!om)
		return 1;
	if (max_rows >= 0)
		cs_om_live_set_max_rows(om, max_rows);
	err = cs_om_live_add(om, &a) || cs_om_live_add_locks(om, &l) ||
	      cs_om_live_add(om, &b) || cs_om_live_write(om, stdout, NULL);
	cs_om_live_free(om);
	return err;
}

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

	bool only_first = false;
	long max_rows = -1;
	int i;

	cs_addrs_hide(true);
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--show-addresses"))
			cs_addrs_hide(false);
		else if (!strcmp(argv[i], "--only-first-chain"))
			only_first = true;
		else if (!strcmp(argv[i], "--max-rows") && i + 1 < argc)
			max_rows = atol(argv[++i]);
	}
	if (argc > 1 && !strcmp(argv[1], "--live"))
		return live(only_first, max_rows);
	if (argc > 1 && !strcmp(argv[1], "--dup"))
		return dup_heads();
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
