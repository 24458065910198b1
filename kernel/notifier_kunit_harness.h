/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The KUnit tests for notifier chains, part 1 of their harness: the
 * chains and what every case uses to drive them.  Chain heads and one
 * interface over the four chain kinds, the per-test bookkeeping that lets
 * the exit hook undo whatever a failed case left behind (blocks, SRCU
 * heads, threads, gates), kernel threads that run one chain operation
 * each, and the init and exit hooks of every suite.
 *
 * Included only by kernel/notifier_kunit.c, first of its headers: one
 * compilation unit, as kernel/rcu/tree.c includes tree_plugin.h.
 */

#define NT_VAL			0x4e54UL
#define NT_VAL_UP		0x101UL
#define NT_VAL_DOWN		0x102UL
#define NT_VAL_STRESS		0x5354UL
#define NT_VAL_IRQ		0x495251UL

#define NT_LOG_MAX		32
#define NT_MAX_TRACKED		32
#define NT_MAX_SRCU		4
#define NT_MAX_TASKS		8
#define NT_MAX_GATES		4

#define NT_WAIT_MS		5000	/* upper bound of any wait for a thread */
/*
 * A gate is opened by its test; these only keep a broken test from
 * holding a CPU or a chain for good, and a gate that gives up fails its
 * case.  Both are well above any wait of a test (NT_WAIT_MS), and the
 * spinning one stays below the RCU CPU stall timeout (21 s by default).
 */
#define NT_GATE_MAX_MS		10000	/* sleeping gate gives up after this */
#define NT_GATE_SPIN_MAX_MS	10000	/* spinning gate gives up after this */

/* ---------------------------------------------------------------------- */
/* Chain heads, and one chain interface over all four kinds                */
/* ---------------------------------------------------------------------- */

static RAW_NOTIFIER_HEAD(nt_raw_head);
static ATOMIC_NOTIFIER_HEAD(nt_atomic_head);
static BLOCKING_NOTIFIER_HEAD(nt_blocking_head);
/* A second set, for the inner chain of the nesting test. */
static RAW_NOTIFIER_HEAD(nt_raw_head2);
static ATOMIC_NOTIFIER_HEAD(nt_atomic_head2);
static BLOCKING_NOTIFIER_HEAD(nt_blocking_head2);
#if NT_HAVE_SRCU
SRCU_NOTIFIER_HEAD_STATIC(nt_srcu_static_head);
static bool nt_srcu_static_used;
#endif

struct nt_chain {
	enum nt_chain_kind kind;
	void *head;		/* the raw/atomic/blocking/srcu_notifier_head */
	struct mutex *raw_lock;	/* if set, held around raw chain operations */
};

static const char * const nt_kind_names[] = {
	[NT_CHAIN_RAW] = "raw",
	[NT_CHAIN_ATOMIC] = "atomic",
	[NT_CHAIN_BLOCKING] = "blocking",
	[NT_CHAIN_SRCU] = "srcu",
};

static void nt_raw_lock(struct nt_chain *c)
{
	if (c->raw_lock)
		mutex_lock(c->raw_lock);
}

static void nt_raw_unlock(struct nt_chain *c)
{
	if (c->raw_lock)
		mutex_unlock(c->raw_lock);
}

static int nt_chain_register(struct nt_chain *c, struct notifier_block *nb)
{
	int ret = -EINVAL;

	switch (c->kind) {
	case NT_CHAIN_RAW:
		nt_raw_lock(c);
		ret = raw_notifier_chain_register(c->head, nb);
		nt_raw_unlock(c);
		break;
	case NT_CHAIN_ATOMIC:
		ret = atomic_notifier_chain_register(c->head, nb);
		break;
	case NT_CHAIN_BLOCKING:
		ret = blocking_notifier_chain_register(c->head, nb);
		break;
	case NT_CHAIN_SRCU:
		if (NT_HAVE_SRCU)
			ret = srcu_notifier_chain_register(c->head, nb);
		break;
	}
	return ret;
}

