// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope record's BPF programs: one source loaded (the tp_btf
 * programs, or probes mode's), attached, and at the end stopped between
 * passes with nothing left behind in the ring or the per-CPU counters.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "chainscope.h"
#include "cont_collect.h"
#include "live.h"
#include "probes.h"
#include "record.h"
#include "record.skel.h"
#include "record_events.h"
#include "record_prog.h"

/* tracepoints mode: only the tp_btf programs (rec_*) load */
static void set_tp_autoload(struct bpf_object *obj, bool on)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj)
		if (!strncmp(bpf_program__name(prog), "rec_", 4))
			bpf_program__set_autoload(prog, on);
}

/*
 * call_end before call_begin (then every pass whose begin is recorded has
 * its end recorded), notifier_return before notifier_run (then every run
 * has its return, which pairs with it for the run time); the other
 * programs attach before call_begin too, in skeleton order. CS_EXIT_OK or
 * CS_EXIT_ERROR, said.
 */
int rec_prog_attach_tracepoints(struct record_bpf *skel, const char *cmd)
{
	int err;

	err = cs_attach_first(cmd, skel->progs.rec_call_end, &skel->links.rec_call_end);
	if (!err)
		err = cs_attach_first(cmd, skel->progs.rec_return, &skel->links.rec_return);
	if (err)
		return err;
	err = record_bpf__attach(skel);
	if (err) {
		warn("%s: error: failed to attach BPF programs: %s\n", cmd, strerror(-err));
		return CS_EXIT_ERROR;
	}
	return CS_EXIT_OK;
}

int rec_prog_load(struct record_bpf **skelp, const char *cmd, bool verbose, bool probes,
		  long buf_mib, int wakeup_pct, const struct ksyms *ks,
		  const __u64 *heads, const int *kinds, int nr_heads)
{
	struct record_bpf *skel;
	bool locks = cs_cont_has_lock_tps();
	int err;

	cs_setup_libbpf(verbose);
	skel = *skelp = record_bpf__open();
	if (!skel) {
		warn("%s: error: failed to open BPF skeleton\n", cmd);
		return CS_EXIT_ERROR;
	}
	skel->rodata->cs_preempt_count_off = cs_btf_preempt_count_off();
	if (buf_mib)
		bpf_map__set_max_entries(skel->maps.events, buf_mib << 20);
	/* (record.bpf.c: rec_commit()) */
	skel->rodata->targ_wakeup_bytes =
		(__u64)bpf_map__max_entries(skel->maps.events) * wakeup_pct / 100;
	/* one source: the tp_btf programs, or the probes (pm_*) */
	cs_pm_autoload(skel->obj, probes);
	set_tp_autoload(skel->obj, !probes);
	if (probes)
		skel->rodata->cs_pm_die_chain = cs_pm_die_chain_addr(ks);
	else	/* (probes mode's own maps: cs_pm_autoload()) */
		bpf_map__set_max_entries(skel->maps.rec_pm_stacks, 1);
	/* lock waits: both modes; tracepoints mode learns heads without -c */
	bpf_program__set_autoload(skel->progs.lock_contention_begin, locks);
	bpf_program__set_autoload(skel->progs.lock_contention_end, locks);
	skel->rodata->targ_learn = !probes && !nr_heads;
	if (!locks)
		warn("%s: warning: no lock waits: the kernel has no "
		     "lock:contention_begin/end (Linux 5.19+)\n", cmd);
	err = record_bpf__load(skel);
	if (err) {
		warn("%s: error: failed to load BPF skeleton: %s\n", cmd, strerror(-err));
		return CS_EXIT_ERROR;
	}
	if (locks && cs_cont_watch_heads(bpf_map__fd(skel->maps.watched_heads), cmd, ks,
					 heads, kinds, nr_heads) < 0)
		return CS_EXIT_ERROR;
	return CS_EXIT_OK;
}

int rec_prog_attach_locks(struct record_bpf *skel, const char *cmd)
{
	struct bpf_program *progs[] = {
		skel->progs.lock_contention_end, skel->progs.lock_contention_begin,
	};
	struct bpf_link **links[] = {
		&skel->links.lock_contention_end, &skel->links.lock_contention_begin,
	};
	size_t i;

	for (i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		if (!bpf_program__autoload(progs[i]))
			continue;
		*links[i] = bpf_program__attach(progs[i]);
		if (!*links[i]) {
			warn("%s: error: failed to attach %s: %s\n", cmd,
			     bpf_program__name(progs[i]), strerror(errno));
			return CS_EXIT_ERROR;
		}
	}
	return CS_EXIT_OK;
}

