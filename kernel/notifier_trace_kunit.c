// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the notifier events (include/trace/events/notifier.h).
 *
 * Every case attaches a probe to each of the eight events, records the
 * events of the chain it watches and compares them with what its calls
 * made the chain do: the fields of register, unregister and their _error
 * variants, and the order and fields of call_begin, run, return and
 * call_end for plain and robust calls, on every kind of chain.  A last
 * case checks that only the call events move chain calls to the traced
 * walk, and that detaching them moves them back.
 *
 * The probes have the events' own prototypes: each is checked at compile
 * time against the register_trace_<event>() the header declares.  The
 * tracepoints are not exported, so the probes are attached to the
 * tracepoints found by name with tracepoint_probe_register(), which is
 * what register_trace_<event>() does with the tracepoint itself.
 *
 * Expected events are written as scripts: "B r0 t0 E" is call_begin,
 * the run and return of block 0, then call_end; "/" starts the
 * rollback pass of a robust call.  Expected callbacks likewise, as
 * strings of block ids: "012/01" ran blocks 0, 1 and 2 with val_up, then
 * 0 and 1 with val_down.
 */
#include <kunit/test.h>

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/kallsyms.h>
#include <linux/kdebug.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/objtool.h>
#include <linux/ptrace.h>
#include <linux/signal.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include <trace/events/notifier.h>

#ifdef CONFIG_X86_64
#include <asm/text-patching.h>
#include <asm/trapnr.h>
#endif

#define NT_VAL		0x4e54UL
#define NT_VAL_UP	0x101UL
#define NT_VAL_DOWN	0x102UL
#define NT_LOG_MAX	16
#define NT_MAX_TRACKED	8
#define NT_MAX_EVENTS	256
#define NT_MAX_WATCH	4

/* SRCU notifier chains: on 6.1 only when something selects CONFIG_SRCU. */
#if defined(CONFIG_TINY_SRCU) || defined(CONFIG_TREE_SRCU)
#define NT_HAVE_SRCU 1
#else
#define NT_HAVE_SRCU 0
#endif

/* ---------------------------------------------------------------------- */
/* Chains and blocks                                                       */
/* ---------------------------------------------------------------------- */

static RAW_NOTIFIER_HEAD(nt_raw_head);
static ATOMIC_NOTIFIER_HEAD(nt_atomic_head);
static BLOCKING_NOTIFIER_HEAD(nt_blocking_head);

struct nt_chain {
	enum notifier_chain_kind kind;
	void *head;
};

struct nt_ctx {
	struct nt_chain *chain;
	struct notifier_block *regs[NT_MAX_TRACKED];
	int nr_regs;
	struct srcu_notifier_head *srcu;
	struct notifier_block *die_nb;
	bool tp_attached;
};

static int nt_chain_register(struct nt_chain *c, struct notifier_block *nb)
{
	switch (c->kind) {
	case NOTIFIER_CHAIN_RAW:
		return raw_notifier_chain_register(c->head, nb);
	case NOTIFIER_CHAIN_ATOMIC:
		return atomic_notifier_chain_register(c->head, nb);
	case NOTIFIER_CHAIN_BLOCKING:
		return blocking_notifier_chain_register(c->head, nb);
	case NOTIFIER_CHAIN_SRCU:
#if NT_HAVE_SRCU
		return srcu_notifier_chain_register(c->head, nb);
#endif
		break;
	}
	return -EINVAL;
}

static int nt_chain_unregister(struct nt_chain *c, struct notifier_block *nb)
{
	switch (c->kind) {
	case NOTIFIER_CHAIN_RAW:
		return raw_notifier_chain_unregister(c->head, nb);
	case NOTIFIER_CHAIN_ATOMIC:
		return atomic_notifier_chain_unregister(c->head, nb);
	case NOTIFIER_CHAIN_BLOCKING:
		return blocking_notifier_chain_unregister(c->head, nb);
	case NOTIFIER_CHAIN_SRCU:
#if NT_HAVE_SRCU
		return srcu_notifier_chain_unregister(c->head, nb);
#endif
		break;
	}
	return -EINVAL;
}

static int nt_chain_call(struct nt_chain *c, unsigned long val, void *v)
{
	switch (c->kind) {
	case NOTIFIER_CHAIN_RAW:
		return raw_notifier_call_chain(c->head, val, v);
	case NOTIFIER_CHAIN_ATOMIC:
		return atomic_notifier_call_chain(c->head, val, v);
	case NOTIFIER_CHAIN_BLOCKING:
		return blocking_notifier_call_chain(c->head, val, v);
	case NOTIFIER_CHAIN_SRCU:
#if NT_HAVE_SRCU
		return srcu_notifier_call_chain(c->head, val, v);
#endif
		break;
	}
	return -EINVAL;
}

/* Robust calls exist for raw and blocking chains only. */
static int nt_chain_call_robust(struct nt_chain *c, void *v)
{
	if (c->kind == NOTIFIER_CHAIN_BLOCKING)
		return blocking_notifier_call_chain_robust(c->head, NT_VAL_UP,
							   NT_VAL_DOWN, v);
	return raw_notifier_call_chain_robust(c->head, NT_VAL_UP, NT_VAL_DOWN,
					      v);
}

static bool nt_kind_has_robust(enum notifier_chain_kind kind)
{
	return kind == NOTIFIER_CHAIN_RAW || kind == NOTIFIER_CHAIN_BLOCKING;
}

/* The chain of the test; an SRCU head is set up here, cleaned up at exit. */
static struct nt_chain *nt_chain_new(struct kunit *test,
				     enum notifier_chain_kind kind)
{
	struct nt_ctx *ctx = test->priv;
	struct nt_chain *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->kind = kind;
	if (kind == NOTIFIER_CHAIN_RAW)
		c->head = &nt_raw_head;
	else if (kind == NOTIFIER_CHAIN_ATOMIC)
		c->head = &nt_atomic_head;
	else if (kind == NOTIFIER_CHAIN_BLOCKING)
		c->head = &nt_blocking_head;
	if (kind == NOTIFIER_CHAIN_SRCU) {
		if (!NT_HAVE_SRCU)
			kunit_skip(test, "no SRCU notifier chains (CONFIG_SRCU=n)");
		KUNIT_ASSERT_NULL(test, ctx->srcu);
		ctx->srcu = kunit_kzalloc(test, sizeof(*ctx->srcu), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, ctx->srcu);
		srcu_init_notifier_head(ctx->srcu);
		c->head = ctx->srcu;
	}
	ctx->chain = c;
	return c;
}