static int nt_chain_unregister(struct nt_chain *c, struct notifier_block *nb)
{
	int ret = -EINVAL;

	switch (c->kind) {
	case NT_CHAIN_RAW:
		nt_raw_lock(c);
		ret = raw_notifier_chain_unregister(c->head, nb);
		nt_raw_unlock(c);
		break;
	case NT_CHAIN_ATOMIC:
		ret = atomic_notifier_chain_unregister(c->head, nb);
		break;
	case NT_CHAIN_BLOCKING:
		ret = blocking_notifier_chain_unregister(c->head, nb);
		break;
	case NT_CHAIN_SRCU:
		if (NT_HAVE_SRCU)
			ret = srcu_notifier_chain_unregister(c->head, nb);
		break;
	}
	return ret;
}

static int nt_chain_call(struct nt_chain *c, unsigned long val, void *v)
{
	int ret = -EINVAL;

	switch (c->kind) {
	case NT_CHAIN_RAW:
		nt_raw_lock(c);
		ret = raw_notifier_call_chain(c->head, val, v);
		nt_raw_unlock(c);
		break;
	case NT_CHAIN_ATOMIC:
		ret = atomic_notifier_call_chain(c->head, val, v);
		break;
	case NT_CHAIN_BLOCKING:
		ret = blocking_notifier_call_chain(c->head, val, v);
		break;
	case NT_CHAIN_SRCU:
		if (NT_HAVE_SRCU)
			ret = srcu_notifier_call_chain(c->head, val, v);
		break;
	}
	return ret;
}

/* Robust calls (val_up, val_down) exist for raw and blocking chains only. */
static int nt_chain_call_robust(struct nt_chain *c, void *v)
{
	if (c->kind == NT_CHAIN_BLOCKING)
		return blocking_notifier_call_chain_robust(c->head, NT_VAL_UP,
							   NT_VAL_DOWN, v);
	return raw_notifier_call_chain_robust(c->head, NT_VAL_UP, NT_VAL_DOWN,
					      v);
}

static bool nt_kind_has_robust(enum nt_chain_kind kind)
{
	return kind == NT_CHAIN_RAW || kind == NT_CHAIN_BLOCKING;
}

/* The pointer to the first block of @c's list. */
static struct notifier_block __rcu **nt_chain_first(struct nt_chain *c)
{
	switch (c->kind) {
	case NT_CHAIN_RAW:
		return &((struct raw_notifier_head *)c->head)->head;
	case NT_CHAIN_ATOMIC:
		return &((struct atomic_notifier_head *)c->head)->head;
	case NT_CHAIN_BLOCKING:
		return &((struct blocking_notifier_head *)c->head)->head;
	case NT_CHAIN_SRCU:
		break;
	}
	return &((struct srcu_notifier_head *)c->head)->head;
}

/*
 * Is @nb on @c's list right now?  A lockless look, for chains that hold
 * only blocks of the test, which stay allocated whatever the chain does.
 */
static bool nt_chain_has(struct nt_chain *c, struct notifier_block *nb)
{
	struct notifier_block *p;

	for (p = rcu_access_pointer(*nt_chain_first(c)); p;
	     p = rcu_access_pointer(p->next))
		if (p == nb)
			return true;
	return false;
}

/* ---------------------------------------------------------------------- */
/* Per-test bookkeeping and cleanup                                        */
/* ---------------------------------------------------------------------- */

struct nt_op;
struct nt_gate;

struct nt_tracked {
	struct nt_chain *chain;
	struct notifier_block *nb;
};

struct nt_test_ctx {
	struct nt_tracked regs[NT_MAX_TRACKED];
	int nr_regs;
	struct srcu_notifier_head *srcu[NT_MAX_SRCU];
	int nr_srcu;
	struct notifier_block *die_nb;
	struct sys_off_handler *sys_off;
	struct task_struct *tasks[NT_MAX_TASKS];
	int nr_tasks;
	struct nt_op *ops[NT_MAX_TASKS];
	int nr_ops;
	struct nt_gate *gates[NT_MAX_GATES];
	int nr_gates;
};

static void nt_track_add(struct kunit *test, struct nt_chain *c,
			 struct notifier_block *nb)
{
	struct nt_test_ctx *ctx = test->priv;

	if (ctx->nr_regs >= NT_MAX_TRACKED) {
		KUNIT_FAIL(test, "too many registered blocks to track");
		return;
	}
	ctx->regs[ctx->nr_regs].chain = c;
	ctx->regs[ctx->nr_regs].nb = nb;
	ctx->nr_regs++;
}

