// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for notifier chains (include/linux/notifier.h): priority
 * order, return values, NOTIFY_STOP_MASK, robust calls and their
 * rollback, error returns, unique priorities, SRCU heads, sleeping
 * callbacks and nested chains, on every chain kind.  They are written
 * from the API's documented semantics and use no tracepoint, so they
 * run the same on any kernel/notifier.c.
 *
 * Each callback appends its block's id to a log: "51304276" is block 5,
 * then 1, then 3, ...; in a robust call "012/01" ran 0, 1 and 2 with
 * val_up and rolled 0 and 1 back with val_down.  A callback that is
 * given another value, data pointer or task than the caller's logs '?'.
 */
#include <kunit/test.h>

#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/sched.h>
#include <linux/srcu.h>
#include <linux/string.h>

/* SRCU notifier chains: 6.1 has them only when CONFIG_SRCU is set. */
#if defined(CONFIG_TINY_SRCU) || defined(CONFIG_TREE_SRCU)
#define NT_HAVE_SRCU 1
#else
#define NT_HAVE_SRCU 0
#endif

#define NT_VAL		0x4e54UL
#define NT_VAL_UP	0x101UL
#define NT_VAL_DOWN	0x102UL
#define NT_BLOCKS	8
#define NT_LOG_MAX	32

/* One chain kind: its head and the API functions of that kind. */
struct nt_ops {
	void (*init)(void *head);
	int (*reg)(void *head, struct notifier_block *nb);
	int (*unreg)(void *head, struct notifier_block *nb);
	int (*call)(void *head, unsigned long val, void *v);
	/* NULL where the kind has no such function */
	int (*robust)(void *head, unsigned long up, unsigned long down, void *v);
	int (*reg_unique)(void *head, struct notifier_block *nb);
};

static void nt_raw_init(void *h)
{
	RAW_INIT_NOTIFIER_HEAD((struct raw_notifier_head *)h);
}

static int nt_raw_reg(void *h, struct notifier_block *nb)
{
	return raw_notifier_chain_register(h, nb);
}

static int nt_raw_unreg(void *h, struct notifier_block *nb)
{
	return raw_notifier_chain_unregister(h, nb);
}

static int nt_raw_call(void *h, unsigned long val, void *v)
{
	return raw_notifier_call_chain(h, val, v);
}

static int nt_raw_robust(void *h, unsigned long up, unsigned long down, void *v)
{
	return raw_notifier_call_chain_robust(h, up, down, v);
}

static void nt_atomic_init(void *h)
{
	ATOMIC_INIT_NOTIFIER_HEAD((struct atomic_notifier_head *)h);
}

static int nt_atomic_reg(void *h, struct notifier_block *nb)
{
	return atomic_notifier_chain_register(h, nb);
}

static int nt_atomic_unreg(void *h, struct notifier_block *nb)
{
	return atomic_notifier_chain_unregister(h, nb);
}

static int nt_atomic_call(void *h, unsigned long val, void *v)
{
	return atomic_notifier_call_chain(h, val, v);
}

static int nt_atomic_reg_unique(void *h, struct notifier_block *nb)
{
	return atomic_notifier_chain_register_unique_prio(h, nb);
}

static void nt_blocking_init(void *h)
{
	BLOCKING_INIT_NOTIFIER_HEAD((struct blocking_notifier_head *)h);
}

static int nt_blocking_reg(void *h, struct notifier_block *nb)
{
	return blocking_notifier_chain_register(h, nb);
}

static int nt_blocking_unreg(void *h, struct notifier_block *nb)
{
	return blocking_notifier_chain_unregister(h, nb);
}

static int nt_blocking_call(void *h, unsigned long val, void *v)
{
	return blocking_notifier_call_chain(h, val, v);
}

static int nt_blocking_robust(void *h, unsigned long up, unsigned long down,
			      void *v)
{
	return blocking_notifier_call_chain_robust(h, up, down, v);
}

static int nt_blocking_reg_unique(void *h, struct notifier_block *nb)
{
	return blocking_notifier_chain_register_unique_prio(h, nb);
}

static const struct nt_ops nt_raw_ops = {
	nt_raw_init, nt_raw_reg, nt_raw_unreg, nt_raw_call, nt_raw_robust, NULL,
};

static const struct nt_ops nt_atomic_ops = {
	nt_atomic_init, nt_atomic_reg, nt_atomic_unreg, nt_atomic_call, NULL,
	nt_atomic_reg_unique,
};