struct nt_log {
	int n;
	int id[NT_LOG_MAX];
	unsigned long val[NT_LOG_MAX];
};

struct nt_block {
	struct notifier_block nb;
	struct nt_log *log;
	int id;
	int ret;		/* returned, unless @fail_val is seen */
	unsigned long fail_val;
	int fail_ret;		/* if non-zero, returned for @fail_val */
};

static int nt_block_ret(const struct nt_block *b, unsigned long val)
{
	return b->fail_ret && val == b->fail_val ? b->fail_ret : b->ret;
}

static int nt_block_cb(struct notifier_block *nb, unsigned long val,
		       void *data)
{
	struct nt_block *b = container_of(nb, struct nt_block, nb);
	struct nt_log *log = b->log;

	if (log->n < NT_LOG_MAX) {
		log->id[log->n] = b->id;
		log->val[log->n] = val;
	}
	log->n++;
	return nt_block_ret(b, val);
}

/* One chain, a log and blocks 0..n-1 of the given priorities. */
struct nt_fix {
	struct nt_chain *c;
	struct nt_log *log;
	struct nt_block *b;
};

static struct nt_fix nt_fix_new(struct kunit *test,
				enum notifier_chain_kind kind,
				const int *prio, unsigned int n)
{
	struct nt_fix f;
	unsigned int i;

	f.c = nt_chain_new(test, kind);
	f.log = kunit_kzalloc(test, sizeof(*f.log), GFP_KERNEL);
	f.b = kunit_kcalloc(test, n, sizeof(*f.b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f.log);
	KUNIT_ASSERT_NOT_NULL(test, f.b);
	for (i = 0; i < n; i++) {
		f.b[i].nb.notifier_call = nt_block_cb;
		f.b[i].nb.priority = prio[i];
		f.b[i].log = f.log;
		f.b[i].id = i;
		f.b[i].ret = NOTIFY_OK;
	}
	return f;
}

static void nt_reg_ids(struct kunit *test, struct nt_fix *f, const char *ids)
{
	struct nt_ctx *ctx = test->priv;

	for (; *ids; ids++) {
		struct notifier_block *nb = &f->b[*ids - '0'].nb;

		KUNIT_ASSERT_LT(test, ctx->nr_regs, NT_MAX_TRACKED);
		KUNIT_ASSERT_EQ_MSG(test, nt_chain_register(f->c, nb), 0,
				    "registering block %c", *ids);
		ctx->regs[ctx->nr_regs++] = nb;
	}
}

static void nt_unreg_ids(struct kunit *test, struct nt_fix *f, const char *ids)
{
	struct nt_ctx *ctx = test->priv;
	int i;

	for (; *ids; ids++) {
		struct notifier_block *nb = &f->b[*ids - '0'].nb;

		KUNIT_EXPECT_EQ_MSG(test, nt_chain_unregister(f->c, nb), 0,
				    "unregistering block %c", *ids);
		for (i = 0; i < ctx->nr_regs; i++)
			if (ctx->regs[i] == nb)
				ctx->regs[i] = ctx->regs[--ctx->nr_regs];
	}
}

/* The callbacks @ids ran, in order, with val_up before a "/", val_down after. */
static void nt_expect_log(struct kunit *test, const struct nt_log *log,
			  const char *ids, bool robust)
{
	unsigned long val = robust ? NT_VAL_UP : NT_VAL;
	int i = 0;

	for (; *ids; ids++) {
		if (*ids == '/') {
			val = NT_VAL_DOWN;
			continue;
		}
		if (i < log->n && i < NT_LOG_MAX) {
			KUNIT_EXPECT_EQ_MSG(test, log->id[i], *ids - '0',
					    "callback #%d", i);
			KUNIT_EXPECT_EQ_MSG(test, log->val[i], val,
					    "value of callback #%d", i);
		}
		i++;
	}
	KUNIT_EXPECT_EQ_MSG(test, log->n, i, "number of callbacks run");
}

static void nt_call_expect(struct kunit *test, struct nt_fix *f, int ret,
			   const char *ids)
{
	memset(f->log, 0, sizeof(*f->log));
	KUNIT_EXPECT_EQ(test, nt_chain_call(f->c, NT_VAL, NULL), ret);
	nt_expect_log(test, f->log, ids, false);
}

static void nt_robust_expect(struct kunit *test, struct nt_fix *f, int ret,
			     const char *ids)
{
	memset(f->log, 0, sizeof(*f->log));
	KUNIT_EXPECT_EQ(test, nt_chain_call_robust(f->c, NULL), ret);
	nt_expect_log(test, f->log, ids, true);
}

struct nt_kind_param {
	enum notifier_chain_kind kind;
	const char *name;
};

static const struct nt_kind_param nt_all_kinds[] = {
	{ NOTIFIER_CHAIN_RAW, "raw" },
	{ NOTIFIER_CHAIN_ATOMIC, "atomic" },
	{ NOTIFIER_CHAIN_BLOCKING, "blocking" },
#if NT_HAVE_SRCU
	{ NOTIFIER_CHAIN_SRCU, "srcu" },
#endif
};

static const struct nt_kind_param nt_robust_kinds[] = {
	{ NOTIFIER_CHAIN_RAW, "raw" },
	{ NOTIFIER_CHAIN_BLOCKING, "blocking" },
};

static void nt_kind_desc(const struct nt_kind_param *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(nt_all_kinds, nt_all_kinds, nt_kind_desc);
KUNIT_ARRAY_PARAM(nt_robust_kinds, nt_robust_kinds, nt_kind_desc);

static enum notifier_chain_kind nt_kind(struct kunit *test)
{
	return ((const struct nt_kind_param *)test->param_value)->kind;
}

/* ---------------------------------------------------------------------- */
/* The recorder and its probes                                             */
/* ---------------------------------------------------------------------- */

enum nt_ev_type {
	NT_EV_REGISTER,
	NT_EV_UNREGISTER,
	NT_EV_REGISTER_ERROR,
	NT_EV_UNREGISTER_ERROR,
	NT_EV_RUN,
	NT_EV_RETURN,
	NT_EV_CALL_BEGIN,
	NT_EV_CALL_END,
	NT_EV_NR,
};

#define NT_EV_MEMBERSHIP	(BIT(NT_EV_REGISTER) | BIT(NT_EV_UNREGISTER) | \
				 BIT(NT_EV_REGISTER_ERROR) | \
				 BIT(NT_EV_UNREGISTER_ERROR))
#define NT_EV_CALLBACKS		(BIT(NT_EV_RUN) | BIT(NT_EV_RETURN))
#define NT_EV_PASSES		(BIT(NT_EV_CALL_BEGIN) | BIT(NT_EV_CALL_END))
#define NT_EV_CALLS		(NT_EV_CALLBACKS | NT_EV_PASSES)
#define NT_EV_ALL		(BIT(NT_EV_NR) - 1)

struct nt_event {
	int valid;
	enum nt_ev_type type;
	void *cb;
	void *head;
	struct notifier_block *nb;
	int priority;
	enum notifier_chain_kind kind;
	int err;
	int ret;
	int nr_calls;
	int nr_to_call;
	enum notifier_call_type call_type;
	unsigned long val;
};

/*
 * The events of the watched heads and blocks (the rest of the kernel
 * calls its chains too).  Lock-free, as probes run in any context, NMI
 * included: a slot is claimed with an atomic increment and published
 * with a release store.
 */
static struct {
	void *heads[NT_MAX_WATCH];
	struct notifier_block *nbs[NT_MAX_WATCH];
	atomic_t n;
	atomic_t dropped;
	struct nt_event ev[NT_MAX_EVENTS];
} nt_rec;

/* The events one check looks at, in the order they were recorded. */
static const struct nt_event *nt_evs[NT_MAX_EVENTS];

static bool nt_rec_wanted(void *head, struct notifier_block *nb)
{
	unsigned int i;

	for (i = 0; i < NT_MAX_WATCH; i++) {
		void *h = READ_ONCE(nt_rec.heads[i]);
		struct notifier_block *b = READ_ONCE(nt_rec.nbs[i]);

		if ((h && h == head) || (b && b == nb))
			return true;
	}
	return false;
}

static struct nt_event *nt_rec_claim(void *data, void *head,
				     struct notifier_block *nb)
{
	struct nt_event *e;
	int idx;

	if (!nt_rec_wanted(head, nb))
		return NULL;
	idx = atomic_inc_return(&nt_rec.n) - 1;
	if (idx >= NT_MAX_EVENTS) {
		atomic_inc(&nt_rec.dropped);
		return NULL;
	}
	e = &nt_rec.ev[idx];
	memset(e, 0, sizeof(*e));
	e->type = (uintptr_t)data;
	e->head = head;
	e->nb = nb;
	return e;
}

static void nt_rec_commit(struct nt_event *e)
{
	/* Publishes the fields; pairs with smp_load_acquire() in nt_collect(). */
	smp_store_release(&e->valid, 1);
}

static void nt_probe_member_error(void *data, void *cb, void *nh,
				  struct notifier_block *nb, int priority,
				  enum notifier_chain_kind kind, int err)
{
	struct nt_event *e = nt_rec_claim(data, nh, nb);

	if (!e)
		return;
	e->cb = cb;
	e->priority = priority;
	e->kind = kind;
	e->err = err;
	nt_rec_commit(e);
}

static void nt_probe_member(void *data, void *cb, void *nh,
			    struct notifier_block *nb, int priority,
			    enum notifier_chain_kind kind)
{
	nt_probe_member_error(data, cb, nh, nb, priority, kind, 0);
}

/* notifier_run and notifier_return (class notifier_callback) */
static void nt_probe_callback(void *data, void *cb, void *nh,
			      struct notifier_block *nb, int priority,
			      enum notifier_chain_kind kind, unsigned long val,
			      int ret)
{
	struct nt_event *e = nt_rec_claim(data, nh, nb);

	if (!e)
		return;
	e->cb = cb;
	e->priority = priority;
	e->kind = kind;
	e->val = val;
	e->ret = ret;
	nt_rec_commit(e);
}

/* notifier_call_begin and notifier_call_end (class notifier_pass) */
static void nt_probe_pass(void *data, void *nh, enum notifier_chain_kind kind,
			  unsigned long val, int nr_to_call,
			  enum notifier_call_type type, int ret, int nr_calls)
{
	struct nt_event *e = nt_rec_claim(data, nh, NULL);

	if (!e)
		return;
	e->kind = kind;
	e->val = val;
	e->nr_to_call = nr_to_call;
	e->call_type = type;
	e->ret = ret;
	e->nr_calls = nr_calls;
	nt_rec_commit(e);
}

struct nt_tp {
	const char *name;
	void *probe;
	struct tracepoint *tp;
	bool attached;
};

/*
 * register_trace_<event>() is not called (sizeof does not evaluate it),
 * but makes the compiler check that @fn has the event's prototype, as
 * the indirect call in __traceiter_<event>() requires under
 * CONFIG_CFI_CLANG.
 */
#define NT_TP_CHECK(event, fn) \
	static_assert(sizeof(register_trace_notifier_##event(fn, NULL)))

NT_TP_CHECK(register, nt_probe_member);
NT_TP_CHECK(unregister, nt_probe_member);
NT_TP_CHECK(register_error, nt_probe_member_error);
NT_TP_CHECK(unregister_error, nt_probe_member_error);
NT_TP_CHECK(run, nt_probe_callback);
NT_TP_CHECK(return, nt_probe_callback);
NT_TP_CHECK(call_begin, nt_probe_pass);
NT_TP_CHECK(call_end, nt_probe_pass);

static struct nt_tp nt_tps[NT_EV_NR];

static const struct nt_tp nt_tp_defs[NT_EV_NR] = {
	[NT_EV_REGISTER] = { "notifier_register", nt_probe_member },
	[NT_EV_UNREGISTER] = { "notifier_unregister", nt_probe_member },
	[NT_EV_REGISTER_ERROR] = {
		"notifier_register_error", nt_probe_member_error
	},
	[NT_EV_UNREGISTER_ERROR] = {
		"notifier_unregister_error", nt_probe_member_error
	},
	[NT_EV_RUN] = { "notifier_run", nt_probe_callback },
	[NT_EV_RETURN] = { "notifier_return", nt_probe_callback },
	[NT_EV_CALL_BEGIN] = { "notifier_call_begin", nt_probe_pass },
	[NT_EV_CALL_END] = { "notifier_call_end", nt_probe_pass },
};

static void nt_rec_clear(void)
{
	int i;

	for (i = 0; i < NT_MAX_EVENTS; i++)
		WRITE_ONCE(nt_rec.ev[i].valid, 0);
	atomic_set(&nt_rec.dropped, 0);
	atomic_set(&nt_rec.n, 0);
}

static void nt_rec_unwatch(void)
{
	unsigned int i;

	for (i = 0; i < NT_MAX_WATCH; i++) {
		WRITE_ONCE(nt_rec.heads[i], NULL);
		WRITE_ONCE(nt_rec.nbs[i], NULL);
	}
}

/* Also record the events of @head and of @nb (either may be NULL). */
static void nt_rec_watch(struct kunit *test, void *head,
			 struct notifier_block *nb)
{
	unsigned int i;

	for (i = 0; i < NT_MAX_WATCH; i++) {
		if (nt_rec.heads[i] || nt_rec.nbs[i])
			continue;
		WRITE_ONCE(nt_rec.heads[i], head);
		WRITE_ONCE(nt_rec.nbs[i], nb);
		return;
	}
	KUNIT_FAIL(test, "too many watched heads");
}

/* Recorded events of @mask for @head (and @nb if set) into nt_evs[]. */
static int nt_collect(struct kunit *test, void *head,
		      struct notifier_block *nb, unsigned long mask)
{
	int i, n = 0, total = min(atomic_read(&nt_rec.n), NT_MAX_EVENTS);

	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&nt_rec.dropped), 0,
			    "event buffer overflowed");
	for (i = 0; i < total; i++) {
		const struct nt_event *e = &nt_rec.ev[i];

		/* Pairs with smp_store_release() in nt_rec_commit(). */
		if (!smp_load_acquire(&e->valid))
			continue;
		if (!(mask & BIT(e->type)))
			continue;
		if ((head && e->head != head) || (nb && e->nb != nb))
			continue;
		nt_evs[n++] = e;
	}
	return n;
}

static void nt_tp_find(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < NT_EV_NR; i++)
		if (!strcmp(tp->name, nt_tps[i].name))
			nt_tps[i].tp = tp;
}