static void nt_track_del(struct kunit *test, struct nt_chain *c,
			 struct notifier_block *nb)
{
	struct nt_test_ctx *ctx = test->priv;
	int i;

	for (i = ctx->nr_regs - 1; i >= 0; i--) {
		if (ctx->regs[i].chain != c || ctx->regs[i].nb != nb)
			continue;
		ctx->regs[i] = ctx->regs[--ctx->nr_regs];
		return;
	}
}

/* Register @nb on @c; on success the exit hook knows about it. */
static int nt_reg(struct kunit *test, struct nt_chain *c,
		  struct notifier_block *nb)
{
	int ret = nt_chain_register(c, nb);

	if (!ret)
		nt_track_add(test, c, nb);
	return ret;
}

/* *_register_unique_prio() exists for atomic and blocking chains only. */
static int nt_reg_unique(struct kunit *test, struct nt_chain *c,
			 struct notifier_block *nb)
{
	int ret;

	if (c->kind == NT_CHAIN_ATOMIC)
		ret = atomic_notifier_chain_register_unique_prio(c->head, nb);
	else
		ret = blocking_notifier_chain_register_unique_prio(c->head, nb);
	if (!ret)
		nt_track_add(test, c, nb);
	return ret;
}

static int nt_unreg(struct kunit *test, struct nt_chain *c,
		    struct notifier_block *nb)
{
	int ret = nt_chain_unregister(c, nb);

	if (!ret)
		nt_track_del(test, c, nb);
	return ret;
}

/* Unregister every block the test has registered, expecting success. */
static void nt_unreg_all(struct kunit *test)
{
	struct nt_test_ctx *ctx = test->priv;

	while (ctx->nr_regs > 0) {
		struct nt_tracked *t = &ctx->regs[--ctx->nr_regs];

		KUNIT_EXPECT_EQ(test, nt_chain_unregister(t->chain, t->nb), 0);
	}
}

/* A chain of @kind; @second selects the second set of static heads. */
static struct nt_chain *nt_chain_new(struct kunit *test,
				     enum nt_chain_kind kind,
				     bool second)
{
	struct nt_test_ctx *ctx = test->priv;
	struct nt_chain *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct srcu_notifier_head *h;

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->kind = kind;
	switch (kind) {
	case NT_CHAIN_RAW:
		c->head = second ? &nt_raw_head2 : &nt_raw_head;
		break;
	case NT_CHAIN_ATOMIC:
		c->head = second ? &nt_atomic_head2 : &nt_atomic_head;
		break;
	case NT_CHAIN_BLOCKING:
		c->head = second ? &nt_blocking_head2 : &nt_blocking_head;
		break;
	case NT_CHAIN_SRCU:
		if (!NT_HAVE_SRCU)
			kunit_skip(test, "no SRCU notifier chains in this kernel (CONFIG_SRCU=n)");
		KUNIT_ASSERT_LT(test, ctx->nr_srcu, NT_MAX_SRCU);
		h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, h);
		srcu_init_notifier_head(h);
		ctx->srcu[ctx->nr_srcu++] = h;
		c->head = h;
		break;
	}
	return c;
}

/* Park a finished thread until kthread_stop(), which then never races. */
static void nt_wait_for_stop(void)
{
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
}

/* Start @fn in a new thread, bound to @cpu unless @cpu is negative. */
static struct task_struct *nt_thread_start_on(struct kunit *test,
					      int (*fn)(void *data), void *arg,
					      const char *name, int cpu)
{
	struct nt_test_ctx *ctx = test->priv;
	struct task_struct *t;

	if (ctx->nr_tasks >= NT_MAX_TASKS) {
		KUNIT_FAIL(test, "too many threads");
		return NULL;
	}
	t = kthread_create(fn, arg, "%s", name);
	if (IS_ERR(t)) {
		KUNIT_FAIL(test, "cannot start thread %s: %ld", name,
			   PTR_ERR(t));
		return NULL;
	}
	if (cpu >= 0)
		kthread_bind(t, cpu);
	wake_up_process(t);
	ctx->tasks[ctx->nr_tasks++] = t;
	return t;
}

