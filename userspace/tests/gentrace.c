// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * cs-gentrace: synthetic chainscope trace files for the host tests, written
 * through tracefile.c. One scenario is clean; each other one injects one
 * violation of a `chainscope check` rule, named like the rule.
 *
 *   cs-gentrace SCENARIO FILE     write one trace
 *   cs-gentrace --list            the scenario names
 *   cs-gentrace --seeds DIR       every scenario into DIR (fuzz seed corpus)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracefile.h"

#define H1 0xffffffffc0001000ULL	/* test_chain */
#define H2 0xffffffffc0002000ULL	/* nest_chain */
#define LOCK1 0xffffffffc0001010ULL
#define CB_A 0xffffffffc0003000ULL
#define CB_B 0xffffffffc0003100ULL
#define CB_C 0xffffffffc0003200ULL
#define CB_D 0xffffffffc0003300ULL
#define NB_A 0xffff888000001000ULL	/* heap blocks: no symbol */
#define NB_B 0xffff888000002000ULL
#define NB_C 0xffff888000003000ULL
#define NB_D 0xffff888000004000ULL
#define TASK1 0xffff888000100000ULL
#define TASK2 0xffff888000200000ULL

#define NOTIFY_OK 1
#define NOTIFY_STOP 0x8001
#define NOTIFY_BAD 0x8002
#define BLOCKING 2

struct blk {
	__u64 cb, nb;
	int prio;
};

static const struct blk A = { CB_A, NB_A, 10 };
static const struct blk B = { CB_B, NB_B, 0 };
static const struct blk C = { CB_C, NB_C, 0 };
static const struct blk D = { CB_D, NB_D, 5 };

static struct cs_trace_writer *w;
static __u64 now = 1000000;
static __u64 cur_task = TASK1;
static __u8 cur_ctx = CS_REC_CTX_TASK;

static void put(struct cs_rec_event *e, int type, __u64 head)
{
	e->type = type;
	e->head = head;
	e->ts = now;
	e->task = cur_task;
	e->pid = cur_task == TASK1 ? 100 : 200;
	e->ctx = cur_ctx;
	e->kind = BLOCKING;
	now += 1000;
	if (cs_trace_write(w, e, 1)) {
		perror("cs-gentrace: write");
		exit(1);
	}
}

static void member(int type, __u64 head, const struct blk *b, int err)
{
	struct cs_rec_event e = { .cb = b->cb, .nb = b->nb, .priority = b->prio,
				  .ret = err };

	put(&e, type, head);
}

static void begin(__u64 head, int type, int nr_to_call)
{
	struct cs_rec_event e = { .call_type = type, .nr_to_call = nr_to_call, .val = 3 };

	put(&e, CS_REC_CALL_BEGIN, head);
}

static void end(__u64 head, int type, int nr_to_call, int ret, int nr_calls)
{
	struct cs_rec_event e = { .call_type = type, .nr_to_call = nr_to_call, .val = 3,
				  .ret = ret, .nr_calls = nr_calls };

	put(&e, CS_REC_CALL_END, head);
}

static void run(__u64 head, const struct blk *b)
{
	struct cs_rec_event e = { .cb = b->cb, .nb = b->nb, .priority = b->prio, .val = 3 };

	put(&e, CS_REC_RUN, head);
}

static void ret(__u64 head, const struct blk *b, int r, __u64 ns)
{
	struct cs_rec_event e = { .cb = b->cb, .nb = b->nb, .priority = b->prio, .val = 3,
				  .ret = r, .duration_ns = ns };

	put(&e, CS_REC_RETURN, head);
}

static void stop(__u64 head, const struct blk *b, int r, int nr_calls)
{
	struct cs_rec_event e = { .cb = b->cb, .nb = b->nb, .priority = b->prio, .val = 3,
				  .ret = r, .nr_calls = nr_calls };

	put(&e, CS_REC_STOP, head);
}

static void lock_wait(__u64 head, int op, __u64 ns)
{
	struct cs_rec_event e = { .lock = LOCK1, .lock_op = op, .duration_ns = ns };

	put(&e, CS_REC_LOCK_WAIT, head);
}

/* call and return one callback */
static void cb(__u64 head, const struct blk *b, int r, __u64 ns)
{
	run(head, b);
	ret(head, b, r, ns);
}

/* A plain pass over A (10), B (0), C (0) */
static void pass_abc(int nr_calls_claimed)
{
	begin(H1, 0, -1);
	cb(H1, &A, NOTIFY_OK, 3000);
	cb(H1, &B, NOTIFY_OK, 150000);
	cb(H1, &C, NOTIFY_OK, 40);
	end(H1, 0, -1, NOTIFY_OK, nr_calls_claimed);
}

