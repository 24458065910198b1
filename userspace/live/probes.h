/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope: choosing the event source (--mode) and running the `probes`
 * mode (bpf/probemode.bpf.h) for latency, contention and record.
 *
 * A tool's sequence:
 *   cs_mode_startup()          privileges, BTF, mode choice (no bpf())
 *   ... resolve symbols, cs_probe_only() ...
 *   cs_pm_features()           probes mode: tiny test loads (bpf())
 *   skel__open(); cs_pm_autoload(obj, probes)   which programs load
 *   rodata: cs_pm_die_chain = cs_pm_die_chain_addr(ks)
 *   skel__load(); attach the tool's own programs (tracepoints mode)
 *   pm = cs_pm_start(obj, ks, &opts)   API programs, seed heads, callbacks
 *   loop: cs_pm_wait_interval(pm, c) instead of cs_wait_interval(c)
 *         cs_pm_report(pm, json) with the tool's health lines
 *   cs_pm_stop(pm) before skel__destroy()
 */
#ifndef CHAINSCOPE_PROBEMODE_USER_H
#define CHAINSCOPE_PROBEMODE_USER_H

#include <stdbool.h>
#include <linux/types.h>
#include <json-c/json.h>

#include "chainscope.h"
#include "live.h"

/*
 * Privileges and BTF (cs_startup_probes()), then the mode: tracepoints
 * when asked or (auto) when the BTF declares all of tps, else probes.
 * Sets c->mode to the one chosen. CS_EXIT_OK or the exit code: 5 for
 * --mode tracepoints without the tracepoints, 9 for probes mode when
 * need_api and the BTF lacks the chain API. Makes no bpf() call.
 */
int cs_mode_startup(struct cs_common *c, const struct cs_tp *tps, int nr_tps,
		    bool need_api);

/*
 * probes mode: BPF trampolines (fentry on atomic_notifier_call_chain) and
 * kprobe.multi (a link on the same function), each by a test load and
 * attach. CS_EXIT_OK or CS_EXIT_NO_MODE with one line naming the probe
 * that failed and why.
 */
int cs_pm_features(const char *cmd);

struct bpf_object;
/* Autoload of every pm_* program: off unless probes; on only if its target exists. */
void cs_pm_autoload(struct bpf_object *obj, bool probes);
/* die_chain's address (static in kernel/notifier.c), 0 if not found */
__u64 cs_pm_die_chain_addr(const struct ksyms *ks);

struct cs_pm_opts {
	const char *cmd;
	bool verbose;		/* -v: list missing API functions and callbacks */
	__u64 only_head;	/* watch only this chain (latency/record -c) */
	int only_kind;		/* CS_KIND_ANY or the only kind to watch */
	const __u64 *heads;	/* walk these at start (with kinds) */
	const int *kinds;	/* CS_CHAIN_* or CS_CHAIN_KIND_UNKNOWN */
	int nr_heads;
	bool known_heads;	/* also the curated table (cs_chain_known_heads) */
	bool no_callbacks;	/* contention: API programs only, no callback links */
};

struct cs_pm;

/*
 * After load: attach the API programs (a missing function is skipped,
 * said once), walk the seed heads and attach their callbacks. NULL with
 * a one-line error on failure.
 */
struct cs_pm *cs_pm_start(struct bpf_object *obj, const struct ksyms *ks,
			  const struct cs_pm_opts *opts);
/* Handle head/callback messages: walk, attach. Returns <0 on a fatal error. */
int cs_pm_poll(struct cs_pm *pm, int timeout_ms);
/* An fd readable when messages wait (for poll(2) beside other rings); -1 for NULL */
int cs_pm_epoll_fd(const struct cs_pm *pm);
/* cs_wait_interval(), handling messages meanwhile (pm may be NULL). */
void cs_pm_wait_interval(struct cs_pm *pm, const struct cs_common *c);
/*
 * What probes mode missed, cumulative: WARNING/NOTE lines on stdout or
 * "probes" fields of json. No-op for pm NULL.
 */
void cs_pm_report(struct cs_pm *pm, json_object *json);
/* "mode": cs_mode_name(), and the attach summary into json or a header line */
void cs_pm_json_mode(const struct cs_common *c, json_object *json);
/* Heads currently watched (for contention: lock addresses) */
int cs_pm_heads(struct cs_pm *pm, __u64 *heads, int *kinds, int max);
void cs_pm_stop(struct cs_pm *pm);

/* Attach statistics, for the health lines and `make bench` */
struct cs_pm_attach_stats {
	int links;		/* kprobe.multi + kretprobe.multi links made */
	int attached;		/* callbacks attached */
	int failed;		/* callbacks that could not be */
	double attach_s;	/* seconds spent creating callback links */
	int api_links;		/* fentry/fexit links on the chain API */
	double api_s;		/* seconds spent creating them */
};
void cs_pm_get_attach_stats(const struct cs_pm *pm, struct cs_pm_attach_stats *st);

/* between probes.c and probes_run.c */
#define CS_PM_MAX_MISSING 32
extern const char *cs_pm_missing_fn[CS_PM_MAX_MISSING];	/* API not in BTF */
extern int cs_pm_nr_missing;
struct bpf_program;
/* "fentry/NAME" or "fexit/NAME" -> NAME, else NULL */
const char *cs_pm_target(const struct bpf_program *p);

#endif /* CHAINSCOPE_PROBEMODE_USER_H */