static struct task_struct *nt_thread_start(struct kunit *test,
					   int (*fn)(void *data), void *arg,
					   const char *name)
{
	return nt_thread_start_on(test, fn, arg, name, -1);
}

static void nt_threads_stop(struct kunit *test)
{
	struct nt_test_ctx *ctx = test->priv;
	int i;

	for (i = 0; i < ctx->nr_tasks; i++) {
		if (!ctx->tasks[i])
			continue;
		kthread_stop(ctx->tasks[i]);
		ctx->tasks[i] = NULL;
	}
}

/*
 * A gate: its callback signals @entered and then waits, sleeping (blocking
 * and SRCU chains) or spinning (atomic chains), until the test opens it.
 */
struct nt_gate {
	struct notifier_block nb;
	struct completion entered;
	struct completion release;
	bool released;
	bool spin;
	bool timed_out;
	atomic_t calls;
};

static int nt_gate_cb(struct notifier_block *nb, unsigned long val,
		      void *data)
{
	struct nt_gate *g = container_of(nb, struct nt_gate, nb);
	u64 deadline;

	atomic_inc(&g->calls);
	complete(&g->entered);
	if (!g->spin) {
		if (!wait_for_completion_timeout(&g->release,
						 msecs_to_jiffies(NT_GATE_MAX_MS)))
			WRITE_ONCE(g->timed_out, true);
		return NOTIFY_OK;
	}
	deadline = ktime_get_mono_fast_ns() +
		   (u64)NT_GATE_SPIN_MAX_MS * NSEC_PER_MSEC;
	while (!READ_ONCE(g->released)) {
		if (ktime_get_mono_fast_ns() > deadline) {
			WRITE_ONCE(g->timed_out, true);
			break;
		}
		cpu_relax();
	}
	return NOTIFY_OK;
}

static struct nt_gate *nt_gate_new(struct kunit *test, bool spin)
{
	struct nt_test_ctx *ctx = test->priv;
	struct nt_gate *g;

	KUNIT_ASSERT_LT(test, ctx->nr_gates, NT_MAX_GATES);
	g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, g);
	g->nb.notifier_call = nt_gate_cb;
	g->spin = spin;
	init_completion(&g->entered);
	init_completion(&g->release);
	ctx->gates[ctx->nr_gates++] = g;
	return g;
}

static void nt_gate_open(struct nt_gate *g)
{
	WRITE_ONCE(g->released, true);
	complete_all(&g->release);
}

static bool nt_gate_wait_entered(struct nt_gate *g)
{
	return wait_for_completion_timeout(&g->entered,
					   msecs_to_jiffies(NT_WAIT_MS)) > 0;
}

/* One chain operation run by its own kernel thread. */
enum nt_op_type {
	NT_OP_CALL,
	NT_OP_REGISTER,
	NT_OP_UNREGISTER,
};

struct nt_op {
	struct nt_chain *chain;
	enum nt_op_type type;
	struct notifier_block *nb;
	struct completion go;
	struct completion done;
	struct task_struct *task;
	int ret;
};

static int nt_op_fn(void *arg)
{
	struct nt_op *op = arg;

	wait_for_completion(&op->go);
	if (op->type == NT_OP_CALL)
		op->ret = nt_chain_call(op->chain, NT_VAL, op);
	else if (op->type == NT_OP_REGISTER)
		op->ret = nt_chain_register(op->chain, op->nb);
	else
		op->ret = nt_chain_unregister(op->chain, op->nb);
	/* Done for good: any number of nt_op_wait() calls see it. */
	complete_all(&op->done);
	nt_wait_for_stop();
	return 0;
}

/*
 * Start @type on @c in a new thread, bound to @cpu unless it is negative;
 * a @gated one waits for nt_op_go().
 */