static void registrations(void)
{
	lock_wait(H1, 1, 0);
	member(CS_REC_REGISTER, H1, &A, 0);
	lock_wait(H1, 1, 2500);
	member(CS_REC_REGISTER, H1, &B, 0);
	lock_wait(H1, 1, 0);
	member(CS_REC_REGISTER, H1, &C, 0);
	member(CS_REC_REGISTER, H2, &D, 0);
}

static void clean_body(void)
{
	int i;

	registrations();
	for (i = 0; i < 5; i++) {
		lock_wait(H1, 0, i * 700);
		pass_abc(3);
	}
	/* A stops the pass */
	begin(H1, 0, -1);
	cb(H1, &A, NOTIFY_STOP, 2000);
	stop(H1, &A, NOTIFY_STOP, 1);
	end(H1, 0, -1, NOTIFY_STOP, 1);
	/* robust: B vetoes, rollback reaches A only */
	begin(H1, 1, -1);
	cb(H1, &A, NOTIFY_OK, 2000);
	cb(H1, &B, NOTIFY_BAD, 1000);
	stop(H1, &B, NOTIFY_BAD, 2);
	end(H1, 1, -1, NOTIFY_BAD, 2);
	begin(H1, 2, 1);
	cb(H1, &A, NOTIFY_OK, 2000);
	end(H1, 2, 1, NOTIFY_OK, 1);
	/* A calls nest_chain from inside its callback; meanwhile task 2 and
	 * a hardirq on task 1 run passes of their own */
	begin(H1, 0, -1);
	run(H1, &A);
	begin(H2, 0, -1);
	cur_task = TASK2;
	begin(H1, 0, 1);
	cb(H1, &A, NOTIFY_OK, 1500);
	cur_task = TASK1;
	cur_ctx = CS_REC_CTX_HARDIRQ;
	begin(H2, 0, -1);
	cb(H2, &D, NOTIFY_OK, 500);
	end(H2, 0, -1, NOTIFY_OK, 1);
	cur_ctx = CS_REC_CTX_TASK;
	cb(H2, &D, NOTIFY_OK, 600);
	end(H2, 0, -1, NOTIFY_OK, 1);
	cur_task = TASK2;
	end(H1, 0, 1, NOTIFY_OK, 1);
	cur_task = TASK1;
	ret(H1, &A, NOTIFY_OK, 9000);
	cb(H1, &B, NOTIFY_OK, 100000);
	cb(H1, &C, NOTIFY_OK, 50);
	end(H1, 0, -1, NOTIFY_OK, 3);
	/* C leaves; later calls reach A and B; errors consistent */
	member(CS_REC_UNREGISTER, H1, &C, 0);
	begin(H1, 0, -1);
	cb(H1, &A, NOTIFY_OK, 2000);
	cb(H1, &B, NOTIFY_OK, 120000);
	end(H1, 0, -1, NOTIFY_OK, 2);
	member(CS_REC_UNREGISTER_ERROR, H1, &C, -2);
	member(CS_REC_REGISTER_ERROR, H1, &A, -17);
	/* C comes back: now after B in registration order */
	member(CS_REC_REGISTER, H1, &C, 0);
	begin(H1, 0, -1);
	cb(H1, &A, NOTIFY_OK, 2000);
	cb(H1, &B, NOTIFY_OK, 110000);
	cb(H1, &C, NOTIFY_OK, 45);
	end(H1, 0, -1, NOTIFY_OK, 3);
	/* an empty-chain call and a pass still open when recording ends */
	begin(H2 + 0x100, 0, -1);
	end(H2 + 0x100, 0, -1, 0, 0);
	begin(H1, 0, -1);
	run(H1, &A);
}