static void nt_tp_detach(struct kunit *test)
{
	struct nt_ctx *ctx = test->priv;
	unsigned int i;

	for (i = 0; i < NT_EV_NR; i++) {
		if (!nt_tps[i].attached)
			continue;
		KUNIT_EXPECT_EQ(test,
				tracepoint_probe_unregister(nt_tps[i].tp,
							    nt_tps[i].probe,
							    (void *)(uintptr_t)i),
				0);
		nt_tps[i].attached = false;
	}
	/* No probe of this module may still be running after the test. */
	tracepoint_synchronize_unregister();
	nt_rec_unwatch();
	ctx->tp_attached = false;
}

/* Attach our probes to the events of @mask. */
static void nt_tp_attach_mask(struct kunit *test, unsigned long mask)
{
	struct nt_ctx *ctx = test->priv;
	unsigned int i;

	nt_rec_unwatch();
	nt_rec_clear();
	ctx->tp_attached = true;
	for (i = 0; i < NT_EV_NR; i++) {
		if (!(mask & BIT(i)))
			continue;
		KUNIT_ASSERT_EQ_MSG(test,
				    tracepoint_probe_register(nt_tps[i].tp,
							      nt_tps[i].probe,
							      (void *)(uintptr_t)i),
				    0, "cannot attach to %s", nt_tps[i].name);
		nt_tps[i].attached = true;
	}
}