static const struct nt_ops nt_blocking_ops = {
	nt_blocking_init, nt_blocking_reg, nt_blocking_unreg, nt_blocking_call,
	nt_blocking_robust, nt_blocking_reg_unique,
};

#if NT_HAVE_SRCU
static void nt_srcu_init(void *h)
{
	srcu_init_notifier_head(h);
}

static int nt_srcu_reg(void *h, struct notifier_block *nb)
{
	return srcu_notifier_chain_register(h, nb);
}

static int nt_srcu_unreg(void *h, struct notifier_block *nb)
{
	return srcu_notifier_chain_unregister(h, nb);
}

static int nt_srcu_call(void *h, unsigned long val, void *v)
{
	return srcu_notifier_call_chain(h, val, v);
}

static const struct nt_ops nt_srcu_ops = {
	nt_srcu_init, nt_srcu_reg, nt_srcu_unreg, nt_srcu_call, NULL, NULL,
};

/* The srcu_static parameter's head; cleaned up in suite_exit. */
SRCU_NOTIFIER_HEAD_STATIC(nt_srcu_static_head);
static bool nt_srcu_static_used;
#endif

#define NT_SLEEPS	BIT(0)	/* callbacks may sleep */
#define NT_STATIC	BIT(1)	/* a static SRCU head */

/* The parameters of most cases: every kind, and SRCU on a static head. */
static const struct nt_kind {
	const char *name;
	const struct nt_ops *ops;
	unsigned int flags;
} nt_kinds[] = {
	{ "raw", &nt_raw_ops, 0 },
	{ "atomic", &nt_atomic_ops, 0 },
	{ "blocking", &nt_blocking_ops, NT_SLEEPS },
#if NT_HAVE_SRCU
	{ "srcu", &nt_srcu_ops, NT_SLEEPS },
	{ "srcu_static", &nt_srcu_ops, NT_SLEEPS | NT_STATIC },
#endif
};

/* The log of the calls of a test, and what every callback must be given. */
struct nt_log {
	char s[NT_LOG_MAX + 1];
	unsigned long val;	/* NT_VAL, or NT_VAL_UP in a robust call */
	void *data;
	struct task_struct *task;
};

struct nt_fix;

struct nt_block {
	struct notifier_block nb;
	struct nt_fix *f;
	bool on;		/* registered, as far as the test knows */
	int ret;		/* returned, but @fail_ret for @fail_val */
	unsigned long fail_val;
	int fail_ret;
	unsigned int sleep_ms;
	struct nt_fix *inner;	/* a chain this callback calls */
	int inner_ret;
};

/* A chain and blocks 0..n-1 of it. */
struct nt_fix {
	const struct nt_kind *kind;
	void *head;
	struct nt_log *log;
	int n;
	struct nt_block b[NT_BLOCKS];
	union {
		struct raw_notifier_head raw;
		struct atomic_notifier_head atomic;
		struct blocking_notifier_head blocking;
#if NT_HAVE_SRCU
		struct srcu_notifier_head srcu;
#endif
	} h;
};

/* The fixtures of a test, for the exit hook. */
struct nt_ctx {
	struct nt_fix *fix[2];
	int nr;
};

static void nt_log_add(struct nt_log *log, char c)
{
	size_t n = strlen(log->s);

	if (n < NT_LOG_MAX)
		log->s[n] = c;
}

static int nt_block_cb(struct notifier_block *nb, unsigned long val,
		       void *data)
{
	struct nt_block *b = container_of(nb, struct nt_block, nb);
	struct nt_log *log = b->f->log;
	bool down = log->val == NT_VAL_UP && val == NT_VAL_DOWN;

	if (down && !strchr(log->s, '/'))
		nt_log_add(log, '/');
	if ((val == log->val || down) && data == log->data &&
	    current == log->task)
		nt_log_add(log, '0' + (b - b->f->b));
	else
		nt_log_add(log, '?');
	if (b->sleep_ms)
		msleep(b->sleep_ms);
	if (b->inner)
		b->inner_ret = b->inner->kind->ops->call(b->inner->head, val,
							 data);
	return b->fail_ret && val == b->fail_val ? b->fail_ret : b->ret;
}