static void scenario(const char *name)
{
	if (!strcmp(name, "clean")) {
		clean_body();
	} else if (!strcmp(name, "priority-order")) {
		registrations();
		begin(H1, 0, -1);
		cb(H1, &B, NOTIFY_OK, 100);
		cb(H1, &A, NOTIFY_OK, 100);
		cb(H1, &C, NOTIFY_OK, 100);
		end(H1, 0, -1, NOTIFY_OK, 3);
	} else if (!strcmp(name, "registration-order")) {
		registrations();
		begin(H1, 0, -1);
		cb(H1, &A, NOTIFY_OK, 100);
		cb(H1, &C, NOTIFY_OK, 100);
		cb(H1, &B, NOTIFY_OK, 100);
		end(H1, 0, -1, NOTIFY_OK, 3);
	} else if (!strcmp(name, "run-after-stop")) {
		registrations();
		begin(H1, 0, -1);
		cb(H1, &A, NOTIFY_STOP, 100);
		stop(H1, &A, NOTIFY_STOP, 1);
		cb(H1, &B, NOTIFY_OK, 100);
		end(H1, 0, -1, NOTIFY_OK, 2);
	} else if (!strcmp(name, "nr-calls")) {
		registrations();
		pass_abc(2);
	} else if (!strcmp(name, "begin-without-end")) {
		registrations();
		begin(H1, 0, -1);
		cb(H1, &A, NOTIFY_OK, 100);
		cb(H1, &B, NOTIFY_OK, 100);
		cb(H1, &C, NOTIFY_OK, 100);
		pass_abc(3);
	} else if (!strcmp(name, "rollback")) {
		registrations();
		begin(H1, 1, -1);
		cb(H1, &A, NOTIFY_OK, 100);
		cb(H1, &B, NOTIFY_BAD, 100);
		stop(H1, &B, NOTIFY_BAD, 2);
		end(H1, 1, -1, NOTIFY_BAD, 2);
		begin(H1, 2, 1);
		cb(H1, &A, NOTIFY_OK, 100);
		cb(H1, &B, NOTIFY_OK, 100);
		end(H1, 2, 1, NOTIFY_OK, 2);
	} else if (!strcmp(name, "run-after-unregister")) {
		registrations();
		member(CS_REC_UNREGISTER, H1, &C, 0);
		pass_abc(3);
	} else if (!strcmp(name, "membership-register")) {
		registrations();
		member(CS_REC_REGISTER, H1, &A, 0);
	} else if (!strcmp(name, "membership-unregister")) {
		registrations();
		member(CS_REC_UNREGISTER, H1, &C, 0);
		member(CS_REC_UNREGISTER, H1, &C, 0);
	} else if (!strcmp(name, "membership-eexist")) {
		registrations();
		member(CS_REC_UNREGISTER, H1, &C, 0);
		member(CS_REC_REGISTER_ERROR, H1, &C, -17);
	} else if (!strcmp(name, "membership-enoent")) {
		registrations();
		member(CS_REC_UNREGISTER_ERROR, H1, &A, -2);
	} else if (!strcmp(name, "slower")) {
		/* clean, but B takes ~4x longer and C starts vetoing: for diff */
		int i;

		registrations();
		for (i = 0; i < 5; i++) {
			begin(H1, 0, -1);
			cb(H1, &A, NOTIFY_OK, 3000);
			cb(H1, &B, NOTIFY_OK, 600000);
			cb(H1, &C, NOTIFY_BAD, 40);
			stop(H1, &C, NOTIFY_BAD, 3);
			end(H1, 0, -1, NOTIFY_BAD, 3);
		}
	} else {
		fprintf(stderr, "cs-gentrace: unknown scenario '%s'\n", name);
		exit(2);
	}
}

static const char *const scenarios[] = {
	"clean", "priority-order", "registration-order", "run-after-stop", "nr-calls",
	"begin-without-end", "rollback", "run-after-unregister", "membership-register",
	"membership-unregister", "membership-eexist", "membership-enoent", "slower",
};

static const struct cs_trace_sym syms[] = {
	{ H1, "test_chain", "testmod" },
	{ H2, "nest_chain", "testmod" },
	{ CB_A, "cb_a", "testmod" },
	{ CB_B, "cb_b", "testmod" },
	{ CB_C, "cb_c", NULL },
	{ CB_D, "cb_d", NULL },
	{ LOCK1, "test_chain+0x10", "testmod" },
};

static int write_one(const char *name, const char *path)
{
	int err;

	now = 1000000;
	cur_task = TASK1;
	cur_ctx = CS_REC_CTX_TASK;
	w = cs_trace_create(path, "6.1.0-test", "00000000-1111-2222-3333-444444444444",
			    now - 500);
	if (!w) {
		fprintf(stderr, "cs-gentrace: %s: %s\n", path, strerror(errno));
		return 1;
	}
	scenario(name);
	err = cs_trace_finish(w, 0, 0, now, syms, sizeof(syms) / sizeof(syms[0]));
	if (err) {
		fprintf(stderr, "cs-gentrace: %s: %s\n", path, strerror(-err));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	size_t i;
	char path[4096];

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
			puts(scenarios[i]);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--seeds")) {
		for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s.cstrace", argv[2], scenarios[i]);
			if (write_one(scenarios[i], path))
				return 1;
		}
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: cs-gentrace SCENARIO FILE | --list | --seeds DIR\n");
		return 2;
	}
	return write_one(argv[1], argv[2]);
}