/* ---------------------------------------------------------------------- */
/* Expectations on the recorded events                                     */
/* ---------------------------------------------------------------------- */

static const struct nt_event *nt_ev(struct kunit *test, int n, int i,
				    enum nt_ev_type type)
{
	const struct nt_event *e;

	if (i >= n) {
		KUNIT_FAIL(test, "event %d (%s) missing, %d recorded", i,
			   nt_tps[type].name, n);
		return NULL;
	}
	e = nt_evs[i];
	if (e->type != type) {
		KUNIT_FAIL(test, "event %d is %s, expected %s", i,
			   nt_tps[e->type].name, nt_tps[type].name);
		return NULL;
	}
	return e;
}

/* Membership event @i: of @type, for @nb, with @err; returns its head. */
static void *nt_expect_member_ev(struct kunit *test, int n, int i,
				 enum nt_ev_type type, void *head,
				 enum notifier_chain_kind kind,
				 struct notifier_block *nb, int err)
{
	const struct nt_event *e = nt_ev(test, n, i, type);

	if (!e)
		return NULL;
	KUNIT_EXPECT_PTR_EQ(test, e->cb, (void *)nb->notifier_call);
	if (head)
		KUNIT_EXPECT_PTR_EQ(test, e->head, head);
	KUNIT_EXPECT_PTR_EQ(test, e->nb, nb);
	KUNIT_EXPECT_EQ(test, e->priority, nb->priority);
	KUNIT_EXPECT_EQ(test, e->kind, kind);
	KUNIT_EXPECT_EQ(test, e->err, err);
	return e->head;
}

/* The only membership event since the last check, of @head or of @nb. */
static void *nt_expect_membership(struct kunit *test, void *head,
				  enum notifier_chain_kind kind,
				  struct notifier_block *nb,
				  enum nt_ev_type type, int err)
{
	int n = nt_collect(test, head, head ? NULL : nb, NT_EV_MEMBERSHIP);

	KUNIT_EXPECT_EQ_MSG(test, n, 1, "%s events", nt_tps[type].name);
	head = nt_expect_member_ev(test, n, 0, type, head, kind, nb, err);
	nt_rec_clear();
	return head;
}

static const struct nt_event *nt_expect_cb_ev(struct kunit *test, int n,
					      int i, enum nt_ev_type type,
					      void *head,
					      enum notifier_chain_kind kind,
					      struct notifier_block *nb,
					      unsigned long val)
{
	const struct nt_event *e = nt_ev(test, n, i, type);

	if (!e)
		return NULL;
	KUNIT_EXPECT_PTR_EQ_MSG(test, e->cb, (void *)nb->notifier_call,
				"cb of event %d", i);
	KUNIT_EXPECT_PTR_EQ_MSG(test, e->head, head, "head of event %d", i);
	KUNIT_EXPECT_PTR_EQ_MSG(test, e->nb, nb, "nb of event %d", i);
	KUNIT_EXPECT_EQ_MSG(test, e->priority, nb->priority,
			    "priority of event %d", i);
	KUNIT_EXPECT_EQ_MSG(test, e->kind, kind, "kind of event %d", i);
	KUNIT_EXPECT_EQ_MSG(test, e->val, val, "val of event %d", i);
	return e;
}