static struct nt_op *nt_op_start_on(struct kunit *test, struct nt_chain *c,
				    enum nt_op_type type,
				    struct notifier_block *nb, bool gated,
				    int cpu)
{
	struct nt_test_ctx *ctx = test->priv;
	struct nt_op *op;

	op = kunit_kzalloc(test, sizeof(*op), GFP_KERNEL);
	if (!op || ctx->nr_ops >= NT_MAX_TASKS) {
		KUNIT_FAIL(test, "cannot set up a chain operation");
		return NULL;
	}
	op->chain = c;
	op->type = type;
	op->nb = nb;
	init_completion(&op->go);
	init_completion(&op->done);
	if (!gated)
		complete(&op->go);
	ctx->ops[ctx->nr_ops++] = op;
	op->task = nt_thread_start_on(test, nt_op_fn, op, "nt_op", cpu);
	return op->task ? op : NULL;
}

static struct nt_op *nt_op_start(struct kunit *test, struct nt_chain *c,
				 enum nt_op_type type,
				 struct notifier_block *nb, bool gated)
{
	return nt_op_start_on(test, c, type, nb, gated, -1);
}

static void nt_op_go(struct nt_op *op)
{
	complete_all(&op->go);
}

static bool nt_op_finished(struct nt_op *op)
{
	return completion_done(&op->done);
}

static bool nt_op_wait(struct nt_op *op)
{
	return wait_for_completion_timeout(&op->done,
					   msecs_to_jiffies(NT_WAIT_MS)) > 0;
}

/*
 * Is the writer @op held by the call in progress, as seen from outside?
 * On a blocking chain it has queued on the chain's rwsem, which the call
 * holds for reading; on an atomic or SRCU chain an unregistration has
 * unlinked its block, so it is in (or entering) the grace-period wait
 * that the call's read-side section holds up.
 */
static bool nt_op_writer_held(struct nt_op *op)
{
	struct blocking_notifier_head *bh = op->chain->head;

	if (op->chain->kind == NT_CHAIN_BLOCKING)
		return rwsem_is_contended(&bh->rwsem);
	return op->type == NT_OP_UNREGISTER && !nt_chain_has(op->chain, op->nb);
}

/*
 * Wait until the writer @op is held by the call in progress, or has
 * finished; false if it did neither within NT_WAIT_MS.  The caller tells
 * the two apart, so the verdict does not depend on how long this took.
 */
static bool nt_op_wait_held(struct nt_op *op)
{
	unsigned long end = jiffies + msecs_to_jiffies(NT_WAIT_MS);

	while (!nt_op_finished(op) && !nt_op_writer_held(op)) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(100, 200);
	}
	return true;
}

static int nt_test_init(struct kunit *test)
{
	struct nt_test_ctx *ctx;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	test->priv = ctx;
	return 0;
}

/*
 * Runs after every case, also after a failed assertion or a skip: lets
 * blocked threads finish, stops them and
 * unregisters every block still registered, so that the next case starts
 * from empty chains and no freed block stays on a chain.
 */
static void nt_test_exit(struct kunit *test)
{
	static struct notifier_block __rcu ** const heads[] = {
		&nt_raw_head.head, &nt_atomic_head.head, &nt_blocking_head.head,
		&nt_raw_head2.head, &nt_atomic_head2.head,
		&nt_blocking_head2.head,
#if NT_HAVE_SRCU
		&nt_srcu_static_head.head,
#endif
	};
	struct nt_test_ctx *ctx = test->priv;
	int i;

	if (!ctx)
		return;
	for (i = 0; i < ctx->nr_gates; i++)
		nt_gate_open(ctx->gates[i]);
	for (i = 0; i < ctx->nr_ops; i++)
		nt_op_go(ctx->ops[i]);
	nt_threads_stop(test);
	while (ctx->nr_regs > 0) {
		struct nt_tracked *t = &ctx->regs[--ctx->nr_regs];

		kunit_info(test, "cleanup: unregistering a block left on a %s chain",
			   nt_kind_names[t->chain->kind]);
		nt_chain_unregister(t->chain, t->nb);
	}
	if (ctx->die_nb)
		unregister_die_notifier(ctx->die_nb);
	if (ctx->sys_off)
		unregister_sys_off_handler(ctx->sys_off);
	for (i = 0; i < ctx->nr_srcu && NT_HAVE_SRCU; i++)
		srcu_cleanup_notifier_head(ctx->srcu[i]);
	for (i = 0; i < ARRAY_SIZE(heads); i++)
		KUNIT_EXPECT_TRUE_MSG(test, !rcu_access_pointer(*heads[i]),
				      "static head %d left non-empty", i);
}
