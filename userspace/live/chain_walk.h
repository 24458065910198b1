/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope: read what is on a notifier chain, in call order, from kernel
 * memory (bpf/chains.bpf.c, run through BPF_PROG_TEST_RUN). Used by the
 * `chains` command, by `record` (the snapshot at start) and by the
 * `probes` mode (which callbacks to attach to).
 *
 * The walk is not atomic with respect to writers: see cs_chain.stable.
 */
#ifndef CHAINSCOPE_CHAIN_WALK_H
#define CHAINSCOPE_CHAIN_WALK_H

#include <stdbool.h>
#include <linux/types.h>

#include "trace_helpers.h"

/* At most this many blocks are read from one chain (the BPF loop bound). */
#define CS_CHAIN_MAX_BLOCKS 256

/* enum notifier_chain_kind values (<linux/notifier.h> of our kernels) */
#define CS_CHAIN_RAW		0
#define CS_CHAIN_ATOMIC		1
#define CS_CHAIN_BLOCKING	2
#define CS_CHAIN_SRCU		3
#define CS_CHAIN_KIND_UNKNOWN	(-1)

struct cs_chain_block {
	__u64 nb;		/* struct notifier_block address */
	__u64 cb;		/* nb->notifier_call */
	int priority;		/* nb->priority */
};

/* Why a head was rejected (cs_chain.status) */
enum cs_chain_status {
	CS_CHAIN_OK,
	CS_CHAIN_BAD_POINTER,	/* a next pointer outside the kernel's range */
	CS_CHAIN_FAULT,		/* bpf_probe_read_kernel() failed */
	CS_CHAIN_TOO_LONG,	/* more than CS_CHAIN_MAX_BLOCKS (or a cycle) */
	CS_CHAIN_BAD_CALLBACK,	/* a notifier_call not in kernel text */
	CS_CHAIN_BAD_ORDER,	/* priorities not in non-increasing order */
	CS_CHAIN_BAD_LOCK,	/* the head's lock does not look like one */
	CS_CHAIN_NO_ROOM,	/* a head of this kind would overlap the next
				 * kernel symbol */
	CS_CHAIN_AMBIGUOUS,	/* cs_chain_infer(): several kinds fit equally */
	CS_CHAIN_NOT_A_HEAD,	/* cs_chain_infer(): no kind fits */
	CS_CHAIN_OTHER_KIND,	/* valid as the kind asked for, but another kind
				 * fits with more evidence (chains -k) */
	CS_CHAIN_NO_EVIDENCE,	/* cs_chain_infer(): only empty lists without a
				 * conclusive lock fit, as any zeroed memory does */
};

/* One word for a status ("bad-lock"), and what it means (a phrase). */
const char *cs_chain_status_name(int status);
const char *cs_chain_status_doc(int status);

struct cs_chain {
	__u64 head;		/* address of the *_notifier_head */
	int kind;		/* CS_CHAIN_*, never UNKNOWN once walked */
	bool kind_guessed;	/* inferred, not from the table or -k */
	char name[128];		/* "sym" or "sym [module]" or "0x..." */
	int status;		/* enum cs_chain_status */
	bool stable;		/* two walks in a row gave the same list */
	__u64 walked_ns;	/* CLOCK_MONOTONIC when the walk ended */
	int nr;			/* blocks, in call order */
	struct cs_chain_block blocks[CS_CHAIN_MAX_BLOCKS];
};

struct cs_chainwalk;	/* the loaded BPF walker */

/*
 * Load the walker (needs the start-up probes to have passed); NULL and
 * errno set on failure, with a one-line message on stderr naming cmd.
 */
struct cs_chainwalk *cs_chainwalk_open(const char *cmd, bool verbose);
void cs_chainwalk_close(struct cs_chainwalk *w);
/* The walker's BPF ELF object as built in (for `bpftool prog loadall`). */
const void *cs_chainwalk_object(size_t *size);

/*
 * Walk one head of a known kind into *out (out->head/kind/name set by the
 * caller or by this function: a name left empty, out->name[0] == 0, is
 * filled in from kallsyms, so zero *out first). Walks until two walks in
 * a row agree (out->stable), at most 4 times. Returns 0 with out->status
 * CS_CHAIN_OK, or 0 with another status when the head does not validate
 * as a chain of that kind, or -errno when bpf() failed.
 */
int cs_chain_walk(struct cs_chainwalk *w, const struct ksyms *ks, __u64 head,
		  int kind, struct cs_chain *out);

/*
 * Which kind a head is, when nobody said: walk it as each of the four
 * kinds (cs_chain_walk(), plus: a head of that kind must fit before the
 * next kernel symbol). Of the kinds that validate, the one with the most
 * evidence wins: a conclusive lock check (an rwsem's or mutex's wait list
 * pointing back to itself, a spinlock magic) counts 2, a non-empty list 1.
 * Returns 0 with *out walked and out->kind_guessed set; when no kind fits,
 * more than one fits equally, or the best has no evidence at all (an
 * empty raw or atomic list: any zeroed word reads like one), out->status
 * is CS_CHAIN_NOT_A_HEAD, CS_CHAIN_AMBIGUOUS or CS_CHAIN_NO_EVIDENCE, and
 * per_kind[] (if not NULL, indexed by kind) holds each kind's own status.
 * -errno when bpf() failed.
 */
int cs_chain_infer(struct cs_chainwalk *w, const struct ksyms *ks, __u64 head,
		   struct cs_chain *out, int per_kind[4]);

/*
 * The curated table of well-known static heads. Returns how many of them
 * this kernel has (resolved through ks) in *out (malloc'ed, not walked:
 * head, kind and name set).
 */
int cs_chain_known_heads(const struct ksyms *ks, struct cs_chain **out);

#endif /* CHAINSCOPE_CHAIN_WALK_H */