/* A chain of the test's kind (@kind if set) with blocks of @prio. */
static struct nt_fix *nt_fix_new(struct kunit *test, const struct nt_kind *kind,
				 const int *prio, int n)
{
	struct nt_ctx *ctx = test->priv;
	struct nt_fix *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_LE(test, n, NT_BLOCKS);
	KUNIT_ASSERT_LT(test, ctx->nr, (int)ARRAY_SIZE(ctx->fix));
	f->kind = kind ?: test->param_value;
	f->head = &f->h;
	f->log = kunit_kzalloc(test, sizeof(*f->log), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->log);
#if NT_HAVE_SRCU
	if (f->kind->flags & NT_STATIC) {
		f->head = &nt_srcu_static_head;
		nt_srcu_static_used = true;
	}
#endif
	if (f->head == &f->h)
		f->kind->ops->init(f->head);
	f->n = n;
	for (i = 0; i < n; i++) {
		f->b[i].nb.notifier_call = nt_block_cb;
		f->b[i].nb.priority = prio[i];
		f->b[i].f = f;
		f->b[i].ret = NOTIFY_OK;
	}
	ctx->fix[ctx->nr++] = f;
	return f;
}

static int nt_reg(struct nt_fix *f, int i, bool unique)
{
	const struct nt_ops *ops = f->kind->ops;
	int ret = (unique ? ops->reg_unique : ops->reg)(f->head, &f->b[i].nb);

	f->b[i].on |= !ret;
	return ret;
}

static int nt_unreg(struct nt_fix *f, int i)
{
	int ret = f->kind->ops->unreg(f->head, &f->b[i].nb);

	f->b[i].on &= !!ret;
	return ret;
}

/* Register (@reg) or unregister the blocks @ids, in that order. */
static void nt_ids(struct kunit *test, struct nt_fix *f, bool reg,
		   const char *ids)
{
	for (; *ids; ids++)
		KUNIT_ASSERT_EQ_MSG(test, reg ? nt_reg(f, *ids - '0', false) :
					  nt_unreg(f, *ids - '0'), 0,
				    "%sregistering block %c", reg ? "" : "un",
				    *ids);
}

/* A call (robust: with val_up and val_down) returns @ret, runs @ids. */
static void nt_expect(struct kunit *test, struct nt_fix *f, bool robust,
		      int ret, const char *ids)
{
	const struct nt_ops *ops = f->kind->ops;
	int data, got;

	memset(f->log, 0, sizeof(*f->log));
	f->log->val = robust ? NT_VAL_UP : NT_VAL;
	f->log->data = &data;
	f->log->task = current;
	if (robust)
		got = ops->robust(f->head, NT_VAL_UP, NT_VAL_DOWN, &data);
	else
		got = ops->call(f->head, NT_VAL, &data);
	KUNIT_EXPECT_EQ_MSG(test, got, ret, "return of the call running \"%s\"",
			    ids);
	KUNIT_EXPECT_STREQ(test, f->log->s, ids);
}

static void notifier_test_return_codes(struct kunit *test)
{
	static const int errs[] = {
		-EPERM, -ENOENT, -EIO, -ENOMEM, -EBUSY, -EEXIST, -EINVAL,
		-ENOSPC, -EOPNOTSUPP, -ETIMEDOUT, -MAX_ERRNO,
	};
	static const int no_err[] = {
		NOTIFY_DONE, NOTIFY_OK, NOTIFY_STOP, NOTIFY_STOP_MASK,
	};
	int i;

	/* The values callers compare against: fixed at build time. */
	static_assert(NOTIFY_DONE == 0x0000);
	static_assert(NOTIFY_OK == 0x0001);
	static_assert(NOTIFY_STOP_MASK == 0x8000);
	static_assert(NOTIFY_STOP == 0x8001);
	static_assert(NOTIFY_BAD == 0x8002);

	KUNIT_EXPECT_EQ(test, notifier_from_errno(0), NOTIFY_OK);
	KUNIT_EXPECT_EQ(test, notifier_from_errno(-EPERM), NOTIFY_BAD);
	KUNIT_EXPECT_EQ(test, notifier_to_errno(NOTIFY_BAD), -EPERM);
	for (i = 0; i < ARRAY_SIZE(errs); i++) {
		int ret = notifier_from_errno(errs[i]);

		KUNIT_EXPECT_EQ_MSG(test, ret,
				    NOTIFY_STOP_MASK | (NOTIFY_OK - errs[i]),
				    "notifier_from_errno(%d)", errs[i]);
		KUNIT_EXPECT_EQ_MSG(test, notifier_to_errno(ret), errs[i],
				    "round trip of %d", errs[i]);
	}
	for (i = 0; i < ARRAY_SIZE(no_err); i++)
		KUNIT_EXPECT_EQ(test, notifier_to_errno(no_err[i]), 0);
}