static const struct nt_event *nt_expect_pass_ev(struct kunit *test, int n,
						int i, enum nt_ev_type type,
						void *head,
						enum notifier_chain_kind kind,
						unsigned long val,
						int nr_to_call,
						enum notifier_call_type ctype)
{
	const struct nt_event *e = nt_ev(test, n, i, type);

	if (!e)
		return NULL;
	KUNIT_EXPECT_PTR_EQ_MSG(test, e->head, head, "head of event %d", i);
	KUNIT_EXPECT_EQ_MSG(test, e->kind, kind, "kind of event %d", i);
	KUNIT_EXPECT_EQ_MSG(test, e->val, val, "val of event %d", i);
	KUNIT_EXPECT_EQ_MSG(test, e->nr_to_call, nr_to_call,
			    "nr_to_call of event %d", i);
	KUNIT_EXPECT_EQ_MSG(test, e->call_type, ctype, "type of event %d", i);
	return e;
}

/*
 * The recorded events of @mask on the fixture's chain must be @script
 * (see the top of this file).  Each run and call_begin carries
 * NOTIFY_DONE (and call_begin 0 callbacks run: the outcome is not known
 * yet), each return what the block returned, each call_end the last
 * value returned in its pass (NOTIFY_DONE if none) and the number of
 * callbacks run in it.  Returns the number of events.
 */
static int nt_expect_events(struct kunit *test, struct nt_fix *f,
			    unsigned long mask, bool robust,
			    const char *script)
{
	enum notifier_call_type ctype = robust ? NOTIFIER_CALL_ROBUST :
						 NOTIFIER_CALL_PLAIN;
	unsigned long val = robust ? NT_VAL_UP : NT_VAL;
	int n = nt_collect(test, f->c->head, NULL, mask);
	int i = 0, runs = 0, nr_to_call = -1, last = NOTIFY_DONE;
	const struct nt_event *e;
	const char *s;

	for (s = script; *s; s++) {
		enum nt_ev_type type;
		struct nt_block *b;

		switch (*s) {
		case '/':
			ctype = NOTIFIER_CALL_ROLLBACK;
			val = NT_VAL_DOWN;
			nr_to_call = runs - 1;
			runs = 0;
			last = NOTIFY_DONE;
			continue;
		case 'B':
		case 'E':
			type = *s == 'B' ? NT_EV_CALL_BEGIN : NT_EV_CALL_END;
			e = nt_expect_pass_ev(test, n, i++, type, f->c->head,
					      f->c->kind, val, nr_to_call,
					      ctype);
			if (e && type == NT_EV_CALL_END) {
				KUNIT_EXPECT_EQ(test, e->ret, last);
				KUNIT_EXPECT_EQ(test, e->nr_calls, runs);
			} else if (e) {
				KUNIT_EXPECT_EQ(test, e->ret, NOTIFY_DONE);
				KUNIT_EXPECT_EQ(test, e->nr_calls, 0);
			}
			continue;
		case 'r':
			runs++;
			type = NT_EV_RUN;
			break;
		case 't':
			last = nt_block_ret(&f->b[s[1] - '0'], val);
			type = NT_EV_RETURN;
			break;
		default:
			continue;
		}
		b = &f->b[*++s - '0'];
		e = nt_expect_cb_ev(test, n, i++, type, f->c->head, f->c->kind,
				    &b->nb, val);
		if (e)
			KUNIT_EXPECT_EQ(test, e->ret, type == NT_EV_RUN ?
					NOTIFY_DONE : nt_block_ret(b, val));
	}
	KUNIT_EXPECT_EQ_MSG(test, n, i, "events of \"%s\"", script);
	return n;
}

/* A fixture with every probe attached and its chain watched. */
static struct nt_fix nt_tp_fix_new(struct kunit *test,
				   enum notifier_chain_kind kind,
				   const int *prio, unsigned int n)
{
	struct nt_fix f;

	nt_tp_attach_mask(test, NT_EV_ALL);
	f = nt_fix_new(test, kind, prio, n);
	nt_rec_watch(test, f.c->head, NULL);
	return f;
}

/* ---------------------------------------------------------------------- */
/* The die chain, called for real: an int3 that our notifier claims        */
/* ---------------------------------------------------------------------- */

/*
 * exc_int3() calls notify_die(DIE_INT3, "int3", regs, 0, X86_TRAP_BP,
 * SIGTRAP) for an int3 in kernel mode that is neither a text-patching site
 * nor a kprobe, and resumes after it if a notifier returns NOTIFY_STOP.
 * Our notifier, of priority INT_MAX, claims only the int3 at nt_int3_ip;
 * it runs in NMI-like context and only counts.
 */
struct nt_die_block {
	struct notifier_block nb;
	int hits;
};

#ifdef CONFIG_X86_64
#define NT_DIE_VAL	DIE_INT3

static unsigned long nt_int3_addr(void)
{
	unsigned long ip;

	asm("lea nt_int3_ip(%%rip), %0" : "=r" (ip));
	return ip;
}

static int nt_die_cb(struct notifier_block *nb, unsigned long val,
		     void *data)
{
	struct nt_die_block *d = container_of(nb, struct nt_die_block, nb);
	struct die_args *args = data;

	if (val != DIE_INT3 || !args->regs || user_mode(args->regs) ||
	    args->regs->ip - INT3_INSN_SIZE != nt_int3_addr())
		return NOTIFY_DONE;
	d->hits++;
	return NOTIFY_STOP;
}

/* noinline, so that the label is defined once. */
static noinline void nt_die_trap(void)
{
	asm volatile("nt_int3_ip:\n\t"
		     ANNOTATE_NOENDBR
		     "int3\n\t" : : : "memory");
}
#else
#define NT_DIE_VAL	0
#endif

/* ---------------------------------------------------------------------- */
/* Cases                                                                   */
/* ---------------------------------------------------------------------- */