/* What probes mode did not record, and why: stdout, after cs_pm_report()'s */
static void pm_notes(struct record_bpf *skel)
{
	__u64 partial;

	partial = cs_read_stat(bpf_map__fd(skel->maps.rec_stats), CS_REC_STAT_PARTIAL);
	if (partial)
		printf("NOTE: probes: %llu passes not recorded: their chain has a "
		       "callback probes mode cannot see (named above)\n",
		       (unsigned long long)partial);
	partial = cs_read_stat(bpf_map__fd(skel->maps.rec_stats), CS_REC_STAT_LONG);
	if (partial)
		printf("NOTE: probes: %llu passes not recorded: their chain is longer "
		       "than the %d blocks record checks per pass\n",
		       (unsigned long long)partial, CS_REC_PM_MAX_WALK);
	/*
	 * cs_lookup_or_init() counts a full per-task map (pass and
	 * callback stacks, CS_PM_MAX_TASKS) in `stats`: those passes
	 * are not recorded either, and nothing else says so.
	 */
	partial = cs_read_stat(bpf_map__fd(skel->maps.stats), CS_STAT_DROPPED) +
		  cs_read_stat(bpf_map__fd(skel->maps.stats), CS_STAT_FAILED);
	if (partial)
		printf("NOTE: probes: %llu passes or callback runs not recorded: "
		       "per-task state map full or failing\n",
		       (unsigned long long)partial);
}

int rec_prog_stop(struct record_bpf *skel, struct ring_buffer *rb, struct cs_pm **pm,
		  struct rec_ctx *rc, const char *cmd)
{
	__u64 deadline, next_missed, lost, lost_nmi;
	int err;

	/*
	 * Stop new passes, let the ones under way end (up to 2 s), then stop
	 * everything and take what is left in the buffer. Recursion misses
	 * are polled as in the main loop, every 100 ms: their loss records
	 * are placed where they are noticed (check looks for the lost event
	 * in the 500 ms before), and a pass whose call_end a miss took stays
	 * open until the deadline, 2 s later. First what the ring holds:
	 * records come without a wakeup (rec_commit()), so up to 100 ms of
	 * them can wait there, older than any miss polled now and with
	 * passes under way among them.
	 */
	(void)ring_buffer__consume(rb);	/* a failure recurs below, said there */
	rec_poll_missed(rc, skel->obj);
	skel->bss->stopping = true;
	rec_passes_stop();
	deadline = rec_mono_ns() + 2000000000ULL;
	next_missed = rec_mono_ns() + CS_REC_MISSED_POLL_NS;
	while (!rc->err && ring_buffer__consume(rb) >= 0 && rec_passes_open() &&
	       rec_mono_ns() < deadline) {
		usleep(1000);
		if (rec_mono_ns() >= next_missed) {
			rec_poll_missed(rc, skel->obj);
			next_missed = rec_mono_ns() + CS_REC_MISSED_POLL_NS;
		}
	}
	if (rec_passes_open())
		warn("%s: warning: %u chain passes still open when recording ended\n",
		     cmd, rec_passes_open());
	if (*pm) {
		cs_pm_report(*pm, NULL);	/* passes before attach, what it missed */
		pm_notes(skel);
		cs_pm_stop(*pm);		/* the probes' links */
		*pm = NULL;
	} else if (cs_read_stat(bpf_map__fd(skel->maps.stats), CS_STAT_DROPPED)) {
		/* tracepoints mode: chain_lock_learn() found watched_heads full */
		printf("NOTE: lock waits: %llu events named a blocking or SRCU chain "
		       "past the %d whose locks are watched\n", (unsigned long long)
		       cs_read_stat(bpf_map__fd(skel->maps.stats), CS_STAT_DROPPED),
		       CS_WATCHED_LOCKS);
	}
	record_bpf__detach(skel);
	/*
	 * A program that was running as we detached may still count a loss
	 * or put a record in the ring: wait for it (detaching a tracepoint
	 * probe does not; an RCU grace period does), then take the ring's
	 * rest and write what is still pending as loss records.
	 */
	if (syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0))
		usleep(100000);
	err = ring_buffer__consume(rb);
	if (err >= 0) {
		rec_flush_pending(rc, bpf_map__fd(skel->maps.rec_pending));
		rec_poll_missed(rc, skel->obj);
	}
	lost = cs_read_stat(bpf_map__fd(skel->maps.rec_stats), CS_REC_STAT_LOST);
	lost_nmi = cs_read_stat(bpf_map__fd(skel->maps.rec_stats), CS_REC_STAT_LOST_NMI);
	if (err >= 0 && !rc->err &&
	    (rc->located[CS_REC_LOSS_RING_FULL] != lost ||
	     rc->located[CS_REC_LOSS_NMI] != lost_nmi))
		warn("%s: warning: the loss counters (%llu ring-full, %llu NMI) differ "
		     "from the loss records (%llu, %llu); the trailer counts the "
		     "records\n", cmd, (unsigned long long)lost,
		     (unsigned long long)lost_nmi,
		     (unsigned long long)rc->located[CS_REC_LOSS_RING_FULL],
		     (unsigned long long)rc->located[CS_REC_LOSS_NMI]);
	if (err < 0 || rc->err) {
		warn("%s: error: draining the ring buffer: %s\n", cmd,
		     strerror(rc->err ? -rc->err : -err));
		return CS_EXIT_ERROR;
	}
	return CS_EXIT_OK;
}