static void notifier_test_empty_chain(struct kunit *test)
{
	struct nt_fix *f = nt_fix_new(test, NULL, NULL, 0);

	nt_expect(test, f, false, NOTIFY_DONE, "");
	KUNIT_EXPECT_EQ(test, f->kind->ops->call(f->head, NT_VAL, NULL),
			NOTIFY_DONE);
	if (f->kind->ops->robust)
		nt_expect(test, f, true, NOTIFY_DONE, "");
}

/* Highest priority first, equal priorities in registration order. */
static void notifier_test_priority_order(struct kunit *test)
{
	static const int prio[] = { 0, 10, -5, 10, 0, INT_MAX, INT_MIN, -5 };
	struct nt_fix *f = nt_fix_new(test, NULL, prio, ARRAY_SIZE(prio));

	nt_ids(test, f, true, "01234567");
	nt_expect(test, f, false, NOTIFY_OK, "51304276");
	/* The first, the last and two in the middle go. */
	nt_ids(test, f, false, "5614");
	nt_expect(test, f, false, NOTIFY_OK, "3027");
	/* A block registered again goes behind those of equal priority. */
	nt_ids(test, f, true, "15");
	nt_expect(test, f, false, NOTIFY_OK, "531027");
	nt_ids(test, f, false, "531027");
	nt_expect(test, f, false, NOTIFY_DONE, "");
}

/* A call returns the last callback's value; without STOP_MASK it goes on. */
static void notifier_test_call_returns_last(struct kunit *test)
{
	static const int prio[] = { 3, 2, 1 };
	static const int rets[][3] = {
		{ NOTIFY_OK, NOTIFY_OK, NOTIFY_DONE },
		{ NOTIFY_DONE, NOTIFY_DONE, NOTIFY_OK },
		{ 0x0042, NOTIFY_DONE, 0x7ff0 },
	};
	struct nt_fix *f = nt_fix_new(test, NULL, prio, ARRAY_SIZE(prio));
	int i, j;

	nt_ids(test, f, true, "012");
	for (i = 0; i < ARRAY_SIZE(rets); i++) {
		for (j = 0; j < 3; j++)
			f->b[j].ret = rets[i][j];
		nt_expect(test, f, false, rets[i][2], "012");
	}
}

/* A value with NOTIFY_STOP_MASK ends the call and is returned. */
static void notifier_test_stop_mask(struct kunit *test)
{
	static const int prio[] = { 4, 3, 2, 1 };
	const struct { int id, ret; const char *ran; } stops[] = {
		{ 1, NOTIFY_STOP, "01" },
		{ 1, NOTIFY_BAD, "01" },
		{ 1, NOTIFY_STOP_MASK, "01" },
		{ 1, notifier_from_errno(-ENOMEM), "01" },
		{ 1, NOTIFY_STOP_MASK | 0x0042, "01" },
		{ 0, NOTIFY_STOP, "0" },
		{ 3, NOTIFY_BAD, "0123" },
	};
	struct nt_fix *f = nt_fix_new(test, NULL, prio, ARRAY_SIZE(prio));
	int i;

	nt_ids(test, f, true, "0123");
	for (i = 0; i < ARRAY_SIZE(stops); i++) {
		f->b[stops[i].id].ret = stops[i].ret;
		nt_expect(test, f, false, stops[i].ret, stops[i].ran);
		f->b[stops[i].id].ret = NOTIFY_OK;
	}
}

/*
 * *_call_chain_robust(): val_up to every callback; if one returns a value
 * with NOTIFY_STOP_MASK, val_down to those that ran before it, in chain
 * order, and the failed val_up's value is returned.
 */