/* register and unregister events, for every chain kind. */
static void notifier_test_tp_membership(struct kunit *test)
{
	static const int prio[] = { 7 };
	struct nt_fix f = nt_tp_fix_new(test, nt_kind(test), prio,
					ARRAY_SIZE(prio));

	nt_reg_ids(test, &f, "0");
	nt_expect_membership(test, f.c->head, f.c->kind, &f.b[0].nb,
			     NT_EV_REGISTER, 0);
	nt_unreg_ids(test, &f, "0");
	nt_expect_membership(test, f.c->head, f.c->kind, &f.b[0].nb,
			     NT_EV_UNREGISTER, 0);
}

/*
 * The die chain is an atomic chain whose head is private to the kernel:
 * its events are found by our block, and the head they name must stay
 * the same.  A real die event (int3) is one pass that our block stops;
 * blocks of priority INT_MAX registered before ours run first.
 */
static void notifier_test_tp_die_chain(struct kunit *test)
{
	const enum notifier_chain_kind kind = NOTIFIER_CHAIN_ATOMIC;
	struct nt_ctx *ctx = test->priv;
	const struct nt_event *e;
	int n, i, nr, ours = -1;
	struct nt_die_block *d;
	void *head;

	if (!IS_ENABLED(CONFIG_X86_64))
		kunit_skip(test, "the die chain is called through an x86-64 int3");
	d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d);
	nt_tp_attach_mask(test, NT_EV_ALL);
	nt_rec_watch(test, NULL, &d->nb);
#ifdef CONFIG_X86_64
	d->nb.notifier_call = nt_die_cb;
#endif
	d->nb.priority = INT_MAX;
	KUNIT_ASSERT_EQ(test, register_die_notifier(&d->nb), 0);
	ctx->die_nb = &d->nb;
	head = nt_expect_membership(test, NULL, kind, &d->nb, NT_EV_REGISTER,
				    0);
	KUNIT_ASSERT_NOT_NULL(test, head);
	nt_rec_watch(test, head, NULL);

#ifdef CONFIG_X86_64
	nt_die_trap();
#endif
	KUNIT_EXPECT_EQ(test, d->hits, 1);
	n = nt_collect(test, head, NULL, NT_EV_CALLS);
	for (i = 0; i < n; i++)
		if (nt_evs[i]->type == NT_EV_RUN && nt_evs[i]->nb == &d->nb)
			ours = i;
	KUNIT_ASSERT_GE(test, ours, 1);
	nr = (ours + 1) / 2;
	nt_expect_pass_ev(test, n, 0, NT_EV_CALL_BEGIN, head, kind, NT_DIE_VAL,
			  -1, NOTIFIER_CALL_PLAIN);
	nt_expect_cb_ev(test, n, ours, NT_EV_RUN, head, kind, &d->nb,
			NT_DIE_VAL);
	e = nt_expect_cb_ev(test, n, ours + 1, NT_EV_RETURN, head, kind,
			    &d->nb, NT_DIE_VAL);
	if (e)
		KUNIT_EXPECT_EQ(test, e->ret, NOTIFY_STOP);
	e = nt_expect_pass_ev(test, n, ours + 2, NT_EV_CALL_END, head, kind,
			      NT_DIE_VAL, -1, NOTIFIER_CALL_PLAIN);
	if (e) {
		KUNIT_EXPECT_EQ(test, e->ret, NOTIFY_STOP);
		KUNIT_EXPECT_EQ(test, e->nr_calls, nr);
	}
	KUNIT_EXPECT_EQ(test, n, ours + 3);

	nt_rec_clear();
	KUNIT_EXPECT_EQ(test, unregister_die_notifier(&d->nb), 0);
	ctx->die_nb = NULL;
	KUNIT_EXPECT_EQ(test, unregister_die_notifier(&d->nb), -ENOENT);
	n = nt_collect(test, NULL, &d->nb, NT_EV_MEMBERSHIP);
	KUNIT_EXPECT_EQ(test, n, 2);
	nt_expect_member_ev(test, n, 0, NT_EV_UNREGISTER, head, kind, &d->nb,
			    0);
	nt_expect_member_ev(test, n, 1, NT_EV_UNREGISTER_ERROR, head, kind,
			    &d->nb, -ENOENT);
}

/*
 * register_error with -EBUSY (atomic and blocking chains), and
 * unregister_error with -ENOENT on every kind.  (-EEXIST WARNs by
 * design: not asked of a KUnit suite, which may run with panic_on_warn.)
 */
struct nt_error_param {
	enum notifier_chain_kind kind;
	bool unique;		/* has *_register_unique_prio() */
	const char *name;
};

static const struct nt_error_param nt_error_params[] = {
	{ NOTIFIER_CHAIN_RAW, false, "raw" },
	{ NOTIFIER_CHAIN_ATOMIC, true, "atomic" },
	{ NOTIFIER_CHAIN_BLOCKING, true, "blocking" },
#if NT_HAVE_SRCU
	{ NOTIFIER_CHAIN_SRCU, false, "srcu" },
#endif
};

