/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * cs-gencheck, shared between tests/gen/gencheck.c (the crafted scenarios)
 * and tests/gen/gencheck_bench.c (the benchmark trace).
 */
#ifndef CHAINSCOPE_GENCHECK_H
#define CHAINSCOPE_GENCHECK_H

#include "tracefile.h"

#define H1 0xffffffffc0001000ULL	/* test_chain */
#define H2 0xffffffffc0002000ULL	/* nest_chain */
#define CB_A 0xffffffffc0003000ULL
#define CB_B 0xffffffffc0003100ULL
#define CB_C 0xffffffffc0003200ULL
#define CB_D 0xffffffffc0003300ULL
#define CB_E 0xffffffffc0003400ULL
#define TASK1 0xffff888000100000ULL
#define TASK2 0xffff888000200000ULL

#define NOTIFY_DONE 0
#define NOTIFY_OK 1
#define NOTIFY_STOP 0x8001
#define NOTIFY_BAD 0x8002
#define BLOCKING 2
#define PLAIN 0
#define ROBUST 1
#define ROLLBACK 2
#define VAL 3		/* val of plain and robust (val_up) passes */
#define VAL_DOWN 4	/* val of rollback passes */

struct blk {
	__u64 cb, nb;
	int prio;
};

/* A (10) on test_chain, B C E (0) on test_chain, D (5) on nest_chain */
extern const struct blk A;
extern const struct blk B;
extern const struct blk C;
extern const struct blk D;
extern const struct blk E;

extern struct cs_trace_writer *w;
extern __u64 now;
extern __u64 cur_task;	/* the task of the next event: TASK1 or TASK2 */
/* write one record, exit(1) on error */
void emit(struct cs_rec_event *e);
/* one event of the current task (tests/gen/gencheck.c) */
void put(struct cs_rec_event *e, int type, __u64 head);
void member(int type, __u64 head, const struct blk *b);
void begin(__u64 head, int type, __u64 val, int nr_to_call);
void end(__u64 head, int type, __u64 val, int nr_to_call, int ret, int nr_calls);
void run(__u64 head, __u64 val, const struct blk *b);
void ret(__u64 head, __u64 val, const struct blk *b, int r);
void cb(__u64 head, __u64 val, const struct blk *b, int r);
void stop(__u64 head, __u64 val, const struct blk *b, int r, int nr_calls);

/* tests/gen/gencheck_snap.c: "snap-NAME" scenarios (NAME), -1 if unknown */
int snap_scenario(const char *name);
#define SNAP_SCENARIOS \
	"snap-clean", "snap-clean+nosnap", "snap-order", "snap-order+nosnap", \
	"snap-unlisted-first", "snap-unlisted-first+nosnap", \
	"snap-unlisted-registered", "snap-register-listed", "snap-register-slack", \
	"snap-unregister-unlisted", "snap-enoent", "snap-eexist", "snap-unstable", \
	"snap-before-walk", "snap-midtrace", "snap-only", "snap-phantom-unlisted", \
	"snap-phantom-unlisted+nosnap",

/*
 * tests/gen/gencheck_order.c: "order-NAME" scenarios (NAME), -1 if unknown:
 * runs against the documented order of the membership events
 */
int order_scenario(const char *name);
#define ORDER_SCENARIOS \
	"order-register-midpass", "order-run-before-register", \
	"order-unregister-midpass", "order-unregistered-before-pass", \
	"order-judged-at-enoent", "order-rollback-after-unregister", \
	"order-phantom-unregister", "order-phantom-unregister-before", \
	"order-enoent-then-register", "probes-order-enoent-then-register",

/* cs-gencheck bench N FILE */
int bench(unsigned long long n, const char *path);

#endif /* CHAINSCOPE_GENCHECK_H */
