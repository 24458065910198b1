/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope record: its BPF programs (bpf/record.bpf.c), loaded for one
 * source, attached, and stopped between passes (record_prog.c).
 */
#ifndef CHAINSCOPE_RECORD_PROG_H
#define CHAINSCOPE_RECORD_PROG_H

#include <stdbool.h>
#include <linux/types.h>

struct cs_pm;
struct ksyms;
struct rec_ctx;
struct record_bpf;
struct ring_buffer;

/*
 * Open the skeleton into *skel (NULL if it could not be), set it up for
 * the tp_btf programs or probes mode's, buf_mib (0: the default) of ring
 * buffer whose commits wake the reader from wakeup_pct percent full on
 * (0: at every record; record.bpf.c: rec_commit()), and load it; the
 * lock waits' chains (bpf/chain_lock.bpf.h): the
 * nr_heads -c heads of kinds[] (CS_KIND_ANY: either lock), else the
 * curated table's, and in tracepoints mode every one the events name.
 * CS_EXIT_OK or CS_EXIT_ERROR, said.
 */
int rec_prog_load(struct record_bpf **skel, const char *cmd, bool verbose, bool probes,
		  long buf_mib, int wakeup_pct, const struct ksyms *ks,
		  const __u64 *heads, const int *kinds, int nr_heads);
/* probes mode: the lock-wait programs (tracepoints mode: with the rest) */
int rec_prog_attach_locks(struct record_bpf *skel, const char *cmd);
/* tracepoints mode: CS_EXIT_OK or CS_EXIT_ERROR, said */
int rec_prog_attach_tracepoints(struct record_bpf *skel, const char *cmd);
/*
 * End the recording between passes: the passes under way end (up to 2 s),
 * probes mode's notes and *pm stopped (NULL then), the programs detached,
 * the ring drained into rc and what is pending written as loss records.
 * CS_EXIT_OK, or CS_EXIT_ERROR (said): the file is to be cut short.
 */
int rec_prog_stop(struct record_bpf *skel, struct ring_buffer *rb, struct cs_pm **pm,
		  struct rec_ctx *rc, const char *cmd);

#endif /* CHAINSCOPE_RECORD_PROG_H */