static void nt_error_desc(const struct nt_error_param *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(nt_error, nt_error_params, nt_error_desc);

static void notifier_test_tp_errors(struct kunit *test)
{
	static const int prio[] = { 5, 5 };
	const struct nt_error_param *p = test->param_value;
	struct nt_fix f = nt_tp_fix_new(test, p->kind, prio, ARRAY_SIZE(prio));
	struct notifier_block *nb = &f.b[1].nb;
	int ret;

	KUNIT_EXPECT_EQ(test, nt_chain_unregister(f.c, nb), -ENOENT);
	nt_expect_membership(test, f.c->head, f.c->kind, nb,
			     NT_EV_UNREGISTER_ERROR, -ENOENT);
	if (!p->unique)
		return;
	nt_reg_ids(test, &f, "0");
	nt_rec_clear();
	if (p->kind == NOTIFIER_CHAIN_ATOMIC)
		ret = atomic_notifier_chain_register_unique_prio(f.c->head, nb);
	else
		ret = blocking_notifier_chain_register_unique_prio(f.c->head,
								   nb);
	KUNIT_EXPECT_EQ(test, ret, -EBUSY);
	nt_expect_membership(test, f.c->head, f.c->kind, nb,
			     NT_EV_REGISTER_ERROR, -EBUSY);
	nt_unreg_ids(test, &f, "0");
}

/* run and return of every callback, framed by call_begin and call_end. */
static void notifier_test_tp_run_return(struct kunit *test)
{
	static const int prio[] = { 30, 20, 10 };
	struct nt_fix f = nt_tp_fix_new(test, nt_kind(test), prio,
					ARRAY_SIZE(prio));

	f.b[1].ret = NOTIFY_DONE;
	nt_reg_ids(test, &f, "012");
	nt_rec_clear();
	nt_call_expect(test, &f, NOTIFY_OK, "012");
	nt_expect_events(test, &f, NT_EV_CALLS, false,
			 "B r0 t0 r1 t1 r2 t2 E");
	nt_unreg_ids(test, &f, "012");
}

/*
 * A stopped pass: the last notifier_return, of the callback that stopped
 * it, has NOTIFY_STOP_MASK in its ret, and call_end follows it at once
 * with the callbacks that ran.  @n events, the return at @n - 2.
 */
static void nt_expect_stopped(struct kunit *test, int n, int nr_calls)
{
	KUNIT_ASSERT_GE(test, n, 3);
	KUNIT_EXPECT_EQ(test, nt_evs[n - 2]->type, NT_EV_RETURN);
	KUNIT_EXPECT_TRUE_MSG(test, nt_evs[n - 2]->ret & NOTIFY_STOP_MASK,
			      "ret 0x%x of the last return",
			      nt_evs[n - 2]->ret);
	KUNIT_EXPECT_EQ(test, nt_evs[n - 1]->type, NT_EV_CALL_END);
	KUNIT_EXPECT_EQ(test, nt_evs[n - 1]->nr_calls, nr_calls);
}

/* The return of the callback that stopped the call says so; the pass ends. */
static void notifier_test_tp_stop(struct kunit *test)
{
	static const int prio[] = { 3, 2, 1 };
	struct nt_fix f = nt_tp_fix_new(test, nt_kind(test), prio,
					ARRAY_SIZE(prio));
	int n;

	nt_reg_ids(test, &f, "012");
	f.b[1].ret = NOTIFY_STOP;
	nt_rec_clear();
	nt_call_expect(test, &f, NOTIFY_STOP, "01");
	n = nt_expect_events(test, &f, NT_EV_CALLS, false, "B r0 t0 r1 t1 E");
	nt_expect_stopped(test, n, 2);

	f.b[1].ret = NOTIFY_OK;
	f.b[0].ret = notifier_from_errno(-EIO);
	nt_rec_clear();
	nt_call_expect(test, &f, f.b[0].ret, "0");
	n = nt_expect_events(test, &f, NT_EV_CALLS, false, "B r0 t0 E");
	nt_expect_stopped(test, n, 1);
	nt_unreg_ids(test, &f, "012");
}

/*
 * A robust call: a pass of type ROBUST with val_up and, when a callback
 * fails, a pass of type ROLLBACK with val_down over the callbacks before
 * it (nr_to_call = nr_calls - 1).  Where the ROBUST pass's call_end falls
 * relative to the ROLLBACK pass is not specified and not checked.
 */
static void notifier_test_tp_robust(struct kunit *test)
{
	static const int prio[] = { 40, 30, 20, 10 };
	const int fail = notifier_from_errno(-EINVAL);
	struct nt_fix f = nt_tp_fix_new(test, nt_kind(test), prio,
					ARRAY_SIZE(prio));
	int i, n, cbs = 0, passes[2][2] = { };

	nt_reg_ids(test, &f, "0123");
	f.b[2].fail_val = NT_VAL_UP;
	f.b[2].fail_ret = fail;
	nt_rec_clear();
	nt_robust_expect(test, &f, fail, "012/01");
	nt_expect_events(test, &f, NT_EV_CALLBACKS, true,
			 "r0 t0 r1 t1 r2 t2 / r0 t0 r1 t1");

	/* Each pass event, by the number of callback events before it. */
	n = nt_collect(test, f.c->head, NULL, NT_EV_CALLS);
	KUNIT_EXPECT_EQ(test, n, 14);
	for (i = 0; i < n; i++) {
		const struct nt_event *e = nt_evs[i];
		bool back = e->call_type == NOTIFIER_CALL_ROLLBACK;
		bool end = e->type == NT_EV_CALL_END;

		if (!(BIT(e->type) & NT_EV_PASSES)) {
			cbs++;
			continue;
		}
		passes[back][end]++;
		KUNIT_EXPECT_TRUE(test, back ||
				  e->call_type == NOTIFIER_CALL_ROBUST);
		KUNIT_EXPECT_EQ(test, e->kind, f.c->kind);
		KUNIT_EXPECT_EQ(test, e->val, back ? NT_VAL_DOWN : NT_VAL_UP);
		KUNIT_EXPECT_EQ(test, e->nr_to_call, back ? 2 : -1);
		if (!end)	/* before the first up, between stop and down */
			KUNIT_EXPECT_EQ(test, cbs, back ? 6 : 0);
		else if (back)	/* after the last down */
			KUNIT_EXPECT_EQ(test, cbs, 10);
		else		/* after the stopping return */
			KUNIT_EXPECT_GE(test, cbs, 6);
		if (end) {
			KUNIT_EXPECT_EQ(test, e->ret, back ? NOTIFY_OK : fail);
			KUNIT_EXPECT_EQ(test, e->nr_calls, back ? 2 : 3);
		}
	}
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ_MSG(test, passes[i / 2][i % 2], 1,
				    "pass events of kind %d", i);

	/* Success: one ROBUST pass over all four, no rollback. */
	f.b[2].fail_ret = 0;
	nt_rec_clear();
	nt_robust_expect(test, &f, NOTIFY_OK, "0123");
	nt_expect_events(test, &f, NT_EV_CALLS, true,
			 "B r0 t0 r1 t1 r2 t2 r3 t3 E");
	nt_unreg_ids(test, &f, "0123");
}

/* call_begin and call_end fire for an empty chain too. */
static void notifier_test_tp_empty_chain(struct kunit *test)
{
	static const int none[] = { 0 };
	struct nt_fix f = nt_tp_fix_new(test, nt_kind(test), none,
					ARRAY_SIZE(none));

	nt_rec_clear();
	nt_call_expect(test, &f, NOTIFY_DONE, "");
	nt_expect_events(test, &f, NT_EV_CALLS, false, "B E");
	if (!nt_kind_has_robust(f.c->kind))
		return;
	nt_rec_clear();
	nt_robust_expect(test, &f, NOTIFY_DONE, "");
	nt_expect_events(test, &f, NT_EV_CALLS, true, "B E");
}

/* Where the last nt_cb_note_caller() returned to. */
static unsigned long nt_walk_ret;

static int nt_cb_note_caller(struct notifier_block *nb, unsigned long val,
			     void *v)
{
	WRITE_ONCE(nt_walk_ret, (unsigned long)__builtin_return_address(0));
	return NOTIFY_OK;
}

/*
 * The start of the function that called the callback, from the symbol
 * and offset kallsyms gives its return address: whatever that function
 * is named after inlining and cloning (.part, .isra, ...).
 */
static unsigned long nt_walk_start(struct kunit *test,
				   struct raw_notifier_head *nh)
{
	char sym[KSYM_SYMBOL_LEN];
	unsigned long off = 0, size = 0;
	char *plus;
	int got;

	WRITE_ONCE(nt_walk_ret, 0);
	KUNIT_EXPECT_EQ(test, raw_notifier_call_chain(nh, 0, NULL), NOTIFY_OK);
	KUNIT_ASSERT_NE(test, READ_ONCE(nt_walk_ret), 0UL);
	sprint_symbol(sym, nt_walk_ret);
	plus = strrchr(sym, '+');
	KUNIT_ASSERT_NOT_NULL_MSG(test, plus, "no symbol for %pS",
				  (void *)nt_walk_ret);
	got = sscanf(plus, "+%lx/%lx", &off, &size);
	KUNIT_ASSERT_EQ_MSG(test, got, 2, "cannot read the offset of %s", sym);
	return nt_walk_ret - off;
}

/* Is a call event enabled, by anyone (another tracer included)? */
static bool nt_call_events_enabled(void)
{
	unsigned int i;

	for (i = 0; i < NT_EV_NR; i++)
		if ((BIT(i) & NT_EV_CALLS) &&
		    static_key_enabled(&nt_tps[i].tp->key))
			return true;
	return false;
}

/*
 * One static key per kind of event: with only the membership events
 * enabled, chain calls keep the plain walk; any call event moves them to
 * the traced one, and they go back once no call event is enabled.  The
 * walk is told by the function its callback returns to.
 */
static void notifier_test_tp_keys(struct kunit *test)
{
	struct raw_notifier_head nh = RAW_NOTIFIER_INIT(nh);
	struct notifier_block nb = { .notifier_call = nt_cb_note_caller };
	unsigned long plain;

	if (!IS_ENABLED(CONFIG_KALLSYMS))
		kunit_skip(test, "needs CONFIG_KALLSYMS to tell the walks apart");
	if (nt_call_events_enabled())
		kunit_skip(test, "a call event is enabled by another tracer");
	KUNIT_ASSERT_EQ(test, raw_notifier_chain_register(&nh, &nb), 0);
	plain = nt_walk_start(test, &nh);
	/* The plain walk runs in the exported function, or in a callee. */
	kunit_info(test, "plain walk in %pS", (void *)plain);

	nt_tp_attach_mask(test, NT_EV_MEMBERSHIP);
	KUNIT_EXPECT_EQ(test, nt_walk_start(test, &nh), plain);
	nt_tp_detach(test);

	nt_tp_attach_mask(test, BIT(NT_EV_RUN));
	KUNIT_EXPECT_NE_MSG(test, nt_walk_start(test, &nh), plain,
			    "notifier_run enabled, the call took the plain walk");
	nt_tp_detach(test);

	if (nt_call_events_enabled())
		kunit_info(test, "a call event was enabled meanwhile: not checked again");
	else
		KUNIT_EXPECT_EQ(test, nt_walk_start(test, &nh), plain);
	KUNIT_EXPECT_EQ(test, raw_notifier_chain_unregister(&nh, &nb), 0);
}

/* ---------------------------------------------------------------------- */
/* Suite                                                                   */
/* ---------------------------------------------------------------------- */

/* Finds the eight events by name; skips every case if one is missing. */
static int nt_suite_init(struct kunit_suite *suite)
{
	unsigned int i;

	memcpy(nt_tps, nt_tp_defs, sizeof(nt_tps));
	for_each_kernel_tracepoint(nt_tp_find, NULL);
	for (i = 0; i < NT_EV_NR; i++) {
		if (!nt_tps[i].tp) {
			pr_err("notifier_trace_kunit: no tracepoint %s\n",
			       nt_tps[i].name);
			return -ENOENT;
		}
	}
	return 0;
}

static int nt_test_init(struct kunit *test)
{
	test->priv = kunit_kzalloc(test, sizeof(struct nt_ctx), GFP_KERNEL);
	return test->priv ? 0 : -ENOMEM;
}

/*
 * After every case, failed or skipped ones included: detach the probes
 * and unregister whatever the case left registered.
 */
static void nt_test_exit(struct kunit *test)
{
	struct nt_ctx *ctx = test->priv;

	if (ctx->tp_attached)
		nt_tp_detach(test);
	while (ctx->nr_regs > 0) {
		kunit_info(test, "cleanup: unregistering a block left behind");
		nt_chain_unregister(ctx->chain, ctx->regs[--ctx->nr_regs]);
	}
	if (ctx->die_nb)
		unregister_die_notifier(ctx->die_nb);
#if NT_HAVE_SRCU
	if (ctx->srcu)
		srcu_cleanup_notifier_head(ctx->srcu);
#endif
}

static struct kunit_case notifier_tracepoints_cases[] = {
	KUNIT_CASE_PARAM(notifier_test_tp_membership, nt_all_kinds_gen_params),
	KUNIT_CASE(notifier_test_tp_die_chain),
	KUNIT_CASE_PARAM(notifier_test_tp_errors, nt_error_gen_params),
	KUNIT_CASE_PARAM(notifier_test_tp_run_return, nt_all_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_tp_stop, nt_all_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_tp_robust, nt_robust_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_tp_empty_chain, nt_all_kinds_gen_params),
	KUNIT_CASE(notifier_test_tp_keys),
	{}
};

static struct kunit_suite notifier_tracepoints_suite = {
	.name = "notifier_tracepoints",
	.suite_init = nt_suite_init,
	.init = nt_test_init,
	.exit = nt_test_exit,
	.test_cases = notifier_tracepoints_cases,
};

kunit_test_suite(notifier_tracepoints_suite);

MODULE_DESCRIPTION("KUnit tests for the notifier tracepoints");
MODULE_LICENSE("GPL");