static void notifier_test_robust(struct kunit *test)
{
	static const int prio[] = { 40, 30, 20, 10 };
	const struct { int id, ret, err; const char *ran; } fails[] = {
		{ 2, notifier_from_errno(-EINVAL), -EINVAL, "012/01" },
		{ 0, NOTIFY_BAD, -EPERM, "0" },
		{ 3, notifier_from_errno(-ENOMEM), -ENOMEM, "0123/012" },
		{ 3, NOTIFY_OK, 0, "0123" },	/* success: no rollback */
	};
	struct nt_fix *f = nt_fix_new(test, NULL, prio, ARRAY_SIZE(prio));
	int i;

	nt_ids(test, f, true, "0123");
	for (i = 0; i < ARRAY_SIZE(fails); i++) {
		struct nt_block *b = &f->b[fails[i].id];

		b->fail_val = NT_VAL_UP;
		b->fail_ret = fails[i].ret;
		nt_expect(test, f, true, fails[i].ret, fails[i].ran);
		KUNIT_EXPECT_EQ(test, notifier_to_errno(fails[i].ret),
				fails[i].err);
		b->fail_ret = 0;
	}
}

/* *_register_unique_prio() refuses a taken priority, without a warning. */
static void notifier_test_unique_prio(struct kunit *test)
{
	static const int prio[] = { 5, 5, 6, 4, 5 };
	struct nt_fix *f = nt_fix_new(test, NULL, prio, ARRAY_SIZE(prio));

	KUNIT_EXPECT_EQ(test, nt_reg(f, 0, true), 0);
	KUNIT_EXPECT_EQ(test, nt_reg(f, 1, true), -EBUSY);
	KUNIT_EXPECT_EQ(test, nt_reg(f, 2, true), 0);
	KUNIT_EXPECT_EQ(test, nt_reg(f, 3, true), 0);
	nt_expect(test, f, false, NOTIFY_OK, "203");
	/* Plain registration does not care about priorities. */
	nt_ids(test, f, true, "1");
	nt_expect(test, f, false, NOTIFY_OK, "2013");
	KUNIT_EXPECT_EQ(test, nt_reg(f, 4, true), -EBUSY);
	nt_ids(test, f, false, "0123");
	KUNIT_EXPECT_EQ(test, nt_unreg(f, 4), -ENOENT);
	nt_expect(test, f, false, NOTIFY_DONE, "");
}

static void notifier_test_unregister_enoent(struct kunit *test)
{
	static const int prio[] = { 1, 2 };
	struct nt_fix *f = nt_fix_new(test, NULL, prio, ARRAY_SIZE(prio));

	/* Never registered, on an empty chain. */
	KUNIT_EXPECT_EQ(test, nt_unreg(f, 0), -ENOENT);
	/* Not on a non-empty chain, which is left as it was. */
	nt_ids(test, f, true, "0");
	KUNIT_EXPECT_EQ(test, nt_unreg(f, 1), -ENOENT);
	nt_expect(test, f, false, NOTIFY_OK, "0");
	/* Unregistered twice. */
	nt_ids(test, f, false, "0");
	KUNIT_EXPECT_EQ(test, nt_unreg(f, 0), -ENOENT);
	nt_expect(test, f, false, NOTIFY_DONE, "");
}

/* Callbacks of blocking and SRCU chains may sleep, in the caller's task. */
static void notifier_test_sleeping_callbacks(struct kunit *test)
{
	static const int prio[] = { 3, 2, 1 };
	struct nt_fix *f = nt_fix_new(test, NULL, prio, ARRAY_SIZE(prio));
	ktime_t start;
	int i;

	for (i = 0; i < ARRAY_SIZE(prio); i++)
		f->b[i].sleep_ms = 2;
	nt_ids(test, f, true, "210");
	start = ktime_get();
	nt_expect(test, f, false, NOTIFY_OK, "012");
	/* msleep() sleeps at least as long as asked */
	KUNIT_EXPECT_GE(test, ktime_ms_delta(ktime_get(), start), 6LL);
}

/* A callback of an outer chain calls an inner chain of another kind. */
static void notifier_test_nested_chains(struct kunit *test)
{
	static const int prio[] = { 10, 0, 2, 1 };
	const int *p = test->param_value;
	struct nt_fix *outer = nt_fix_new(test, &nt_kinds[p[0]], prio, 2);
	struct nt_fix *inner = nt_fix_new(test, &nt_kinds[p[1]], prio, 4);

	inner->log = outer->log;
	outer->b[0].inner = inner;
	outer->b[0].inner_ret = -1;
	nt_ids(test, outer, true, "10");
	nt_ids(test, inner, true, "23");
	nt_expect(test, outer, false, NOTIFY_OK, "0231");
	KUNIT_EXPECT_EQ(test, outer->b[0].inner_ret, NOTIFY_OK);
}

