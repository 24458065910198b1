/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope record: the addresses a recording saw and the symbol
 * snapshot of its trailer (record_syms.c), and the recording's header
 * strings.
 */
#ifndef CHAINSCOPE_RECORD_SYMS_H
#define CHAINSCOPE_RECORD_SYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "tracefile.h"
#include "trace_helpers.h"

/* Note an address seen in an event (0 is ignored); best effort. */
void cs_rec_seen_add(__u64 a);
void cs_rec_seen_free(void);
/* /proc/sys/kernel/random/boot_id, or "" */
void cs_rec_boot_id(char *buf, size_t len);
/* The header, the source said; 0 or -errno (record_syms.c) */
int cs_rec_begin(struct cs_trace_writer *w, const char *cmd, bool probes);
/*
 * Names for the addresses seen: kallsyms now, else as it was at start.
 * Names the trace reader refuses are left out, counted in *bad, the
 * first one kept in bad_name. malloc'ed, *nr entries.
 */
struct cs_trace_sym *cs_rec_snapshot(const struct ksyms *now, const struct ksyms *before,
			      size_t *nr, size_t *bad, char *bad_name, size_t bad_len);

#endif /* CHAINSCOPE_RECORD_SYMS_H */