/* The next kind after @prev that has @flags (and a robust or unique op). */
static const void *nt_next_kind(const void *prev, char *desc,
				unsigned int flags, int op)
{
	const struct nt_kind *k = prev ? (const struct nt_kind *)prev + 1 :
				  nt_kinds;

	for (; k < nt_kinds + ARRAY_SIZE(nt_kinds); k++) {
		if ((k->flags & flags) != flags ||
		    (op == 1 && !k->ops->robust) ||
		    (op == 2 && !k->ops->reg_unique))
			continue;
		strscpy(desc, k->name, KUNIT_PARAM_DESC_SIZE);
		return k;
	}
	return NULL;
}

static const void *nt_all_kinds(const void *prev, char *desc)
{
	return nt_next_kind(prev, desc, 0, 0);
}

static const void *nt_robust_kinds(const void *prev, char *desc)
{
	return nt_next_kind(prev, desc, 0, 1);
}

static const void *nt_unique_kinds(const void *prev, char *desc)
{
	return nt_next_kind(prev, desc, 0, 2);
}

static const void *nt_sleeping_kinds(const void *prev, char *desc)
{
	return nt_next_kind(prev, desc, NT_SLEEPS, 0);
}

/* outer and inner kind, indices into nt_kinds */
static const int nt_nests[][2] = {
	{ 2, 1 }, { 1, 0 },
#if NT_HAVE_SRCU
	{ 3, 2 }, { 0, 3 },
#endif
};

static void nt_nest_desc(const int (*p)[2], char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s>%s", nt_kinds[(*p)[0]].name,
		 nt_kinds[(*p)[1]].name);
}

KUNIT_ARRAY_PARAM(nt_nest, nt_nests, nt_nest_desc);

static int nt_test_init(struct kunit *test)
{
	test->priv = kunit_kzalloc(test, sizeof(struct nt_ctx), GFP_KERNEL);
	return test->priv ? 0 : -ENOMEM;
}

/* Also after a failed assertion: no block stays on a chain. */
static void nt_test_exit(struct kunit *test)
{
	struct nt_ctx *ctx = test->priv;
	int i, j;

	for (i = ctx->nr - 1; i >= 0; i--) {
		struct nt_fix *f = ctx->fix[i];

		for (j = 0; j < f->n; j++)
			if (f->b[j].on)
				KUNIT_EXPECT_EQ(test, nt_unreg(f, j), 0);
#if NT_HAVE_SRCU
		if (f->kind->ops == &nt_srcu_ops && f->head == &f->h)
			srcu_cleanup_notifier_head(&f->h.srcu);
#endif
	}
}

static void nt_suite_exit(struct kunit_suite *suite)
{
#if NT_HAVE_SRCU
	/* Initialised on first use: make sure it is, then flush it. */
	if (nt_srcu_static_used) {
		synchronize_srcu(&nt_srcu_static_head.srcu);
		srcu_cleanup_notifier_head(&nt_srcu_static_head);
		nt_srcu_static_used = false;
	}
#endif
}

static struct kunit_case notifier_api_cases[] = {
	KUNIT_CASE(notifier_test_return_codes),
	KUNIT_CASE_PARAM(notifier_test_empty_chain, nt_all_kinds),
	KUNIT_CASE_PARAM(notifier_test_priority_order, nt_all_kinds),
	KUNIT_CASE_PARAM(notifier_test_call_returns_last, nt_all_kinds),
	KUNIT_CASE_PARAM(notifier_test_stop_mask, nt_all_kinds),
	KUNIT_CASE_PARAM(notifier_test_robust, nt_robust_kinds),
	KUNIT_CASE_PARAM(notifier_test_unique_prio, nt_unique_kinds),
	KUNIT_CASE_PARAM(notifier_test_unregister_enoent, nt_all_kinds),
	KUNIT_CASE_PARAM(notifier_test_sleeping_callbacks, nt_sleeping_kinds),
	KUNIT_CASE_PARAM(notifier_test_nested_chains, nt_nest_gen_params),
	{}
};

static struct kunit_suite notifier_api_suite = {
	.name = "notifier_api",
	.init = nt_test_init,
	.exit = nt_test_exit,
	.suite_exit = nt_suite_exit,
	.test_cases = notifier_api_cases,
};

kunit_test_suite(notifier_api_suite);
MODULE_DESCRIPTION("KUnit tests for notifier chains");
MODULE_LICENSE("GPL");
