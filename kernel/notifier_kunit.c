// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for notifier chains (include/linux/notifier.h).
 *
 * The tests are written from the documented semantics of the Linux 6.1
 * API, not from an implementation: the same module runs on a kernel with
 * the stock kernel/notifier.c and on one with chainscope's traced rewrite.
 *
 * notifier_api:         priority order, return values, NOTIFY_STOP_MASK,
 *                       robust calls and their rollback, error returns,
 *                       unique priorities, SRCU heads, the die chain.
 * notifier_concurrency: every chain kind called while other threads
 *                       register and unregister blocks, callers in hardirq
 *                       and softirq context, sleeping callbacks, writers
 *                       held off by running callbacks, nested chains.
 * notifier_tracepoints: the notifier:* tracepoints.  The probes are found
 *                       by name at run time and attached with
 *                       tracepoint_probe_register(), so the module refers
 *                       to no tracepoint symbol and loads on a kernel
 *                       without them, where every case is skipped.
 *
 * Every test leaves the chains it used empty.  Blocks are registered
 * through nt_reg() so that the exit hook can unregister whatever a failed
 * test left behind before the memory of the blocks is freed; threads,
 * gates and SRCU heads are tracked the same way.
 *
 * Console contract of the test harness: any WARNING fails the run unless
 * it was announced.  Registering a block twice WARNs by design, so each
 * such registration is preceded by one "notifier_kunit: expect WARN: ..."
 * line.  The module does that once on a raw chain (notifier_api) and, on
 * a kernel with the tracepoints, once on an atomic chain
 * (notifier_tracepoints).
 */
#include <kunit/test.h>

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/jiffies.h>
#include <linux/kdebug.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/timer.h>
#include <linux/tracepoint.h>

/*
 * For enum notifier_chain_kind, notifier_call_type and notifier_lock_op
 * only: no trace_*() or register_trace_*() helper of this header is used,
 * so nothing here refers to a tracepoint symbol.
 */
#include <trace/events/notifier.h>

/*
 * Loaded as a module, these are read by nt_params_load(), not only by the
 * module loader: see there.
 */
static unsigned int stress_iters = 1000;
module_param(stress_iters, uint, 0444);
MODULE_PARM_DESC(stress_iters,
		 "chain calls per caller thread and chain kind in notifier_test_stress (default 1000): at least 8 * stress_iters calls in all, plus the (un)registrations; each case reports its operations, the suite their total");

static unsigned int stress_max_ms = 60000;
module_param(stress_max_ms, uint, 0444);
MODULE_PARM_DESC(stress_max_ms,
		 "time budget of one notifier_test_stress case in ms, a safety net: running out is reported, not failed (default 60000)");

/*
 * KUnit of Linux 6.1 runs a module's suites from its MODULE_STATE_COMING
 * notifier, and load_module() calls that before parse_args() has set the
 * module's parameters: the tests would only ever see the defaults above,
 * while /sys/module/notifier_kunit/parameters shows the given values once
 * the load completed.  The arguments are in THIS_MODULE->args by then, so
 * take ours from there, as parse_args() would (on a copy: next_arg() cuts
 * up the string it walks).  Built in, the parameters are set from the
 * kernel command line long before KUnit runs.
 */
static bool nt_param_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !(strchr("-_", *a) && strchr("-_", *b)))
			return false;
	return *a == *b;
}

static void nt_params_load(void)
{
#ifdef MODULE
	char *buf, *args, *param, *val;
	unsigned int v;

	if (!THIS_MODULE->args)
		return;
	buf = kstrdup(THIS_MODULE->args, GFP_KERNEL);
	if (!buf)
		return;
	args = skip_spaces(buf);
	while (*args) {
		args = next_arg(args, &param, &val);
		if (!val && !strcmp(param, "--"))
			break;
		if (!val || kstrtouint(val, 0, &v))
			continue;	/* parse_args() will refuse the load */
		if (nt_param_eq(param, "stress_iters"))
			stress_iters = v;
		else if (nt_param_eq(param, "stress_max_ms"))
			stress_max_ms = v;
	}
	kfree(buf);
#endif
}

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
#define NT_GATE_MAX_MS		10000	/* sleeping gate gives up after this */
#define NT_GATE_SPIN_MAX_MS	1000	/* spinning gate gives up after this */
#define NT_HOLD_MS		50	/* how long a writer is shown to wait */
#define NT_BUSY_US		50	/* busy callback of the duration test */
#define NT_SLEEP_MS		1
#define NT_USLEEP_MIN		200
#define NT_USLEEP_MAX		400
#define NT_IRQ_ROUNDS		16
#define NT_TIMER_ROUNDS		4

#define NT_STRESS_CALLERS	2
#define NT_STRESS_YIELD		64	/* callers sleep once per this many calls */
#define NT_CHURN_BLOCKS		8

/*
 * The die chain: a callback at priority INT_MAX that recognises our own
 * notify_die() call by its @str pointer and stops the chain there, so no
 * other die notifier sees the test call.  On x86 the value is
 * DIE_NMIUNKNOWN, which no notifier of this kernel acts on (NMI handling
 * uses register_nmi_handler(), not the die chain); only notifiers of
 * priority INT_MAX registered before ours (kprobes, which returns
 * NOTIFY_DONE for everything) run before ours.  Other architectures do
 * not make the call.
 */
#ifdef CONFIG_X86
#define NT_DIE_VAL		DIE_NMIUNKNOWN
#define NT_DIE_VAL_UL		((unsigned long)NT_DIE_VAL)
#else
#define NT_DIE_VAL_UL		0UL
#endif
#define NT_DIE_ERR		0x5a5aL
#define NT_DIE_TRAP		0x4e
#define NT_DIE_SIG		0x53

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
#ifdef CONFIG_SRCU
SRCU_NOTIFIER_HEAD_STATIC(nt_srcu_static_head);
static bool nt_srcu_static_used;
#endif

struct nt_chain {
	enum notifier_chain_kind kind;
	void *head;		/* the raw/atomic/blocking/srcu_notifier_head */
	struct mutex *raw_lock;	/* if set, held around raw chain operations */
};

static const char *nt_kind_name(enum notifier_chain_kind kind)
{
	switch (kind) {
	case NOTIFIER_CHAIN_RAW:
		return "raw";
	case NOTIFIER_CHAIN_ATOMIC:
		return "atomic";
	case NOTIFIER_CHAIN_BLOCKING:
		return "blocking";
	case NOTIFIER_CHAIN_SRCU:
		return "srcu";
	}
	return "?";
}

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
	case NOTIFIER_CHAIN_RAW:
		nt_raw_lock(c);
		ret = raw_notifier_chain_register(c->head, nb);
		nt_raw_unlock(c);
		break;
	case NOTIFIER_CHAIN_ATOMIC:
		ret = atomic_notifier_chain_register(c->head, nb);
		break;
	case NOTIFIER_CHAIN_BLOCKING:
		ret = blocking_notifier_chain_register(c->head, nb);
		break;
	case NOTIFIER_CHAIN_SRCU:
		if (IS_ENABLED(CONFIG_SRCU))
			ret = srcu_notifier_chain_register(c->head, nb);
		break;
	}
	return ret;
}

static int nt_chain_register_unique(struct nt_chain *c,
				    struct notifier_block *nb)
{
	switch (c->kind) {
	case NOTIFIER_CHAIN_ATOMIC:
		return atomic_notifier_chain_register_unique_prio(c->head, nb);
	case NOTIFIER_CHAIN_BLOCKING:
		return blocking_notifier_chain_register_unique_prio(c->head, nb);
	default:
		return -EINVAL;
	}
}

static int nt_chain_unregister(struct nt_chain *c, struct notifier_block *nb)
{
	int ret = -EINVAL;

	switch (c->kind) {
	case NOTIFIER_CHAIN_RAW:
		nt_raw_lock(c);
		ret = raw_notifier_chain_unregister(c->head, nb);
		nt_raw_unlock(c);
		break;
	case NOTIFIER_CHAIN_ATOMIC:
		ret = atomic_notifier_chain_unregister(c->head, nb);
		break;
	case NOTIFIER_CHAIN_BLOCKING:
		ret = blocking_notifier_chain_unregister(c->head, nb);
		break;
	case NOTIFIER_CHAIN_SRCU:
		if (IS_ENABLED(CONFIG_SRCU))
			ret = srcu_notifier_chain_unregister(c->head, nb);
		break;
	}
	return ret;
}

static int nt_chain_call(struct nt_chain *c, unsigned long val, void *v)
{
	int ret = -EINVAL;

	switch (c->kind) {
	case NOTIFIER_CHAIN_RAW:
		nt_raw_lock(c);
		ret = raw_notifier_call_chain(c->head, val, v);
		nt_raw_unlock(c);
		break;
	case NOTIFIER_CHAIN_ATOMIC:
		ret = atomic_notifier_call_chain(c->head, val, v);
		break;
	case NOTIFIER_CHAIN_BLOCKING:
		ret = blocking_notifier_call_chain(c->head, val, v);
		break;
	case NOTIFIER_CHAIN_SRCU:
		if (IS_ENABLED(CONFIG_SRCU))
			ret = srcu_notifier_call_chain(c->head, val, v);
		break;
	}
	return ret;
}

/* Robust calls exist for raw and blocking chains only. */
static int nt_chain_call_robust(struct nt_chain *c, unsigned long val_up,
				unsigned long val_down, void *v)
{
	int ret = -EINVAL;

	switch (c->kind) {
	case NOTIFIER_CHAIN_RAW:
		nt_raw_lock(c);
		ret = raw_notifier_call_chain_robust(c->head, val_up, val_down,
						     v);
		nt_raw_unlock(c);
		break;
	case NOTIFIER_CHAIN_BLOCKING:
		ret = blocking_notifier_call_chain_robust(c->head, val_up,
							  val_down, v);
		break;
	default:
		break;
	}
	return ret;
}

static bool nt_kind_has_robust(enum notifier_chain_kind kind)
{
	return kind == NOTIFIER_CHAIN_RAW || kind == NOTIFIER_CHAIN_BLOCKING;
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
	struct task_struct *tasks[NT_MAX_TASKS];
	int nr_tasks;
	struct nt_op *ops[NT_MAX_TASKS];
	int nr_ops;
	struct nt_gate *gates[NT_MAX_GATES];
	int nr_gates;
	bool tp_attached;
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

static int nt_reg_unique(struct kunit *test, struct nt_chain *c,
			 struct notifier_block *nb)
{
	int ret = nt_chain_register_unique(c, nb);

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

static struct srcu_notifier_head *nt_srcu_new(struct kunit *test)
{
	struct nt_test_ctx *ctx = test->priv;
	struct srcu_notifier_head *h;

	if (!IS_ENABLED(CONFIG_SRCU))
		kunit_skip(test, "SRCU notifier chains need CONFIG_SRCU");
	KUNIT_ASSERT_LT(test, ctx->nr_srcu, NT_MAX_SRCU);
	h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h);
	srcu_init_notifier_head(h);
	ctx->srcu[ctx->nr_srcu++] = h;
	return h;
}

/* Tear down a head made by nt_srcu_new() before the end of the test. */
static void nt_srcu_cleanup(struct kunit *test, struct srcu_notifier_head *h)
{
	struct nt_test_ctx *ctx = test->priv;
	int i;

	if (!IS_ENABLED(CONFIG_SRCU))
		return;
	for (i = 0; i < ctx->nr_srcu; i++) {
		if (ctx->srcu[i] != h)
			continue;
		srcu_cleanup_notifier_head(h);
		ctx->srcu[i] = NULL;
	}
}

/* A chain of @kind; @second selects the second set of static heads. */
static struct nt_chain *nt_chain_new(struct kunit *test,
				     enum notifier_chain_kind kind,
				     bool second)
{
	struct nt_chain *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->kind = kind;
	switch (kind) {
	case NOTIFIER_CHAIN_RAW:
		c->head = second ? &nt_raw_head2 : &nt_raw_head;
		break;
	case NOTIFIER_CHAIN_ATOMIC:
		c->head = second ? &nt_atomic_head2 : &nt_atomic_head;
		break;
	case NOTIFIER_CHAIN_BLOCKING:
		c->head = second ? &nt_blocking_head2 : &nt_blocking_head;
		break;
	case NOTIFIER_CHAIN_SRCU:
		c->head = nt_srcu_new(test);
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

static struct task_struct *nt_thread_start(struct kunit *test,
					   int (*fn)(void *data), void *arg,
					   const char *name)
{
	struct nt_test_ctx *ctx = test->priv;
	struct task_struct *t;

	if (ctx->nr_tasks >= NT_MAX_TASKS) {
		KUNIT_FAIL(test, "too many threads");
		return NULL;
	}
	t = kthread_run(fn, arg, "%s", name);
	if (IS_ERR(t)) {
		KUNIT_FAIL(test, "cannot start thread %s: %ld", name,
			   PTR_ERR(t));
		return NULL;
	}
	ctx->tasks[ctx->nr_tasks++] = t;
	return t;
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

static struct nt_gate *nt_gate_new(struct kunit *test, int priority,
				   bool spin)
{
	struct nt_test_ctx *ctx = test->priv;
	struct nt_gate *g;

	KUNIT_ASSERT_LT(test, ctx->nr_gates, NT_MAX_GATES);
	g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, g);
	g->nb.notifier_call = nt_gate_cb;
	g->nb.priority = priority;
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
	int ret;

	wait_for_completion(&op->go);
	switch (op->type) {
	case NT_OP_CALL:
		ret = nt_chain_call(op->chain, NT_VAL, op);
		break;
	case NT_OP_REGISTER:
		ret = nt_chain_register(op->chain, op->nb);
		break;
	default:
		ret = nt_chain_unregister(op->chain, op->nb);
		break;
	}
	op->ret = ret;
	complete(&op->done);
	nt_wait_for_stop();
	return 0;
}

/* Start @type on @c in a new thread; a @gated one waits for nt_op_go(). */
static struct nt_op *nt_op_start(struct kunit *test, struct nt_chain *c,
				 enum nt_op_type type,
				 struct notifier_block *nb, bool gated)
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
	op->task = nt_thread_start(test, nt_op_fn, op, "nt_op");
	return op->task ? op : NULL;
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

static void nt_tp_detach(struct nt_test_ctx *ctx);

static int nt_test_init(struct kunit *test)
{
	struct nt_test_ctx *ctx;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	test->priv = ctx;
	return 0;
}

static void nt_expect_empty(struct kunit *test, void *head_ptr,
			    const char *name)
{
	KUNIT_EXPECT_TRUE_MSG(test, !head_ptr,
			      "%s was left non-empty by the test", name);
}

/*
 * Runs after every case, also after a failed assertion or a skip: lets
 * blocked threads finish, stops them, detaches the tracepoint probes and
 * unregisters every block still registered, so that the next case starts
 * from empty chains and no freed block stays on a chain.
 */
static void nt_test_exit(struct kunit *test)
{
	struct nt_test_ctx *ctx = test->priv;
	int i;

	if (!ctx)
		return;
	for (i = 0; i < ctx->nr_gates; i++)
		nt_gate_open(ctx->gates[i]);
	for (i = 0; i < ctx->nr_ops; i++)
		nt_op_go(ctx->ops[i]);
	nt_threads_stop(test);
	if (ctx->tp_attached)
		nt_tp_detach(ctx);
	while (ctx->nr_regs > 0) {
		struct nt_tracked *t = &ctx->regs[--ctx->nr_regs];

		kunit_info(test, "cleanup: unregistering a block left on a %s chain",
			   nt_kind_name(t->chain->kind));
		nt_chain_unregister(t->chain, t->nb);
	}
	if (ctx->die_nb) {
		unregister_die_notifier(ctx->die_nb);
		ctx->die_nb = NULL;
	}
	for (i = 0; i < ctx->nr_srcu && IS_ENABLED(CONFIG_SRCU); i++) {
		if (!ctx->srcu[i])
			continue;
		srcu_cleanup_notifier_head(ctx->srcu[i]);
		ctx->srcu[i] = NULL;
	}
	nt_expect_empty(test, rcu_access_pointer(nt_raw_head.head),
			"nt_raw_head");
	nt_expect_empty(test, rcu_access_pointer(nt_atomic_head.head),
			"nt_atomic_head");
	nt_expect_empty(test, rcu_access_pointer(nt_blocking_head.head),
			"nt_blocking_head");
	nt_expect_empty(test, rcu_access_pointer(nt_raw_head2.head),
			"nt_raw_head2");
	nt_expect_empty(test, rcu_access_pointer(nt_atomic_head2.head),
			"nt_atomic_head2");
	nt_expect_empty(test, rcu_access_pointer(nt_blocking_head2.head),
			"nt_blocking_head2");
#ifdef CONFIG_SRCU
	nt_expect_empty(test, rcu_access_pointer(nt_srcu_static_head.head),
			"nt_srcu_static_head");
#endif
}

/* ---------------------------------------------------------------------- */
/* Recording callbacks                                                     */
/* ---------------------------------------------------------------------- */

struct nt_log {
	int n;
	int id[NT_LOG_MAX];
	unsigned long val[NT_LOG_MAX];
	void *data[NT_LOG_MAX];
};

struct nt_block {
	struct notifier_block nb;
	struct nt_log *log;
	int id;
	int ret;		/* returned, unless @fail_val is seen */
	unsigned long fail_val;
	int fail_ret;		/* if non-zero, returned for @fail_val */
	unsigned int busy_us;	/* busy-wait that long in the callback */
	int calls;
};

static int nt_block_cb(struct notifier_block *nb, unsigned long val,
		       void *data)
{
	struct nt_block *b = container_of(nb, struct nt_block, nb);
	struct nt_log *log = b->log;

	b->calls++;
	if (log) {
		if (log->n < NT_LOG_MAX) {
			log->id[log->n] = b->id;
			log->val[log->n] = val;
			log->data[log->n] = data;
		}
		log->n++;
	}
	if (b->busy_us) {
		/*
		 * Spin for at least busy_us on the clock that notifier_return
		 * measures with, whatever udelay() makes of it under emulation.
		 */
		u64 t0 = ktime_get_mono_fast_ns();

		udelay(b->busy_us);
		while (ktime_get_mono_fast_ns() - t0 <
		       (u64)b->busy_us * NSEC_PER_USEC)
			cpu_relax();
	}
	if (b->fail_ret && val == b->fail_val)
		return b->fail_ret;
	return b->ret;
}

static struct nt_log *nt_log_new(struct kunit *test)
{
	struct nt_log *log = kunit_kzalloc(test, sizeof(*log), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, log);
	return log;
}

static void nt_log_clear(struct nt_log *log)
{
	memset(log, 0, sizeof(*log));
}

/* @n blocks with ids 0..n-1 and the given priorities, returning OK. */
static struct nt_block *nt_blocks_new(struct kunit *test, struct nt_log *log,
				      const int *prio, unsigned int n)
{
	struct nt_block *b = kunit_kcalloc(test, n, sizeof(*b), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, b);
	for (i = 0; i < n; i++) {
		b[i].nb.notifier_call = nt_block_cb;
		b[i].nb.priority = prio[i];
		b[i].log = log;
		b[i].id = i;
		b[i].ret = NOTIFY_OK;
	}
	return b;
}

/* The log must hold exactly the calls ids[i] with values vals[i]. */
static void nt_expect_calls(struct kunit *test, const struct nt_log *log,
			    const int *ids, const unsigned long *vals,
			    unsigned int n, void *data)
{
	unsigned int i;

	KUNIT_EXPECT_EQ_MSG(test, log->n, (int)n, "number of callbacks run");
	for (i = 0; i < n && i < log->n && i < NT_LOG_MAX; i++) {
		KUNIT_EXPECT_EQ_MSG(test, log->id[i], ids[i], "call #%u", i);
		if (vals)
			KUNIT_EXPECT_EQ_MSG(test, log->val[i], vals[i],
					    "value of call #%u", i);
		KUNIT_EXPECT_PTR_EQ_MSG(test, log->data[i], data,
					"data of call #%u", i);
	}
}

/* Call @c with NT_VAL and @data; expect @ret and the callbacks @ids. */
static void nt_expect_call(struct kunit *test, struct nt_chain *c,
			   struct nt_log *log, int ret, const int *ids,
			   unsigned int n)
{
	int data;

	nt_log_clear(log);
	KUNIT_EXPECT_EQ(test, nt_chain_call(c, NT_VAL, &data), ret);
	nt_expect_calls(test, log, ids, NULL, n, &data);
}

struct nt_kind_param {
	enum notifier_chain_kind kind;
	const char *name;
};

static const struct nt_kind_param nt_all_kinds[] = {
	{ NOTIFIER_CHAIN_RAW, "raw" },
	{ NOTIFIER_CHAIN_ATOMIC, "atomic" },
	{ NOTIFIER_CHAIN_BLOCKING, "blocking" },
#ifdef CONFIG_SRCU
	{ NOTIFIER_CHAIN_SRCU, "srcu" },
#endif
};

static const struct nt_kind_param nt_robust_kinds[] = {
	{ NOTIFIER_CHAIN_RAW, "raw" },
	{ NOTIFIER_CHAIN_BLOCKING, "blocking" },
};

static const struct nt_kind_param nt_sleeping_kinds[] = {
	{ NOTIFIER_CHAIN_BLOCKING, "blocking" },
#ifdef CONFIG_SRCU
	{ NOTIFIER_CHAIN_SRCU, "srcu" },
#endif
};

static void nt_kind_desc(const struct nt_kind_param *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(nt_all_kinds, nt_all_kinds, nt_kind_desc);
KUNIT_ARRAY_PARAM(nt_robust_kinds, nt_robust_kinds, nt_kind_desc);
KUNIT_ARRAY_PARAM(nt_sleeping_kinds, nt_sleeping_kinds, nt_kind_desc);

static const struct nt_kind_param *nt_param(struct kunit *test)
{
	return test->param_value;
}

/* ---------------------------------------------------------------------- */
/* Suite notifier_api                                                      */
/* ---------------------------------------------------------------------- */

static void notifier_test_return_codes(struct kunit *test)
{
	static const int errs[] = {
		-EPERM, -ENOENT, -EIO, -ENOMEM, -EBUSY, -EEXIST, -EINVAL,
		-ENOSPC, -EOPNOTSUPP, -ETIMEDOUT, -MAX_ERRNO,
	};
	unsigned int i;

	KUNIT_EXPECT_EQ(test, NOTIFY_DONE, 0x0000);
	KUNIT_EXPECT_EQ(test, NOTIFY_OK, 0x0001);
	KUNIT_EXPECT_EQ(test, NOTIFY_STOP_MASK, 0x8000);
	KUNIT_EXPECT_EQ(test, NOTIFY_STOP, 0x8001);
	KUNIT_EXPECT_EQ(test, NOTIFY_BAD, 0x8002);

	KUNIT_EXPECT_EQ(test, notifier_from_errno(0), NOTIFY_OK);
	KUNIT_EXPECT_EQ(test, notifier_from_errno(-EPERM), NOTIFY_BAD);
	KUNIT_EXPECT_EQ(test, notifier_from_errno(-EINVAL),
			NOTIFY_STOP_MASK | (NOTIFY_OK + EINVAL));
	KUNIT_EXPECT_EQ(test, notifier_to_errno(NOTIFY_BAD), -EPERM);

	for (i = 0; i < ARRAY_SIZE(errs); i++) {
		int ret = notifier_from_errno(errs[i]);

		KUNIT_EXPECT_EQ_MSG(test, ret,
				    NOTIFY_STOP_MASK | (NOTIFY_OK - errs[i]),
				    "notifier_from_errno(%d)", errs[i]);
		KUNIT_EXPECT_TRUE(test, ret & NOTIFY_STOP_MASK);
		KUNIT_EXPECT_EQ_MSG(test, notifier_to_errno(ret), errs[i],
				    "round trip of %d", errs[i]);
	}

	/* Return values that carry no error. */
	KUNIT_EXPECT_EQ(test, notifier_to_errno(NOTIFY_DONE), 0);
	KUNIT_EXPECT_EQ(test, notifier_to_errno(NOTIFY_OK), 0);
	KUNIT_EXPECT_EQ(test, notifier_to_errno(NOTIFY_STOP), 0);
	KUNIT_EXPECT_EQ(test, notifier_to_errno(NOTIFY_STOP_MASK), 0);
}

static void notifier_test_empty_chain(struct kunit *test)
{
	struct nt_chain *c = nt_chain_new(test, nt_param(test)->kind, false);
	int data;

	KUNIT_EXPECT_EQ(test, nt_chain_call(c, NT_VAL, &data), NOTIFY_DONE);
	KUNIT_EXPECT_EQ(test, nt_chain_call(c, NT_VAL, NULL), NOTIFY_DONE);
	if (nt_kind_has_robust(c->kind))
		KUNIT_EXPECT_EQ(test,
				nt_chain_call_robust(c, NT_VAL_UP, NT_VAL_DOWN,
						     &data),
				NOTIFY_DONE);
}

static void notifier_test_priority_order(struct kunit *test)
{
	static const int prio[] = { 0, 10, -5, 10, 0, INT_MAX, INT_MIN, -5 };
	static const int order[] = { 5, 1, 3, 0, 4, 2, 7, 6 };
	static const int order_del[] = { 3, 0, 2, 7 };
	static const int order_readd[] = { 5, 3, 1, 0, 2, 7 };
	static const unsigned long vals[] = {
		NT_VAL, NT_VAL, NT_VAL, NT_VAL, NT_VAL, NT_VAL, NT_VAL, NT_VAL,
	};
	struct nt_chain *c = nt_chain_new(test, nt_param(test)->kind, false);
	struct nt_log *log = nt_log_new(test);
	struct nt_block *b = nt_blocks_new(test, log, prio, ARRAY_SIZE(prio));
	unsigned int i;
	int data;

	for (i = 0; i < ARRAY_SIZE(prio); i++)
		KUNIT_ASSERT_EQ(test, nt_reg(test, c, &b[i].nb), 0);

	/* Highest priority first, equal priorities in registration order. */
	KUNIT_EXPECT_EQ(test, nt_chain_call(c, NT_VAL, &data), NOTIFY_OK);
	nt_expect_calls(test, log, order, vals, ARRAY_SIZE(order), &data);

	/* Unregister the first, the last and two in the middle. */
	KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &b[5].nb), 0);
	KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &b[6].nb), 0);
	KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &b[1].nb), 0);
	KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &b[4].nb), 0);
	nt_expect_call(test, c, log, NOTIFY_OK, order_del,
		       ARRAY_SIZE(order_del));

	/* A block registered again goes behind those of equal priority. */
	KUNIT_EXPECT_EQ(test, nt_reg(test, c, &b[1].nb), 0);
	KUNIT_EXPECT_EQ(test, nt_reg(test, c, &b[5].nb), 0);
	nt_expect_call(test, c, log, NOTIFY_OK, order_readd,
		       ARRAY_SIZE(order_readd));

	for (i = 0; i < ARRAY_SIZE(order_readd); i++)
		KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &b[order_readd[i]].nb),
				0);
	nt_expect_call(test, c, log, NOTIFY_DONE, NULL, 0);
}

static void notifier_test_call_returns_last(struct kunit *test)
{
	static const int prio[] = { 3, 2, 1 };
	static const int all[] = { 0, 1, 2 };
	struct nt_chain *c = nt_chain_new(test, nt_param(test)->kind, false);
	struct nt_log *log = nt_log_new(test);
	struct nt_block *b = nt_blocks_new(test, log, prio, ARRAY_SIZE(prio));
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(prio); i++)
		KUNIT_ASSERT_EQ(test, nt_reg(test, c, &b[i].nb), 0);

	b[2].ret = NOTIFY_DONE;
	nt_expect_call(test, c, log, NOTIFY_DONE, all, ARRAY_SIZE(all));

	b[0].ret = NOTIFY_DONE;
	b[1].ret = NOTIFY_DONE;
	b[2].ret = NOTIFY_OK;
	nt_expect_call(test, c, log, NOTIFY_OK, all, ARRAY_SIZE(all));

	/* Any value without NOTIFY_STOP_MASK lets the call go on. */
	b[0].ret = 0x0042;
	b[2].ret = 0x7ff0;
	nt_expect_call(test, c, log, 0x7ff0, all, ARRAY_SIZE(all));

	for (i = 0; i < ARRAY_SIZE(prio); i++)
		KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &b[i].nb), 0);
}

static void notifier_test_stop_mask(struct kunit *test)
{
	static const int prio[] = { 4, 3, 2, 1 };
	static const int first_two[] = { 0, 1 };
	static const int first[] = { 0 };
	static const int all[] = { 0, 1, 2, 3 };
	const int stops[] = {
		NOTIFY_STOP, NOTIFY_BAD, NOTIFY_STOP_MASK,
		notifier_from_errno(-ENOMEM), NOTIFY_STOP_MASK | 0x0042,
	};
	struct nt_chain *c = nt_chain_new(test, nt_param(test)->kind, false);
	struct nt_log *log = nt_log_new(test);
	struct nt_block *b = nt_blocks_new(test, log, prio, ARRAY_SIZE(prio));
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(prio); i++)
		KUNIT_ASSERT_EQ(test, nt_reg(test, c, &b[i].nb), 0);

	/* The second callback stops the call: its value is returned. */
	for (i = 0; i < ARRAY_SIZE(stops); i++) {
		b[1].ret = stops[i];
		nt_expect_call(test, c, log, stops[i], first_two,
			       ARRAY_SIZE(first_two));
	}
	b[1].ret = notifier_from_errno(-ENOMEM);
	KUNIT_EXPECT_EQ(test, notifier_to_errno(nt_chain_call(c, NT_VAL, NULL)),
			-ENOMEM);

	b[1].ret = NOTIFY_OK;
	b[0].ret = NOTIFY_STOP;
	nt_expect_call(test, c, log, NOTIFY_STOP, first, ARRAY_SIZE(first));

	b[0].ret = NOTIFY_OK;
	b[3].ret = NOTIFY_BAD;
	nt_expect_call(test, c, log, NOTIFY_BAD, all, ARRAY_SIZE(all));

	for (i = 0; i < ARRAY_SIZE(prio); i++)
		KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &b[i].nb), 0);
}

/*
 * *_call_chain_robust(): val_up to every callback; if one returns a value
 * with NOTIFY_STOP_MASK, val_down to the callbacks that ran before it
 * (the first nr_calls - 1, in chain order), and the value of the failed
 * val_up call is returned (callers apply notifier_to_errno() to it).
 */
static void notifier_test_robust(struct kunit *test)
{
	static const int prio[] = { 40, 30, 20, 10 };
	static const int ids_third[] = { 0, 1, 2, 0, 1 };
	static const unsigned long vals_third[] = {
		NT_VAL_UP, NT_VAL_UP, NT_VAL_UP, NT_VAL_DOWN, NT_VAL_DOWN,
	};
	static const int ids_first[] = { 0 };
	static const unsigned long vals_first[] = { NT_VAL_UP };
	static const int ids_last[] = { 0, 1, 2, 3, 0, 1, 2 };
	static const unsigned long vals_last[] = {
		NT_VAL_UP, NT_VAL_UP, NT_VAL_UP, NT_VAL_UP,
		NT_VAL_DOWN, NT_VAL_DOWN, NT_VAL_DOWN,
	};
	static const int ids_ok[] = { 0, 1, 2, 3 };
	static const unsigned long vals_ok[] = {
		NT_VAL_UP, NT_VAL_UP, NT_VAL_UP, NT_VAL_UP,
	};
	struct nt_chain *c = nt_chain_new(test, nt_param(test)->kind, false);
	struct nt_log *log = nt_log_new(test);
	struct nt_block *b = nt_blocks_new(test, log, prio, ARRAY_SIZE(prio));
	unsigned int i;
	int data, ret;

	for (i = 0; i < ARRAY_SIZE(prio); i++)
		KUNIT_ASSERT_EQ(test, nt_reg(test, c, &b[i].nb), 0);

	/* The third callback fails: the first two are rolled back. */
	b[2].fail_val = NT_VAL_UP;
	b[2].fail_ret = notifier_from_errno(-EINVAL);
	nt_log_clear(log);
	ret = nt_chain_call_robust(c, NT_VAL_UP, NT_VAL_DOWN, &data);
	KUNIT_EXPECT_EQ(test, ret, notifier_from_errno(-EINVAL));
	KUNIT_EXPECT_EQ(test, notifier_to_errno(ret), -EINVAL);
	nt_expect_calls(test, log, ids_third, vals_third,
			ARRAY_SIZE(ids_third), &data);

	/* The first callback fails: nothing to roll back. */
	b[2].fail_ret = 0;
	b[0].fail_val = NT_VAL_UP;
	b[0].fail_ret = NOTIFY_BAD;
	nt_log_clear(log);
	ret = nt_chain_call_robust(c, NT_VAL_UP, NT_VAL_DOWN, &data);
	KUNIT_EXPECT_EQ(test, ret, NOTIFY_BAD);
	KUNIT_EXPECT_EQ(test, notifier_to_errno(ret), -EPERM);
	nt_expect_calls(test, log, ids_first, vals_first,
			ARRAY_SIZE(ids_first), &data);

	/* The last callback fails: all others are rolled back. */
	b[0].fail_ret = 0;
	b[3].fail_val = NT_VAL_UP;
	b[3].fail_ret = notifier_from_errno(-ENOMEM);
	nt_log_clear(log);
	ret = nt_chain_call_robust(c, NT_VAL_UP, NT_VAL_DOWN, &data);
	KUNIT_EXPECT_EQ(test, notifier_to_errno(ret), -ENOMEM);
	nt_expect_calls(test, log, ids_last, vals_last, ARRAY_SIZE(ids_last),
			&data);

	/* Success: no rollback, the last value (NOTIFY_OK) is returned. */
	b[3].fail_ret = 0;
	nt_log_clear(log);
	ret = nt_chain_call_robust(c, NT_VAL_UP, NT_VAL_DOWN, &data);
	KUNIT_EXPECT_EQ(test, ret, NOTIFY_OK);
	KUNIT_EXPECT_EQ(test, notifier_to_errno(ret), 0);
	nt_expect_calls(test, log, ids_ok, vals_ok, ARRAY_SIZE(ids_ok), &data);

	for (i = 0; i < ARRAY_SIZE(prio); i++)
		KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &b[i].nb), 0);
}

/* The only double registration of this suite: one WARN, announced. */
static void notifier_test_double_register(struct kunit *test)
{
	static const int prio[] = { 0 };
	static const int once[] = { 0 };
	struct nt_chain *c = nt_chain_new(test, NOTIFIER_CHAIN_RAW, false);
	struct nt_log *log = nt_log_new(test);
	struct nt_block *b = nt_blocks_new(test, log, prio, ARRAY_SIZE(prio));

	KUNIT_ASSERT_EQ(test, nt_reg(test, c, &b->nb), 0);
	pr_info("notifier_kunit: expect WARN: notifier callback %ps already registered\n",
		b->nb.notifier_call);
	KUNIT_EXPECT_EQ(test, raw_notifier_chain_register(c->head, &b->nb),
			-EEXIST);

	/* Still on the chain exactly once. */
	nt_expect_call(test, c, log, NOTIFY_OK, once, ARRAY_SIZE(once));
	KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &b->nb), 0);
	KUNIT_EXPECT_EQ(test, nt_chain_unregister(c, &b->nb), -ENOENT);
	nt_expect_call(test, c, log, NOTIFY_DONE, NULL, 0);
}

static void notifier_test_unique_prio(struct kunit *test)
{
	static const enum notifier_chain_kind kinds[] = {
		NOTIFIER_CHAIN_ATOMIC, NOTIFIER_CHAIN_BLOCKING,
	};
	static const int prio[] = { 5, 5, 6, 4, 5 };
	static const int unique[] = { 2, 0, 3 };
	static const int shared[] = { 2, 0, 1, 3 };
	unsigned int k, i;

	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		struct nt_chain *c = nt_chain_new(test, kinds[k], false);
		struct nt_log *log = nt_log_new(test);
		struct nt_block *b;

		b = nt_blocks_new(test, log, prio, ARRAY_SIZE(prio));
		KUNIT_EXPECT_EQ(test, nt_reg_unique(test, c, &b[0].nb), 0);
		/* Same priority: refused without a warning. */
		KUNIT_EXPECT_EQ(test, nt_reg_unique(test, c, &b[1].nb), -EBUSY);
		KUNIT_EXPECT_EQ(test, nt_reg_unique(test, c, &b[2].nb), 0);
		KUNIT_EXPECT_EQ(test, nt_reg_unique(test, c, &b[3].nb), 0);
		nt_expect_call(test, c, log, NOTIFY_OK, unique,
			       ARRAY_SIZE(unique));

		/* Plain registration does not care about priorities. */
		KUNIT_EXPECT_EQ(test, nt_reg(test, c, &b[1].nb), 0);
		nt_expect_call(test, c, log, NOTIFY_OK, shared,
			       ARRAY_SIZE(shared));
		KUNIT_EXPECT_EQ(test, nt_reg_unique(test, c, &b[4].nb), -EBUSY);

		for (i = 0; i < 4; i++)
			KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &b[i].nb), 0);
		KUNIT_EXPECT_EQ(test, nt_chain_unregister(c, &b[4].nb),
				-ENOENT);
		nt_expect_call(test, c, log, NOTIFY_DONE, NULL, 0);
	}
}

static void notifier_test_unregister_enoent(struct kunit *test)
{
	static const int prio[] = { 1, 2 };
	static const int first[] = { 0 };
	struct nt_chain *c = nt_chain_new(test, nt_param(test)->kind, false);
	struct nt_log *log = nt_log_new(test);
	struct nt_block *b = nt_blocks_new(test, log, prio, ARRAY_SIZE(prio));

	/* Never registered, on an empty chain. */
	KUNIT_EXPECT_EQ(test, nt_chain_unregister(c, &b[0].nb), -ENOENT);

	/* Not on a non-empty chain; the chain is left as it was. */
	KUNIT_ASSERT_EQ(test, nt_reg(test, c, &b[0].nb), 0);
	KUNIT_EXPECT_EQ(test, nt_chain_unregister(c, &b[1].nb), -ENOENT);
	nt_expect_call(test, c, log, NOTIFY_OK, first, ARRAY_SIZE(first));

	/* Unregistered twice. */
	KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &b[0].nb), 0);
	KUNIT_EXPECT_EQ(test, nt_chain_unregister(c, &b[0].nb), -ENOENT);
	nt_expect_call(test, c, log, NOTIFY_DONE, NULL, 0);
}

/*
 * atomic_notifier_call_chain_is_empty() is not exported to modules by
 * 6.1: it is looked up with symbol_get(), which finds it only where the
 * kernel exports it (or when this test is built in).  Otherwise the same
 * property is read from the head, as the function documents it.
 */
static bool nt_atomic_empty(bool (*is_empty)(struct atomic_notifier_head *nh),
			    struct atomic_notifier_head *h)
{
	return is_empty ? is_empty(h) : !rcu_access_pointer(h->head);
}

static void notifier_test_atomic_is_empty(struct kunit *test)
{
	static const int prio[] = { 1, 2 };
	struct nt_chain *c = nt_chain_new(test, NOTIFIER_CHAIN_ATOMIC, false);
	struct atomic_notifier_head *h = c->head;
	struct nt_block *b = nt_blocks_new(test, NULL, prio, ARRAY_SIZE(prio));
	bool (*is_empty)(struct atomic_notifier_head *nh);

	is_empty = symbol_get(atomic_notifier_call_chain_is_empty);
	if (!is_empty)
		kunit_info(test, "atomic_notifier_call_chain_is_empty() not exported, checking the head instead");

	KUNIT_EXPECT_TRUE(test, nt_atomic_empty(is_empty, h));
	KUNIT_EXPECT_EQ(test, nt_reg(test, c, &b[0].nb), 0);
	KUNIT_EXPECT_FALSE(test, nt_atomic_empty(is_empty, h));
	KUNIT_EXPECT_EQ(test, nt_reg(test, c, &b[1].nb), 0);
	KUNIT_EXPECT_FALSE(test, nt_atomic_empty(is_empty, h));
	KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &b[1].nb), 0);
	KUNIT_EXPECT_FALSE(test, nt_atomic_empty(is_empty, h));
	KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &b[0].nb), 0);
	KUNIT_EXPECT_TRUE(test, nt_atomic_empty(is_empty, h));
	/* A failed unregistration leaves it empty. */
	KUNIT_EXPECT_EQ(test, nt_chain_unregister(c, &b[0].nb), -ENOENT);
	KUNIT_EXPECT_TRUE(test, nt_atomic_empty(is_empty, h));

	if (is_empty)
		symbol_put(atomic_notifier_call_chain_is_empty);
}

/* srcu_init_notifier_head() on a dynamically allocated head. */
static void notifier_test_srcu_dynamic_head(struct kunit *test)
{
	static const int prio[] = { -1, 1, 0 };
	static const int order[] = { 1, 2, 0 };
	static const int order_del[] = { 1, 0 };
	struct srcu_notifier_head *h;
	struct nt_chain *c;
	struct nt_log *log;
	struct nt_block *b;
	unsigned int i;
	int data;

	if (!IS_ENABLED(CONFIG_SRCU))
		kunit_skip(test, "SRCU notifier chains need CONFIG_SRCU");
	c = nt_chain_new(test, NOTIFIER_CHAIN_SRCU, false);
	h = c->head;
	log = nt_log_new(test);
	b = nt_blocks_new(test, log, prio, ARRAY_SIZE(prio));
	KUNIT_EXPECT_TRUE(test, !rcu_access_pointer(h->head));
	for (i = 0; i < ARRAY_SIZE(prio); i++)
		KUNIT_ASSERT_EQ(test, srcu_notifier_chain_register(h, &b[i].nb),
				0);
	for (i = 0; i < ARRAY_SIZE(prio); i++)
		nt_track_add(test, c, &b[i].nb);

	nt_log_clear(log);
	KUNIT_EXPECT_EQ(test, srcu_notifier_call_chain(h, NT_VAL, &data),
			NOTIFY_OK);
	nt_expect_calls(test, log, order, NULL, ARRAY_SIZE(order), &data);

	KUNIT_EXPECT_EQ(test, srcu_notifier_chain_unregister(h, &b[2].nb), 0);
	nt_track_del(test, c, &b[2].nb);
	nt_expect_call(test, c, log, NOTIFY_OK, order_del,
		       ARRAY_SIZE(order_del));

	KUNIT_EXPECT_EQ(test, srcu_notifier_chain_unregister(h, &b[0].nb), 0);
	nt_track_del(test, c, &b[0].nb);
	KUNIT_EXPECT_EQ(test, srcu_notifier_chain_unregister(h, &b[1].nb), 0);
	nt_track_del(test, c, &b[1].nb);
	nt_expect_call(test, c, log, NOTIFY_DONE, NULL, 0);

	nt_srcu_cleanup(test, h);
}

/* A head from SRCU_NOTIFIER_HEAD_STATIC(); cleaned up in suite_exit. */
static void notifier_test_srcu_static_head(struct kunit *test)
{
#ifdef CONFIG_SRCU
	static const int prio[] = { 0, 7 };
	static const int order[] = { 1, 0 };
	struct nt_chain *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct nt_log *log = nt_log_new(test);
	struct nt_block *b = nt_blocks_new(test, log, prio, ARRAY_SIZE(prio));
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->kind = NOTIFIER_CHAIN_SRCU;
	c->head = &nt_srcu_static_head;
	nt_srcu_static_used = true;

	nt_expect_call(test, c, log, NOTIFY_DONE, NULL, 0);
	for (i = 0; i < ARRAY_SIZE(prio); i++)
		KUNIT_ASSERT_EQ(test, nt_reg(test, c, &b[i].nb), 0);
	nt_expect_call(test, c, log, NOTIFY_OK, order, ARRAY_SIZE(order));
	for (i = 0; i < ARRAY_SIZE(prio); i++)
		KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &b[i].nb), 0);
	nt_expect_call(test, c, log, NOTIFY_DONE, NULL, 0);
#else
	kunit_skip(test, "SRCU notifier chains need CONFIG_SRCU");
#endif
}

struct nt_die_block {
	struct notifier_block nb;
	const char *marker;
	int hits;
	unsigned long val;
	struct die_args args;
};

/* Acts on our own notify_die() call only; real die events pass through. */
static int nt_die_cb(struct notifier_block *nb, unsigned long val,
		     void *data)
{
	struct nt_die_block *d = container_of(nb, struct nt_die_block, nb);
	struct die_args *args = data;

	if (!args || args->str != d->marker)
		return NOTIFY_DONE;
	d->hits++;
	d->val = val;
	d->args = *args;
	return NOTIFY_STOP;
}

static struct nt_die_block *nt_die_block_new(struct kunit *test)
{
	struct nt_die_block *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	d->nb.notifier_call = nt_die_cb;
	d->nb.priority = INT_MAX;
	d->marker = "notifier_kunit die test";
	return d;
}

/*
 * Calls notify_die() if the kernel exports it (6.1 does not: there only
 * register_die_notifier() and unregister_die_notifier() are exported, so
 * a module cannot call the die chain).  Returns false if not called.
 */
static bool nt_die_call(struct kunit *test, struct nt_die_block *d,
			struct pt_regs *regs, int *ret)
{
#ifdef NT_DIE_VAL
	int (*die)(enum die_val val, const char *str, struct pt_regs *regs,
		   long err, int trap, int sig);

	die = symbol_get(notify_die);
	if (!die)
		return false;
	*ret = die(NT_DIE_VAL, d->marker, regs, NT_DIE_ERR, NT_DIE_TRAP,
		   NT_DIE_SIG);
	symbol_put(notify_die);
	return true;
#else
	return false;
#endif
}

static void notifier_test_die_chain(struct kunit *test)
{
	struct nt_test_ctx *ctx = test->priv;
	struct nt_die_block *d = nt_die_block_new(test);
	struct pt_regs *regs = kunit_kzalloc(test, sizeof(*regs), GFP_KERNEL);
	int ret = 0;

	KUNIT_ASSERT_NOT_NULL(test, regs);
	KUNIT_ASSERT_EQ(test, register_die_notifier(&d->nb), 0);
	ctx->die_nb = &d->nb;

	if (nt_die_call(test, d, regs, &ret)) {
		KUNIT_EXPECT_EQ(test, ret, NOTIFY_STOP);
		KUNIT_EXPECT_EQ(test, d->hits, 1);
		KUNIT_EXPECT_EQ(test, d->val, NT_DIE_VAL_UL);
		KUNIT_EXPECT_PTR_EQ(test, d->args.regs, regs);
		KUNIT_EXPECT_PTR_EQ(test, d->args.str, d->marker);
		KUNIT_EXPECT_EQ(test, d->args.err, NT_DIE_ERR);
		KUNIT_EXPECT_EQ(test, d->args.trapnr, NT_DIE_TRAP);
		KUNIT_EXPECT_EQ(test, d->args.signr, NT_DIE_SIG);
	} else {
		kunit_info(test, "notify_die() not exported: die chain checked via (un)register_die_notifier() only");
	}

	KUNIT_EXPECT_EQ(test, unregister_die_notifier(&d->nb), 0);
	ctx->die_nb = NULL;
	KUNIT_EXPECT_EQ(test, unregister_die_notifier(&d->nb), -ENOENT);
}

static void nt_api_suite_exit(struct kunit_suite *suite)
{
#ifdef CONFIG_SRCU
	if (!nt_srcu_static_used)
		return;
	/*
	 * The static srcu_struct is initialised on first use; make sure it
	 * is, then flush its work items and timers before the module (and
	 * with it the head) can go away.
	 */
	synchronize_srcu(&nt_srcu_static_head.srcu);
	srcu_cleanup_notifier_head(&nt_srcu_static_head);
	nt_srcu_static_used = false;
#endif
}

static struct kunit_case notifier_api_cases[] = {
	KUNIT_CASE(notifier_test_return_codes),
	KUNIT_CASE_PARAM(notifier_test_empty_chain, nt_all_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_priority_order, nt_all_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_call_returns_last,
			 nt_all_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_stop_mask, nt_all_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_robust, nt_robust_kinds_gen_params),
	KUNIT_CASE(notifier_test_double_register),
	KUNIT_CASE(notifier_test_unique_prio),
	KUNIT_CASE_PARAM(notifier_test_unregister_enoent,
			 nt_all_kinds_gen_params),
	KUNIT_CASE(notifier_test_atomic_is_empty),
	KUNIT_CASE(notifier_test_srcu_dynamic_head),
	KUNIT_CASE(notifier_test_srcu_static_head),
	KUNIT_CASE(notifier_test_die_chain),
	{}
};

static struct kunit_suite notifier_api_suite = {
	.name = "notifier_api",
	.init = nt_test_init,
	.exit = nt_test_exit,
	.suite_exit = nt_api_suite_exit,
	.test_cases = notifier_api_cases,
};

/* ---------------------------------------------------------------------- */
/* Suite notifier_concurrency                                              */
/* ---------------------------------------------------------------------- */

struct nt_stress;

struct nt_sblock {
	struct notifier_block nb;
	struct nt_stress *s;
	bool stable;
	bool dead;	/* set after unregister returned, cleared before register */
	bool on_chain;	/* the churner's own bookkeeping */
};

struct nt_stress {
	struct nt_chain *chain;
	struct mutex raw_lock;		/* serialises every raw chain operation */
	struct nt_sblock stable;
	struct nt_sblock churn[NT_CHURN_BLOCKS];
	unsigned long iters;
	unsigned long churn_min;
	unsigned long deadline;
	atomic_t callers_left;
	atomic_t threads_left;
	struct completion done;
	atomic_long_t calls;		/* chain calls made */
	atomic_long_t regs;		/* registrations made */
	atomic_long_t unregs;		/* unregistrations made */
	atomic_long_t stable_calls;	/* calls of the stable block */
	atomic_long_t churn_ops;	/* one unregister plus one register */
	atomic_t bad_calls;		/* stable block not run exactly once */
	atomic_t order_errors;		/* priorities out of order in a call */
	atomic_t after_unregister;	/* ran after its unregister returned */
	atomic_t op_errors;		/* a churn (un)registration failed */
	atomic_t out_of_time;
};

/* What one call saw, on the caller's stack. */
struct nt_scall {
	int nr;
	int last_prio;
	int stable_seen;
};

static int nt_stress_cb(struct notifier_block *nb, unsigned long val,
			void *data)
{
	struct nt_sblock *b = container_of(nb, struct nt_sblock, nb);
	struct nt_stress *s = b->s;
	struct nt_scall *sc = data;

	if (val != NT_VAL_STRESS || !sc) {
		atomic_inc(&s->bad_calls);
		return NOTIFY_DONE;
	}
	if (sc->nr && nb->priority > sc->last_prio)
		atomic_inc(&s->order_errors);
	sc->last_prio = nb->priority;
	sc->nr++;
	if (b->stable) {
		sc->stable_seen++;
		atomic_long_inc(&s->stable_calls);
	} else if (READ_ONCE(b->dead)) {
		atomic_inc(&s->after_unregister);
	}
	return NOTIFY_OK;
}

static void nt_stress_thread_done(struct nt_stress *s)
{
	if (atomic_dec_and_test(&s->threads_left))
		complete(&s->done);
}

static bool nt_stress_out_of_time(struct nt_stress *s)
{
	if (!time_after(jiffies, s->deadline))
		return false;
	atomic_inc(&s->out_of_time);
	return true;
}

static int nt_stress_caller(void *arg)
{
	struct nt_stress *s = arg;
	unsigned long i;

	for (i = 0; !kthread_should_stop(); i++) {
		struct nt_scall sc = { .last_prio = INT_MAX };

		if (i >= s->iters &&
		    atomic_long_read(&s->churn_ops) >= s->churn_min)
			break;
		if (nt_stress_out_of_time(s))
			break;
		nt_chain_call(s->chain, NT_VAL_STRESS, &sc);
		atomic_long_inc(&s->calls);
		if (sc.stable_seen != 1)
			atomic_inc(&s->bad_calls);
		/*
		 * A short sleep now and then is a quiescent state, so that the
		 * grace periods the churner waits for end quickly.
		 */
		if (i % NT_STRESS_YIELD == NT_STRESS_YIELD - 1)
			usleep_range(10, 20);
		else
			cond_resched();
	}
	atomic_dec(&s->callers_left);
	nt_stress_thread_done(s);
	nt_wait_for_stop();
	return 0;
}

static void nt_churn_add(struct nt_stress *s, struct nt_sblock *b)
{
	WRITE_ONCE(b->dead, false);
	atomic_long_inc(&s->regs);
	if (nt_chain_register(s->chain, &b->nb))
		atomic_inc(&s->op_errors);
	else
		b->on_chain = true;
}

static void nt_churn_del(struct nt_stress *s, struct nt_sblock *b)
{
	atomic_long_inc(&s->unregs);
	if (nt_chain_unregister(s->chain, &b->nb))
		atomic_inc(&s->op_errors);
	b->on_chain = false;
	/* From here on, no call may run this block any more. */
	WRITE_ONCE(b->dead, true);
}

/*
 * Keeps half of the churn blocks registered, a sliding window: every
 * iteration unregisters the oldest and registers the one unregistered
 * longest ago, so each block stays dead (and checked) for a while.
 */
static int nt_stress_churner(void *arg)
{
	struct nt_stress *s = arg;
	const unsigned int half = NT_CHURN_BLOCKS / 2;
	unsigned long j;
	unsigned int i;

	for (i = 0; i < half; i++)
		nt_churn_add(s, &s->churn[i]);
	for (j = 0; !kthread_should_stop(); j++) {
		if (j >= s->churn_min && !atomic_read(&s->callers_left))
			break;
		if (nt_stress_out_of_time(s))
			break;
		nt_churn_del(s, &s->churn[j % NT_CHURN_BLOCKS]);
		nt_churn_add(s, &s->churn[(j + half) % NT_CHURN_BLOCKS]);
		atomic_long_inc(&s->churn_ops);
		cond_resched();
	}
	for (i = 0; i < NT_CHURN_BLOCKS; i++)
		if (s->churn[i].on_chain)
			nt_churn_del(s, &s->churn[i]);
	nt_stress_thread_done(s);
	nt_wait_for_stop();
	return 0;
}

/* What the stress cases of one run of the suite did, for suite_exit. */
static atomic_long_t nt_stress_total_ops;
static atomic_t nt_stress_cases;
static atomic_t nt_stress_cases_out_of_time;

/*
 * Two threads call the chain while a third registers and unregisters
 * blocks around a block that stays registered throughout.  Raw chains get
 * the caller-provided lock they require.  Whatever the interleaving:
 * every call runs the stable block exactly once and sees the priorities
 * in order, and no block runs after its unregistration returned.
 *
 * Reports the operations made on the chain: calls, registrations and
 * unregistrations, the stable block's and the final check call included.
 * How many of each depends on the kind: the churner of an atomic or SRCU
 * chain waits for a grace period in every unregistration, while the
 * callers go on calling until it has churned enough.
 */
static void notifier_test_stress(struct kunit *test)
{
	const struct nt_kind_param *p = nt_param(test);
	struct nt_stress *s;
	unsigned long budget, calls, regs, unregs, ops, before;
	unsigned int i, max_ms = max(stress_max_ms, 1000U);
	ktime_t start;
	s64 ms;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	s->chain = nt_chain_new(test, p->kind, false);
	mutex_init(&s->raw_lock);
	if (p->kind == NOTIFIER_CHAIN_RAW)
		s->chain->raw_lock = &s->raw_lock;
	s->iters = max(stress_iters, 1U);
	s->churn_min = max(stress_iters / 128, 8U);
	budget = msecs_to_jiffies(max_ms);
	atomic_set(&s->callers_left, NT_STRESS_CALLERS);
	atomic_set(&s->threads_left, NT_STRESS_CALLERS + 1);
	init_completion(&s->done);

	s->stable.s = s;
	s->stable.stable = true;
	s->stable.nb.notifier_call = nt_stress_cb;
	s->stable.nb.priority = 0;
	for (i = 0; i < NT_CHURN_BLOCKS; i++) {
		s->churn[i].s = s;
		s->churn[i].nb.notifier_call = nt_stress_cb;
		s->churn[i].nb.priority = (int)(i % 3) - 1;
	}
	start = ktime_get();
	s->deadline = jiffies + budget;
	atomic_long_inc(&s->regs);
	KUNIT_ASSERT_EQ(test, nt_reg(test, s->chain, &s->stable.nb), 0);

	for (i = 0; i < NT_STRESS_CALLERS; i++)
		if (!nt_thread_start(test, nt_stress_caller, s, "nt_caller"))
			break;
	if (i == NT_STRESS_CALLERS &&
	    nt_thread_start(test, nt_stress_churner, s, "nt_churner")) {
		if (!wait_for_completion_timeout(&s->done, budget +
						 msecs_to_jiffies(NT_WAIT_MS)))
			KUNIT_FAIL(test, "stress threads did not finish");
	}
	nt_threads_stop(test);

	calls = atomic_long_read(&s->calls);
	KUNIT_EXPECT_GT(test, calls, 0UL);
	KUNIT_EXPECT_GT(test, atomic_long_read(&s->churn_ops), 0L);
	KUNIT_EXPECT_EQ(test, (unsigned long)atomic_long_read(&s->stable_calls),
			calls);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->bad_calls), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->order_errors), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->after_unregister), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->op_errors), 0);

	/* Once its unregistration returned, the stable block never runs. */
	atomic_long_inc(&s->unregs);
	KUNIT_EXPECT_EQ(test, nt_unreg(test, s->chain, &s->stable.nb), 0);
	before = atomic_long_read(&s->stable_calls);
	KUNIT_EXPECT_EQ(test, nt_chain_call(s->chain, NT_VAL, NULL),
			NOTIFY_DONE);
	calls++;
	KUNIT_EXPECT_EQ(test, (unsigned long)atomic_long_read(&s->stable_calls),
			before);
	ms = ktime_ms_delta(ktime_get(), start);

	regs = atomic_long_read(&s->regs);
	unregs = atomic_long_read(&s->unregs);
	KUNIT_EXPECT_EQ(test, regs, unregs);
	ops = calls + regs + unregs;
	atomic_long_add(ops, &nt_stress_total_ops);
	atomic_inc(&nt_stress_cases);
	if (atomic_read(&s->out_of_time)) {
		atomic_inc(&nt_stress_cases_out_of_time);
		kunit_info(test, "%s: time budget of %u ms used up",
			   p->name, max_ms);
	}
	kunit_info(test,
		   "%s: %lu operations: %lu calls, %lu registrations, %lu unregistrations (%ld churn iterations, stress_iters %u, %lld ms)",
		   p->name, ops, calls, regs, unregs,
		   atomic_long_read(&s->churn_ops), stress_iters, ms);
}

/* Counts the contexts an atomic chain callback runs in. */
struct nt_ctxblock {
	struct notifier_block nb;
	atomic_t calls;
	atomic_t hardirq;
	atomic_t softirq;
	atomic_t task;
	atomic_t irqs_off;
};

static int nt_ctx_cb(struct notifier_block *nb, unsigned long val,
		     void *data)
{
	struct nt_ctxblock *b = container_of(nb, struct nt_ctxblock, nb);

	if (val != NT_VAL_IRQ)
		return NOTIFY_DONE;
	atomic_inc(&b->calls);
	if (in_hardirq())
		atomic_inc(&b->hardirq);
	if (in_serving_softirq())
		atomic_inc(&b->softirq);
	if (in_task())
		atomic_inc(&b->task);
	if (irqs_disabled())
		atomic_inc(&b->irqs_off);
	return NOTIFY_OK;
}

struct nt_irqtest {
	struct nt_chain *chain;
	struct nt_ctxblock blk[2];
	struct irq_work work;
	struct timer_list timer;
	struct completion timer_done;
	atomic_t runs;
	atomic_t ok;		/* the call returned NOTIFY_OK */
};

static void nt_irqtest_call(struct nt_irqtest *it)
{
	if (atomic_notifier_call_chain(it->chain->head, NT_VAL_IRQ, it) ==
	    NOTIFY_OK)
		atomic_inc(&it->ok);
	atomic_inc(&it->runs);
}

static void nt_irq_work_fn(struct irq_work *work)
{
	nt_irqtest_call(container_of(work, struct nt_irqtest, work));
}

static void nt_timer_fn(struct timer_list *t)
{
	struct nt_irqtest *it = from_timer(it, t, timer);

	nt_irqtest_call(it);
	complete(&it->timer_done);
}

static struct nt_irqtest *nt_irqtest_new(struct kunit *test)
{
	struct nt_irqtest *it = kunit_kzalloc(test, sizeof(*it), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, it);
	it->chain = nt_chain_new(test, NOTIFIER_CHAIN_ATOMIC, false);
	for (i = 0; i < ARRAY_SIZE(it->blk); i++) {
		it->blk[i].nb.notifier_call = nt_ctx_cb;
		it->blk[i].nb.priority = i;
		KUNIT_ASSERT_EQ(test, nt_reg(test, it->chain, &it->blk[i].nb),
				0);
	}
	return it;
}

static void nt_irqtest_finish(struct kunit *test, struct nt_irqtest *it)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(it->blk); i++)
		KUNIT_EXPECT_EQ(test, nt_unreg(test, it->chain, &it->blk[i].nb),
				0);
}

static void notifier_test_atomic_from_hardirq(struct kunit *test)
{
	struct nt_irqtest *it = nt_irqtest_new(test);
	unsigned int i;

	it->work = IRQ_WORK_INIT_HARD(nt_irq_work_fn);
	for (i = 0; i < NT_IRQ_ROUNDS; i++) {
		KUNIT_EXPECT_TRUE(test, irq_work_queue(&it->work));
		irq_work_sync(&it->work);
	}
	/* Read the counters only after the last irq_work is seen done. */
	smp_rmb();

	KUNIT_EXPECT_EQ(test, atomic_read(&it->runs), NT_IRQ_ROUNDS);
	KUNIT_EXPECT_EQ(test, atomic_read(&it->ok), NT_IRQ_ROUNDS);
	for (i = 0; i < ARRAY_SIZE(it->blk); i++) {
		struct nt_ctxblock *b = &it->blk[i];

		KUNIT_EXPECT_EQ(test, atomic_read(&b->calls), NT_IRQ_ROUNDS);
		KUNIT_EXPECT_EQ(test, atomic_read(&b->hardirq), NT_IRQ_ROUNDS);
		KUNIT_EXPECT_EQ(test, atomic_read(&b->irqs_off), NT_IRQ_ROUNDS);
		KUNIT_EXPECT_EQ(test, atomic_read(&b->softirq), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&b->task), 0);
	}
	nt_irqtest_finish(test, it);
}

static void notifier_test_atomic_from_softirq(struct kunit *test)
{
	struct nt_irqtest *it = nt_irqtest_new(test);
	unsigned int i, rounds = 0;

	init_completion(&it->timer_done);
	timer_setup(&it->timer, nt_timer_fn, 0);
	for (i = 0; i < NT_TIMER_ROUNDS; i++) {
		reinit_completion(&it->timer_done);
		mod_timer(&it->timer, jiffies + 1);
		if (!wait_for_completion_timeout(&it->timer_done,
						 msecs_to_jiffies(NT_WAIT_MS))) {
			KUNIT_FAIL(test, "timer round %u did not run", i);
			break;
		}
		rounds++;
	}
	del_timer_sync(&it->timer);

	KUNIT_EXPECT_EQ(test, atomic_read(&it->runs), rounds);
	KUNIT_EXPECT_EQ(test, atomic_read(&it->ok), rounds);
	for (i = 0; i < ARRAY_SIZE(it->blk); i++) {
		struct nt_ctxblock *b = &it->blk[i];

		KUNIT_EXPECT_EQ(test, atomic_read(&b->calls), rounds);
		KUNIT_EXPECT_EQ(test, atomic_read(&b->softirq), rounds);
		KUNIT_EXPECT_EQ(test, atomic_read(&b->hardirq), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&b->task), 0);
	}
	nt_irqtest_finish(test, it);
}

/* Callbacks of blocking and SRCU chains may sleep. */
struct nt_sleeper {
	struct notifier_block nb;
	int *seq;
	int order;
	int calls;
	int how;
	bool in_task;
	struct task_struct *task;
	u64 slept_ns;
};

enum { NT_SLEEP_MSLEEP, NT_SLEEP_USLEEP, NT_SLEEP_SCHEDULE };

static int nt_sleeper_cb(struct notifier_block *nb, unsigned long val,
			 void *data)
{
	struct nt_sleeper *s = container_of(nb, struct nt_sleeper, nb);
	u64 t0 = ktime_get_ns();

	s->calls++;
	s->order = (*s->seq)++;
	s->in_task = in_task();
	s->task = current;
	switch (s->how) {
	case NT_SLEEP_MSLEEP:
		msleep(NT_SLEEP_MS);
		break;
	case NT_SLEEP_USLEEP:
		usleep_range(NT_USLEEP_MIN, NT_USLEEP_MAX);
		break;
	default:
		schedule_timeout_uninterruptible(1);
		break;
	}
	s->slept_ns = ktime_get_ns() - t0;
	return NOTIFY_OK;
}

static void notifier_test_sleeping_callbacks(struct kunit *test)
{
	struct nt_chain *c = nt_chain_new(test, nt_param(test)->kind, false);
	struct nt_sleeper *s;
	struct nt_op *op;
	int seq = 0;
	unsigned int i;

	s = kunit_kcalloc(test, 3, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	for (i = 0; i < 3; i++) {
		s[i].nb.notifier_call = nt_sleeper_cb;
		s[i].nb.priority = 3 - i;
		s[i].seq = &seq;
		s[i].how = i;
		s[i].order = -1;
		KUNIT_ASSERT_EQ(test, nt_reg(test, c, &s[i].nb), 0);
	}

	op = nt_op_start(test, c, NT_OP_CALL, NULL, false);
	if (op) {
		KUNIT_EXPECT_TRUE(test, nt_op_wait(op));
		KUNIT_EXPECT_EQ(test, op->ret, NOTIFY_OK);
	}
	nt_threads_stop(test);

	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, s[i].calls, 1);
		KUNIT_EXPECT_EQ(test, s[i].order, (int)i);
		KUNIT_EXPECT_TRUE(test, s[i].in_task);
		if (op)
			KUNIT_EXPECT_PTR_EQ(test, s[i].task, op->task);
		KUNIT_EXPECT_GT(test, s[i].slept_ns, 0ULL);
	}
	/* usleep_range() sleeps at least its minimum, on ktime. */
	KUNIT_EXPECT_GE(test, s[NT_SLEEP_USLEEP].slept_ns,
			(u64)NT_USLEEP_MIN * NSEC_PER_USEC);

	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &s[i].nb), 0);
}

/*
 * While a callback of a blocking chain runs (and sleeps), the chain's
 * rwsem is held for reading: a registration has to wait until the call
 * is over, and the call in progress does not see the new block.
 */
static void notifier_test_blocking_writer_waits(struct kunit *test)
{
	static const int prio[] = { 10 };
	struct nt_chain *c = nt_chain_new(test, NOTIFIER_CHAIN_BLOCKING, false);
	struct nt_gate *g = nt_gate_new(test, 0, false);
	struct nt_block *b = nt_blocks_new(test, NULL, prio, 1);
	struct nt_op *caller, *writer = NULL;

	KUNIT_ASSERT_EQ(test, nt_reg(test, c, &g->nb), 0);
	caller = nt_op_start(test, c, NT_OP_CALL, NULL, false);
	if (caller && nt_gate_wait_entered(g)) {
		writer = nt_op_start(test, c, NT_OP_REGISTER, &b->nb, false);
		msleep(NT_HOLD_MS);
		if (writer)
			KUNIT_EXPECT_FALSE_MSG(test, nt_op_finished(writer),
					       "registration did not wait for the running call");
	} else {
		KUNIT_FAIL(test, "the call did not reach its callback");
	}
	nt_gate_open(g);
	if (caller) {
		KUNIT_EXPECT_TRUE(test, nt_op_wait(caller));
		KUNIT_EXPECT_EQ(test, caller->ret, NOTIFY_OK);
	}
	if (writer) {
		KUNIT_EXPECT_TRUE(test, nt_op_wait(writer));
		KUNIT_EXPECT_EQ(test, writer->ret, 0);
		if (!writer->ret)
			nt_track_add(test, c, &b->nb);
	}
	nt_threads_stop(test);
	KUNIT_EXPECT_FALSE(test, g->timed_out);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->calls), 1);
	KUNIT_EXPECT_EQ(test, b->calls, 0);

	if (writer && !writer->ret)
		KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &b->nb), 0);
	KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &g->nb), 0);
}

/*
 * SRCU chains: registration only takes the head's mutex and completes
 * while a callback runs; unregistration waits (synchronize_srcu()) until
 * the call that may still see the block is over.
 */
static void notifier_test_srcu_unregister_waits(struct kunit *test)
{
	static const int prio[] = { 10 };
	struct nt_chain *c = nt_chain_new(test, NOTIFIER_CHAIN_SRCU, false);
	struct nt_gate *g = nt_gate_new(test, 0, false);
	struct nt_block *b = nt_blocks_new(test, NULL, prio, 1);
	struct nt_op *caller, *writer = NULL, *remover = NULL;

	KUNIT_ASSERT_EQ(test, nt_reg(test, c, &g->nb), 0);
	caller = nt_op_start(test, c, NT_OP_CALL, NULL, false);
	if (caller && nt_gate_wait_entered(g)) {
		writer = nt_op_start(test, c, NT_OP_REGISTER, &b->nb, false);
		if (writer) {
			KUNIT_EXPECT_TRUE_MSG(test, nt_op_wait(writer),
					      "registration waited for the running call");
			KUNIT_EXPECT_EQ(test, writer->ret, 0);
			if (!writer->ret)
				nt_track_add(test, c, &b->nb);
		}
		KUNIT_EXPECT_FALSE(test, nt_op_finished(caller));
		remover = nt_op_start(test, c, NT_OP_UNREGISTER, &g->nb, false);
		msleep(NT_HOLD_MS);
		if (remover)
			KUNIT_EXPECT_FALSE_MSG(test, nt_op_finished(remover),
					       "unregistration did not wait for the running call");
	} else {
		KUNIT_FAIL(test, "the call did not reach its callback");
	}
	nt_gate_open(g);
	if (caller) {
		KUNIT_EXPECT_TRUE(test, nt_op_wait(caller));
		KUNIT_EXPECT_EQ(test, caller->ret, NOTIFY_OK);
	}
	if (remover) {
		KUNIT_EXPECT_TRUE(test, nt_op_wait(remover));
		KUNIT_EXPECT_EQ(test, remover->ret, 0);
		if (!remover->ret)
			nt_track_del(test, c, &g->nb);
	}
	nt_threads_stop(test);
	KUNIT_EXPECT_FALSE(test, g->timed_out);
	/* Registered in front of the running callback: not run by it. */
	KUNIT_EXPECT_EQ(test, b->calls, 0);

	if (writer && !writer->ret)
		KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &b->nb), 0);
	if (!remover || remover->ret)
		KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &g->nb), 0);
}

/*
 * Atomic chains: callbacks run under RCU, so unregistration must wait
 * (synchronize_rcu()) for a callback that is still running, here one that
 * spins on another CPU until the test lets it go.
 */
static void notifier_test_atomic_unregister_waits(struct kunit *test)
{
	struct nt_chain *c;
	struct nt_gate *g;
	struct nt_op *caller, *remover;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs");
	c = nt_chain_new(test, NOTIFIER_CHAIN_ATOMIC, false);
	g = nt_gate_new(test, 0, true);
	KUNIT_ASSERT_EQ(test, nt_reg(test, c, &g->nb), 0);

	/* Created up front: no thread creation while a CPU spins. */
	remover = nt_op_start(test, c, NT_OP_UNREGISTER, &g->nb, true);
	caller = remover ? nt_op_start(test, c, NT_OP_CALL, NULL, false) : NULL;
	if (caller && nt_gate_wait_entered(g)) {
		nt_op_go(remover);
		msleep(NT_HOLD_MS);
		KUNIT_EXPECT_FALSE_MSG(test, nt_op_finished(remover),
				       "unregistration did not wait for the running callback");
	} else {
		KUNIT_FAIL(test, "the call did not reach its callback");
	}
	nt_gate_open(g);
	if (remover)
		nt_op_go(remover);
	if (caller) {
		KUNIT_EXPECT_TRUE(test, nt_op_wait(caller));
		KUNIT_EXPECT_EQ(test, caller->ret, NOTIFY_OK);
	}
	if (remover) {
		KUNIT_EXPECT_TRUE(test, nt_op_wait(remover));
		KUNIT_EXPECT_EQ(test, remover->ret, 0);
		if (!remover->ret)
			nt_track_del(test, c, &g->nb);
	}
	nt_threads_stop(test);
	KUNIT_EXPECT_FALSE(test, g->timed_out);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->calls), 1);
	if (!remover || remover->ret)
		KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &g->nb), 0);
}

/* A callback of an outer chain calls an inner chain. */
struct nt_nest_log {
	int n;
	int code[NT_LOG_MAX];
	unsigned long val[NT_LOG_MAX];
	void *data[NT_LOG_MAX];
};

struct nt_nest_block {
	struct notifier_block nb;
	struct nt_nest_log *log;
	int code;
	struct nt_chain *inner;	/* called from the callback if set */
	int inner_ret;
};

static void nt_nest_record(struct nt_nest_log *log, int code,
			   unsigned long val, void *data)
{
	if (log->n < NT_LOG_MAX) {
		log->code[log->n] = code;
		log->val[log->n] = val;
		log->data[log->n] = data;
	}
	log->n++;
}

static int nt_nest_cb(struct notifier_block *nb, unsigned long val,
		      void *data)
{
	struct nt_nest_block *b = container_of(nb, struct nt_nest_block, nb);

	nt_nest_record(b->log, b->code, val, data);
	if (b->inner) {
		b->inner_ret = nt_chain_call(b->inner, val + 1, data);
		nt_nest_record(b->log, b->code + 1, val, data);
	}
	return NOTIFY_OK;
}

struct nt_nest_param {
	enum notifier_chain_kind outer;
	enum notifier_chain_kind inner;
	const char *name;
};

static const struct nt_nest_param nt_nest_params[] = {
	{ NOTIFIER_CHAIN_BLOCKING, NOTIFIER_CHAIN_ATOMIC, "blocking>atomic" },
	{ NOTIFIER_CHAIN_ATOMIC, NOTIFIER_CHAIN_RAW, "atomic>raw" },
#ifdef CONFIG_SRCU
	{ NOTIFIER_CHAIN_SRCU, NOTIFIER_CHAIN_BLOCKING, "srcu>blocking" },
	{ NOTIFIER_CHAIN_RAW, NOTIFIER_CHAIN_SRCU, "raw>srcu" },
#endif
};

static void nt_nest_desc(const struct nt_nest_param *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(nt_nest, nt_nest_params, nt_nest_desc);

static void notifier_test_nested_chains(struct kunit *test)
{
	/* outer 10 enters (11: leaves), inner 30 and 40, then outer 20 */
	static const int codes[] = { 10, 30, 40, 11, 20 };
	static const unsigned long vals[] = {
		NT_VAL, NT_VAL + 1, NT_VAL + 1, NT_VAL, NT_VAL,
	};
	static const int prio[] = { 10, 0, 2, 1 };
	static const int code_of[] = { 10, 20, 30, 40 };
	const struct nt_nest_param *p = test->param_value;
	struct nt_chain *outer = nt_chain_new(test, p->outer, false);
	struct nt_chain *inner = nt_chain_new(test, p->inner, true);
	struct nt_nest_log *log;
	struct nt_nest_block *b;
	unsigned int i;
	int data;

	log = kunit_kzalloc(test, sizeof(*log), GFP_KERNEL);
	b = kunit_kcalloc(test, 4, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, log);
	KUNIT_ASSERT_NOT_NULL(test, b);
	for (i = 0; i < 4; i++) {
		b[i].nb.notifier_call = nt_nest_cb;
		b[i].nb.priority = prio[i];
		b[i].log = log;
		b[i].code = code_of[i];
		b[i].inner_ret = -1;
	}
	b[0].inner = inner;
	KUNIT_ASSERT_EQ(test, nt_reg(test, outer, &b[0].nb), 0);
	KUNIT_ASSERT_EQ(test, nt_reg(test, outer, &b[1].nb), 0);
	KUNIT_ASSERT_EQ(test, nt_reg(test, inner, &b[2].nb), 0);
	KUNIT_ASSERT_EQ(test, nt_reg(test, inner, &b[3].nb), 0);

	KUNIT_EXPECT_EQ(test, nt_chain_call(outer, NT_VAL, &data), NOTIFY_OK);
	KUNIT_EXPECT_EQ(test, b[0].inner_ret, NOTIFY_OK);
	KUNIT_EXPECT_EQ(test, log->n, (int)ARRAY_SIZE(codes));
	for (i = 0; i < ARRAY_SIZE(codes) && i < log->n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, log->code[i], codes[i], "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, log->val[i], vals[i], "step %u", i);
		KUNIT_EXPECT_PTR_EQ(test, log->data[i], (void *)&data);
	}

	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, nt_unreg(test, i < 2 ? outer : inner,
					       &b[i].nb), 0);
}

static struct kunit_case notifier_concurrency_cases[] = {
	KUNIT_CASE_PARAM(notifier_test_stress, nt_all_kinds_gen_params),
	KUNIT_CASE(notifier_test_atomic_from_hardirq),
	KUNIT_CASE(notifier_test_atomic_from_softirq),
	KUNIT_CASE_PARAM(notifier_test_sleeping_callbacks,
			 nt_sleeping_kinds_gen_params),
	KUNIT_CASE(notifier_test_blocking_writer_waits),
	KUNIT_CASE(notifier_test_srcu_unregister_waits),
	KUNIT_CASE(notifier_test_atomic_unregister_waits),
	KUNIT_CASE_PARAM(notifier_test_nested_chains, nt_nest_gen_params),
	{}
};

static int nt_concurrency_suite_init(struct kunit_suite *suite)
{
	nt_params_load();
	atomic_long_set(&nt_stress_total_ops, 0);
	atomic_set(&nt_stress_cases, 0);
	atomic_set(&nt_stress_cases_out_of_time, 0);
	return 0;
}

/* One line with the stress total, on the console and in the results. */
static void nt_concurrency_suite_exit(struct kunit_suite *suite)
{
	kunit_log(KERN_INFO, suite,
		  KUNIT_SUBTEST_INDENT
		  "# %s: stress total %ld operations in %d cases (stress_iters %u, %d out of time)",
		  suite->name, atomic_long_read(&nt_stress_total_ops),
		  atomic_read(&nt_stress_cases), stress_iters,
		  atomic_read(&nt_stress_cases_out_of_time));
}

static struct kunit_suite notifier_concurrency_suite = {
	.name = "notifier_concurrency",
	.init = nt_test_init,
	.exit = nt_test_exit,
	.suite_init = nt_concurrency_suite_init,
	.suite_exit = nt_concurrency_suite_exit,
	.test_cases = notifier_concurrency_cases,
};

/* ---------------------------------------------------------------------- */
/* Suite notifier_tracepoints                                              */
/* ---------------------------------------------------------------------- */

enum nt_ev_type {
	NT_EV_REGISTER,
	NT_EV_UNREGISTER,
	NT_EV_REGISTER_ERROR,
	NT_EV_UNREGISTER_ERROR,
	NT_EV_RUN,
	NT_EV_RETURN,
	NT_EV_STOP,
	NT_EV_CALL_BEGIN,
	NT_EV_CALL_END,
	NT_EV_LOCK_WAIT,
	NT_EV_NR,
};

#define NT_EV_MEMBERSHIP	(BIT(NT_EV_REGISTER) | BIT(NT_EV_UNREGISTER) | \
				 BIT(NT_EV_REGISTER_ERROR) | \
				 BIT(NT_EV_UNREGISTER_ERROR))
#define NT_EV_CALLBACKS		(BIT(NT_EV_RUN) | BIT(NT_EV_RETURN) | \
				 BIT(NT_EV_STOP))
#define NT_EV_PASSES		(BIT(NT_EV_CALL_BEGIN) | BIT(NT_EV_CALL_END))
#define NT_EV_CALLS		(NT_EV_CALLBACKS | NT_EV_PASSES)

static const char * const nt_ev_names[NT_EV_NR] = {
	[NT_EV_REGISTER] = "notifier_register",
	[NT_EV_UNREGISTER] = "notifier_unregister",
	[NT_EV_REGISTER_ERROR] = "notifier_register_error",
	[NT_EV_UNREGISTER_ERROR] = "notifier_unregister_error",
	[NT_EV_RUN] = "notifier_run",
	[NT_EV_RETURN] = "notifier_return",
	[NT_EV_STOP] = "notifier_stop",
	[NT_EV_CALL_BEGIN] = "notifier_call_begin",
	[NT_EV_CALL_END] = "notifier_call_end",
	[NT_EV_LOCK_WAIT] = "notifier_lock_wait",
};

struct nt_event {
	int valid;
	enum nt_ev_type type;
	void *cb;
	void *head;
	void *lock;
	struct notifier_block *nb;
	int priority;
	int kind;
	int err;
	int ret;
	int nr_calls;
	int nr_to_call;
	int call_type;
	int op;
	unsigned long val;
	u64 ns;		/* duration_ns (return) or wait_ns (lock_wait) */
};

#define NT_MAX_EVENTS	256
#define NT_MAX_WATCH	4

/*
 * Events of the watched heads and blocks only; the rest of the kernel
 * calls its chains too.  Lock-free, as probes run in any context: a slot
 * is claimed with an atomic increment and published with a release store.
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

struct nt_tp {
	enum nt_ev_type type;
	void *probe;
	struct tracepoint *tp;
	bool attached;
};

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
	const struct nt_tp *t = data;
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
	e->type = t->type;
	e->head = head;
	e->nb = nb;
	return e;
}

static void nt_rec_commit(struct nt_event *e)
{
	/* Publish the fields; pairs with smp_load_acquire() in nt_collect(). */
	smp_store_release(&e->valid, 1);
}

static void nt_probe_membership(void *data, void *cb, void *head,
				struct notifier_block *nb, int priority,
				enum notifier_chain_kind kind, int err)
{
	struct nt_event *e = nt_rec_claim(data, head, nb);

	if (!e)
		return;
	e->cb = cb;
	e->priority = priority;
	e->kind = kind;
	e->err = err;
	nt_rec_commit(e);
}

static void nt_probe_run(void *data, void *cb, void *head,
			 struct notifier_block *nb, int priority,
			 enum notifier_chain_kind kind, unsigned long val)
{
	struct nt_event *e = nt_rec_claim(data, head, nb);

	if (!e)
		return;
	e->cb = cb;
	e->priority = priority;
	e->kind = kind;
	e->val = val;
	nt_rec_commit(e);
}

static void nt_probe_return(void *data, void *cb, void *head,
			    struct notifier_block *nb, int priority,
			    enum notifier_chain_kind kind, unsigned long val,
			    int ret, u64 duration_ns)
{
	struct nt_event *e = nt_rec_claim(data, head, nb);

	if (!e)
		return;
	e->cb = cb;
	e->priority = priority;
	e->kind = kind;
	e->val = val;
	e->ret = ret;
	e->ns = duration_ns;
	nt_rec_commit(e);
}

static void nt_probe_stop(void *data, void *cb, void *head,
			  struct notifier_block *nb, int priority,
			  enum notifier_chain_kind kind, unsigned long val,
			  int ret, int nr_calls)
{
	struct nt_event *e = nt_rec_claim(data, head, nb);

	if (!e)
		return;
	e->cb = cb;
	e->priority = priority;
	e->kind = kind;
	e->val = val;
	e->ret = ret;
	e->nr_calls = nr_calls;
	nt_rec_commit(e);
}

static void nt_probe_call_begin(void *data, void *head,
				enum notifier_chain_kind kind,
				unsigned long val, int nr_to_call,
				enum notifier_call_type type)
{
	struct nt_event *e = nt_rec_claim(data, head, NULL);

	if (!e)
		return;
	e->kind = kind;
	e->val = val;
	e->nr_to_call = nr_to_call;
	e->call_type = type;
	nt_rec_commit(e);
}

static void nt_probe_call_end(void *data, void *head,
			      enum notifier_chain_kind kind, unsigned long val,
			      int nr_to_call, enum notifier_call_type type,
			      int ret, int nr_calls)
{
	struct nt_event *e = nt_rec_claim(data, head, NULL);

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

static void nt_probe_lock_wait(void *data, void *head, void *lock,
			       enum notifier_chain_kind kind,
			       enum notifier_lock_op op, u64 wait_ns)
{
	struct nt_event *e = nt_rec_claim(data, head, NULL);

	if (!e)
		return;
	e->lock = lock;
	e->kind = kind;
	e->op = op;
	e->ns = wait_ns;
	nt_rec_commit(e);
}

static struct nt_tp nt_tps[NT_EV_NR] = {
	[NT_EV_REGISTER] = { NT_EV_REGISTER, (void *)nt_probe_membership },
	[NT_EV_UNREGISTER] = { NT_EV_UNREGISTER, (void *)nt_probe_membership },
	[NT_EV_REGISTER_ERROR] = {
		NT_EV_REGISTER_ERROR, (void *)nt_probe_membership
	},
	[NT_EV_UNREGISTER_ERROR] = {
		NT_EV_UNREGISTER_ERROR, (void *)nt_probe_membership
	},
	[NT_EV_RUN] = { NT_EV_RUN, (void *)nt_probe_run },
	[NT_EV_RETURN] = { NT_EV_RETURN, (void *)nt_probe_return },
	[NT_EV_STOP] = { NT_EV_STOP, (void *)nt_probe_stop },
	[NT_EV_CALL_BEGIN] = { NT_EV_CALL_BEGIN, (void *)nt_probe_call_begin },
	[NT_EV_CALL_END] = { NT_EV_CALL_END, (void *)nt_probe_call_end },
	[NT_EV_LOCK_WAIT] = { NT_EV_LOCK_WAIT, (void *)nt_probe_lock_wait },
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

static int nt_pos(const struct nt_event *e)
{
	return e - nt_rec.ev;
}

static void nt_tp_find(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < NT_EV_NR; i++)
		if (!strcmp(tp->name, nt_ev_names[i]))
			nt_tps[i].tp = tp;
}

static void nt_tp_detach(struct nt_test_ctx *ctx)
{
	unsigned int i;

	if (!IS_ENABLED(CONFIG_TRACEPOINTS))
		return;
	for (i = 0; i < NT_EV_NR; i++) {
		if (!nt_tps[i].attached)
			continue;
		tracepoint_probe_unregister(nt_tps[i].tp, nt_tps[i].probe,
					    &nt_tps[i]);
		nt_tps[i].attached = false;
	}
	/* No probe of this module may still be running after the test. */
	tracepoint_synchronize_unregister();
	nt_rec_unwatch();
	ctx->tp_attached = false;
}

/*
 * Find the notifier tracepoints by name and attach our probes; skip the
 * test if the kernel has none (the stock kernel).
 */
static void nt_tp_attach(struct kunit *test)
{
	struct nt_test_ctx *ctx = test->priv;
	unsigned int i, found = 0;
	int ret;

	if (!IS_ENABLED(CONFIG_TRACEPOINTS))
		kunit_skip(test, "notifier tracepoints not present (CONFIG_TRACEPOINTS=n)");
	for (i = 0; i < NT_EV_NR; i++)
		nt_tps[i].tp = NULL;
	for_each_kernel_tracepoint(nt_tp_find, NULL);
	for (i = 0; i < NT_EV_NR; i++)
		if (nt_tps[i].tp)
			found++;
	if (!found)
		kunit_skip(test, "notifier tracepoints not present (stock kernel)");
	for (i = 0; i < NT_EV_NR; i++)
		if (!nt_tps[i].tp)
			KUNIT_FAIL(test, "tracepoint %s missing", nt_ev_names[i]);
	KUNIT_ASSERT_EQ(test, found, (unsigned int)NT_EV_NR);

	nt_rec_unwatch();
	nt_rec_clear();
	ctx->tp_attached = true;
	for (i = 0; i < NT_EV_NR; i++) {
		ret = tracepoint_probe_register(nt_tps[i].tp, nt_tps[i].probe,
						&nt_tps[i]);
		KUNIT_ASSERT_EQ_MSG(test, ret, 0, "cannot attach to %s",
				    nt_ev_names[i]);
		nt_tps[i].attached = true;
	}
}

/* nt_evs[i], if it exists and is of @type. */
static const struct nt_event *nt_ev(struct kunit *test, int n, int i,
				    enum nt_ev_type type)
{
	const struct nt_event *e;

	if (i >= n) {
		KUNIT_FAIL(test, "event %d (%s) missing, %d recorded", i,
			   nt_ev_names[type], n);
		return NULL;
	}
	e = nt_evs[i];
	if (e->type != type) {
		KUNIT_FAIL(test, "event %d is %s, expected %s", i,
			   nt_ev_names[e->type], nt_ev_names[type]);
		return NULL;
	}
	return e;
}

static void nt_expect_membership(struct kunit *test, const struct nt_event *e,
				 void *head, enum notifier_chain_kind kind,
				 struct notifier_block *nb, int err)
{
	if (!e)
		return;
	KUNIT_EXPECT_PTR_EQ(test, e->cb, (void *)nb->notifier_call);
	KUNIT_EXPECT_PTR_EQ(test, e->head, head);
	KUNIT_EXPECT_PTR_EQ(test, e->nb, nb);
	KUNIT_EXPECT_EQ(test, e->priority, nb->priority);
	KUNIT_EXPECT_EQ(test, e->kind, (int)kind);
	KUNIT_EXPECT_EQ(test, e->err, err);
}

/* A run, return or stop event of @nb on @head at position @i. */
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
	KUNIT_EXPECT_EQ_MSG(test, e->kind, (int)kind, "kind of event %d", i);
	KUNIT_EXPECT_EQ_MSG(test, e->val, val, "val of event %d", i);
	return e;
}

/* A call_begin or call_end event at position @i. */
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
	KUNIT_EXPECT_EQ_MSG(test, e->kind, (int)kind, "kind of event %d", i);
	KUNIT_EXPECT_EQ_MSG(test, e->val, val, "val of event %d", i);
	KUNIT_EXPECT_EQ_MSG(test, e->nr_to_call, nr_to_call,
			    "nr_to_call of event %d", i);
	KUNIT_EXPECT_EQ_MSG(test, e->call_type, (int)ctype,
			    "type of event %d", i);
	return e;
}

static void nt_expect_end(struct kunit *test, const struct nt_event *e,
			  int ret, int nr_calls)
{
	if (!e)
		return;
	KUNIT_EXPECT_EQ(test, e->ret, ret);
	KUNIT_EXPECT_EQ(test, e->nr_calls, nr_calls);
}

/* Exactly one lock_wait event of @head, with these fields. */
static const struct nt_event *nt_expect_lock_wait(struct kunit *test,
						  void *head, void *lock,
						  enum notifier_chain_kind kind,
						  enum notifier_lock_op op)
{
	int n = nt_collect(test, head, NULL, BIT(NT_EV_LOCK_WAIT));
	const struct nt_event *e = nt_ev(test, n, 0, NT_EV_LOCK_WAIT);

	KUNIT_EXPECT_EQ(test, n, 1);
	if (!e)
		return NULL;
	KUNIT_EXPECT_PTR_EQ(test, e->lock, lock);
	KUNIT_EXPECT_EQ(test, e->kind, (int)kind);
	KUNIT_EXPECT_EQ(test, e->op, (int)op);
	return e;
}

/* register and unregister events, for every chain kind. */
static void notifier_test_tp_membership(struct kunit *test)
{
	static const int prio[] = { 7 };
	struct nt_chain *c;
	struct nt_block *b;
	int n;

	nt_tp_attach(test);
	c = nt_chain_new(test, nt_param(test)->kind, false);
	b = nt_blocks_new(test, NULL, prio, 1);
	nt_rec_watch(test, c->head, NULL);

	KUNIT_ASSERT_EQ(test, nt_reg(test, c, &b->nb), 0);
	n = nt_collect(test, c->head, NULL, NT_EV_MEMBERSHIP);
	KUNIT_EXPECT_EQ(test, n, 1);
	nt_expect_membership(test, nt_ev(test, n, 0, NT_EV_REGISTER), c->head,
			     c->kind, &b->nb, 0);

	nt_rec_clear();
	KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &b->nb), 0);
	n = nt_collect(test, c->head, NULL, NT_EV_MEMBERSHIP);
	KUNIT_EXPECT_EQ(test, n, 1);
	nt_expect_membership(test, nt_ev(test, n, 0, NT_EV_UNREGISTER),
			     c->head, c->kind, &b->nb, 0);
}

/*
 * The die chain is an atomic chain whose head is private to the kernel:
 * its events are found by our block, and the head they name must stay
 * the same.  If notify_die() is exported, the call events are checked too.
 */
static void notifier_test_tp_die_chain(struct kunit *test)
{
	struct nt_test_ctx *ctx = test->priv;
	struct nt_die_block *d;
	struct pt_regs *regs;
	const struct nt_event *e;
	void *head = NULL;
	int n, i, ours = -1, ret = 0;

	nt_tp_attach(test);
	d = nt_die_block_new(test);
	regs = kunit_kzalloc(test, sizeof(*regs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, regs);
	nt_rec_watch(test, NULL, &d->nb);

	KUNIT_ASSERT_EQ(test, register_die_notifier(&d->nb), 0);
	ctx->die_nb = &d->nb;
	n = nt_collect(test, NULL, &d->nb, NT_EV_MEMBERSHIP);
	KUNIT_EXPECT_EQ(test, n, 1);
	e = nt_ev(test, n, 0, NT_EV_REGISTER);
	if (e) {
		head = e->head;
		KUNIT_EXPECT_NOT_NULL(test, head);
		nt_expect_membership(test, e, head, NOTIFIER_CHAIN_ATOMIC,
				     &d->nb, 0);
	}

	if (head) {
		nt_rec_watch(test, head, NULL);
		nt_rec_clear();
	}
	if (head && nt_die_call(test, d, regs, &ret)) {
		KUNIT_EXPECT_EQ(test, ret, NOTIFY_STOP);
		n = nt_collect(test, head, NULL, NT_EV_CALLS);
		/* Blocks of priority INT_MAX registered before ours run first. */
		for (i = 0; i < n; i++)
			if (nt_evs[i]->type == NT_EV_RUN &&
			    nt_evs[i]->nb == &d->nb)
				ours = i;
		KUNIT_EXPECT_GE(test, ours, 1);
		e = nt_expect_pass_ev(test, n, 0, NT_EV_CALL_BEGIN, head,
				      NOTIFIER_CHAIN_ATOMIC, NT_DIE_VAL_UL, -1,
				      NOTIFIER_CALL_PLAIN);
		if (ours >= 1) {
			int nr = (ours + 1) / 2;

			nt_expect_cb_ev(test, n, ours, NT_EV_RUN, head,
					NOTIFIER_CHAIN_ATOMIC, &d->nb,
					NT_DIE_VAL_UL);
			e = nt_expect_cb_ev(test, n, ours + 1, NT_EV_RETURN,
					    head, NOTIFIER_CHAIN_ATOMIC, &d->nb,
					    NT_DIE_VAL_UL);
			if (e)
				KUNIT_EXPECT_EQ(test, e->ret, NOTIFY_STOP);
			e = nt_expect_cb_ev(test, n, ours + 2, NT_EV_STOP,
					    head, NOTIFIER_CHAIN_ATOMIC, &d->nb,
					    NT_DIE_VAL_UL);
			if (e)
				KUNIT_EXPECT_EQ(test, e->nr_calls, nr);
			e = nt_expect_pass_ev(test, n, ours + 3, NT_EV_CALL_END,
					      head, NOTIFIER_CHAIN_ATOMIC,
					      NT_DIE_VAL_UL, -1,
					      NOTIFIER_CALL_PLAIN);
			nt_expect_end(test, e, NOTIFY_STOP, nr);
		}
	} else {
		kunit_info(test, "notify_die() not exported: die chain checked via (un)register_die_notifier() only");
	}

	nt_rec_clear();
	KUNIT_EXPECT_EQ(test, unregister_die_notifier(&d->nb), 0);
	ctx->die_nb = NULL;
	KUNIT_EXPECT_EQ(test, unregister_die_notifier(&d->nb), -ENOENT);
	n = nt_collect(test, NULL, &d->nb, NT_EV_MEMBERSHIP);
	KUNIT_EXPECT_EQ(test, n, 2);
	nt_expect_membership(test, nt_ev(test, n, 0, NT_EV_UNREGISTER), head,
			     NOTIFIER_CHAIN_ATOMIC, &d->nb, 0);
	nt_expect_membership(test, nt_ev(test, n, 1, NT_EV_UNREGISTER_ERROR),
			     head, NOTIFIER_CHAIN_ATOMIC, &d->nb, -ENOENT);
}

/* _error events: -EEXIST, -EBUSY and -ENOENT. */
static void notifier_test_tp_errors(struct kunit *test)
{
	static const int prio[] = { 5, 5, 5, 5 };
	struct nt_chain *ca, *cb;
	struct nt_block *b;
	unsigned int k;
	int n;

	nt_tp_attach(test);
	ca = nt_chain_new(test, NOTIFIER_CHAIN_ATOMIC, false);
	cb = nt_chain_new(test, NOTIFIER_CHAIN_BLOCKING, false);
	b = nt_blocks_new(test, NULL, prio, ARRAY_SIZE(prio));
	KUNIT_ASSERT_EQ(test, nt_reg(test, ca, &b[0].nb), 0);
	KUNIT_ASSERT_EQ(test, nt_reg(test, cb, &b[1].nb), 0);
	nt_rec_watch(test, ca->head, NULL);
	nt_rec_watch(test, cb->head, NULL);

	/* The only double registration of this suite: one WARN, announced. */
	nt_rec_clear();
	pr_info("notifier_kunit: expect WARN: notifier callback %ps already registered\n",
		b[0].nb.notifier_call);
	KUNIT_EXPECT_EQ(test, atomic_notifier_chain_register(ca->head, &b[0].nb),
			-EEXIST);
	n = nt_collect(test, ca->head, NULL, NT_EV_MEMBERSHIP);
	KUNIT_EXPECT_EQ(test, n, 1);
	nt_expect_membership(test, nt_ev(test, n, 0, NT_EV_REGISTER_ERROR),
			     ca->head, ca->kind, &b[0].nb, -EEXIST);

	nt_rec_clear();
	KUNIT_EXPECT_EQ(test,
			atomic_notifier_chain_register_unique_prio(ca->head,
								   &b[2].nb),
			-EBUSY);
	n = nt_collect(test, ca->head, NULL, NT_EV_MEMBERSHIP);
	KUNIT_EXPECT_EQ(test, n, 1);
	nt_expect_membership(test, nt_ev(test, n, 0, NT_EV_REGISTER_ERROR),
			     ca->head, ca->kind, &b[2].nb, -EBUSY);

	nt_rec_clear();
	KUNIT_EXPECT_EQ(test,
			blocking_notifier_chain_register_unique_prio(cb->head,
								     &b[3].nb),
			-EBUSY);
	n = nt_collect(test, cb->head, NULL, NT_EV_MEMBERSHIP);
	KUNIT_EXPECT_EQ(test, n, 1);
	nt_expect_membership(test, nt_ev(test, n, 0, NT_EV_REGISTER_ERROR),
			     cb->head, cb->kind, &b[3].nb, -EBUSY);

	KUNIT_EXPECT_EQ(test, nt_unreg(test, ca, &b[0].nb), 0);
	KUNIT_EXPECT_EQ(test, nt_unreg(test, cb, &b[1].nb), 0);

	/* Unregistering a block that is not on the chain, every kind. */
	for (k = 0; k < ARRAY_SIZE(nt_all_kinds); k++) {
		struct nt_chain *c = nt_chain_new(test, nt_all_kinds[k].kind,
						  false);

		nt_rec_unwatch();
		nt_rec_watch(test, c->head, NULL);
		nt_rec_clear();
		KUNIT_EXPECT_EQ(test, nt_chain_unregister(c, &b[2].nb), -ENOENT);
		n = nt_collect(test, c->head, NULL, NT_EV_MEMBERSHIP);
		KUNIT_EXPECT_EQ_MSG(test, n, 1, "%s chain", nt_all_kinds[k].name);
		nt_expect_membership(test,
				     nt_ev(test, n, 0, NT_EV_UNREGISTER_ERROR),
				     c->head, c->kind, &b[2].nb, -ENOENT);
	}
}

/*
 * run and return events of every callback, framed by call_begin and
 * call_end; notifier_return measures the time spent in the callback.
 */
static void notifier_test_tp_run_return(struct kunit *test)
{
	static const int prio[] = { 30, 20, 10 };
	struct nt_chain *c;
	struct nt_block *b;
	const struct nt_event *e;
	unsigned int i;
	int n, data;

	nt_tp_attach(test);
	c = nt_chain_new(test, nt_param(test)->kind, false);
	b = nt_blocks_new(test, NULL, prio, ARRAY_SIZE(prio));
	b[1].ret = NOTIFY_DONE;
	b[1].busy_us = NT_BUSY_US;
	for (i = 0; i < ARRAY_SIZE(prio); i++)
		KUNIT_ASSERT_EQ(test, nt_reg(test, c, &b[i].nb), 0);
	nt_rec_watch(test, c->head, NULL);
	nt_rec_clear();

	KUNIT_EXPECT_EQ(test, nt_chain_call(c, NT_VAL, &data), NOTIFY_OK);
	n = nt_collect(test, c->head, NULL, NT_EV_CALLS);
	KUNIT_EXPECT_EQ(test, n, 8);
	nt_expect_pass_ev(test, n, 0, NT_EV_CALL_BEGIN, c->head, c->kind,
			  NT_VAL, -1, NOTIFIER_CALL_PLAIN);
	for (i = 0; i < ARRAY_SIZE(prio); i++) {
		nt_expect_cb_ev(test, n, 1 + 2 * i, NT_EV_RUN, c->head,
				c->kind, &b[i].nb, NT_VAL);
		e = nt_expect_cb_ev(test, n, 2 + 2 * i, NT_EV_RETURN, c->head,
				    c->kind, &b[i].nb, NT_VAL);
		if (e)
			KUNIT_EXPECT_EQ(test, e->ret, b[i].ret);
		if (e && b[i].busy_us) {
			KUNIT_EXPECT_GT(test, e->ns, 0ULL);
			KUNIT_EXPECT_GE(test, e->ns,
					(u64)b[i].busy_us * NSEC_PER_USEC);
		}
	}
	e = nt_expect_pass_ev(test, n, 7, NT_EV_CALL_END, c->head, c->kind,
			      NT_VAL, -1, NOTIFIER_CALL_PLAIN);
	nt_expect_end(test, e, NOTIFY_OK, 3);

	/* Only a blocking chain takes a lock to call. */
	if (c->kind == NOTIFIER_CHAIN_BLOCKING) {
		struct blocking_notifier_head *h = c->head;

		e = nt_expect_lock_wait(test, h, &h->rwsem, c->kind,
					NOTIFIER_LOCK_READ);
		if (e)
			KUNIT_EXPECT_EQ(test, e->ns, 0ULL);
	} else {
		KUNIT_EXPECT_EQ(test, nt_collect(test, c->head, NULL,
						 BIT(NT_EV_LOCK_WAIT)), 0);
	}

	for (i = 0; i < ARRAY_SIZE(prio); i++)
		KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &b[i].nb), 0);
}

/* The stop event names the callback that stopped the call. */
static void notifier_test_tp_stop(struct kunit *test)
{
	static const int prio[] = { 3, 2, 1 };
	struct nt_chain *c;
	struct nt_block *b;
	const struct nt_event *e;
	unsigned int i;
	int n;

	nt_tp_attach(test);
	c = nt_chain_new(test, nt_param(test)->kind, false);
	b = nt_blocks_new(test, NULL, prio, ARRAY_SIZE(prio));
	for (i = 0; i < ARRAY_SIZE(prio); i++)
		KUNIT_ASSERT_EQ(test, nt_reg(test, c, &b[i].nb), 0);
	nt_rec_watch(test, c->head, NULL);

	/* Stopped by the second callback. */
	b[1].ret = NOTIFY_STOP;
	nt_rec_clear();
	KUNIT_EXPECT_EQ(test, nt_chain_call(c, NT_VAL, NULL), NOTIFY_STOP);
	n = nt_collect(test, c->head, NULL, NT_EV_CALLS);
	KUNIT_EXPECT_EQ(test, n, 7);
	nt_expect_pass_ev(test, n, 0, NT_EV_CALL_BEGIN, c->head, c->kind,
			  NT_VAL, -1, NOTIFIER_CALL_PLAIN);
	for (i = 0; i < 2; i++) {
		nt_expect_cb_ev(test, n, 1 + 2 * i, NT_EV_RUN, c->head,
				c->kind, &b[i].nb, NT_VAL);
		e = nt_expect_cb_ev(test, n, 2 + 2 * i, NT_EV_RETURN, c->head,
				    c->kind, &b[i].nb, NT_VAL);
		if (e)
			KUNIT_EXPECT_EQ(test, e->ret, b[i].ret);
	}
	e = nt_expect_cb_ev(test, n, 5, NT_EV_STOP, c->head, c->kind,
			    &b[1].nb, NT_VAL);
	if (e) {
		KUNIT_EXPECT_EQ(test, e->ret, NOTIFY_STOP);
		KUNIT_EXPECT_EQ(test, e->nr_calls, 2);
	}
	e = nt_expect_pass_ev(test, n, 6, NT_EV_CALL_END, c->head, c->kind,
			      NT_VAL, -1, NOTIFIER_CALL_PLAIN);
	nt_expect_end(test, e, NOTIFY_STOP, 2);

	/* Stopped by the first callback, with an errno. */
	b[1].ret = NOTIFY_OK;
	b[0].ret = notifier_from_errno(-EIO);
	nt_rec_clear();
	KUNIT_EXPECT_EQ(test, nt_chain_call(c, NT_VAL, NULL), b[0].ret);
	n = nt_collect(test, c->head, NULL, NT_EV_CALLS);
	KUNIT_EXPECT_EQ(test, n, 5);
	nt_expect_pass_ev(test, n, 0, NT_EV_CALL_BEGIN, c->head, c->kind,
			  NT_VAL, -1, NOTIFIER_CALL_PLAIN);
	nt_expect_cb_ev(test, n, 1, NT_EV_RUN, c->head, c->kind, &b[0].nb,
			NT_VAL);
	e = nt_expect_cb_ev(test, n, 2, NT_EV_RETURN, c->head, c->kind,
			    &b[0].nb, NT_VAL);
	if (e)
		KUNIT_EXPECT_EQ(test, e->ret, b[0].ret);
	e = nt_expect_cb_ev(test, n, 3, NT_EV_STOP, c->head, c->kind,
			    &b[0].nb, NT_VAL);
	if (e) {
		KUNIT_EXPECT_EQ(test, e->ret, b[0].ret);
		KUNIT_EXPECT_EQ(test, e->nr_calls, 1);
	}
	e = nt_expect_pass_ev(test, n, 4, NT_EV_CALL_END, c->head, c->kind,
			      NT_VAL, -1, NOTIFIER_CALL_PLAIN);
	nt_expect_end(test, e, b[0].ret, 1);

	for (i = 0; i < ARRAY_SIZE(prio); i++)
		KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &b[i].nb), 0);
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
	struct nt_chain *c;
	struct nt_block *b;
	const struct nt_event *e;
	const struct nt_event *rb = NULL, *re = NULL, *kb = NULL, *ke = NULL;
	int i, n, first_up = -1, stop_pos = -1, first_down = -1, last_down = -1;

	nt_tp_attach(test);
	c = nt_chain_new(test, nt_param(test)->kind, false);
	b = nt_blocks_new(test, NULL, prio, ARRAY_SIZE(prio));
	for (i = 0; i < ARRAY_SIZE(prio); i++)
		KUNIT_ASSERT_EQ(test, nt_reg(test, c, &b[i].nb), 0);
	nt_rec_watch(test, c->head, NULL);

	b[2].fail_val = NT_VAL_UP;
	b[2].fail_ret = fail;
	nt_rec_clear();
	KUNIT_EXPECT_EQ(test,
			nt_chain_call_robust(c, NT_VAL_UP, NT_VAL_DOWN, NULL),
			fail);

	/* The two passes. */
	n = nt_collect(test, c->head, NULL, NT_EV_PASSES);
	KUNIT_EXPECT_EQ(test, n, 4);
	for (i = 0; i < n; i++) {
		e = nt_evs[i];
		if (e->call_type == NOTIFIER_CALL_ROBUST) {
			if (e->type == NT_EV_CALL_BEGIN)
				rb = e;
			else
				re = e;
		} else if (e->call_type == NOTIFIER_CALL_ROLLBACK) {
			if (e->type == NT_EV_CALL_BEGIN)
				kb = e;
			else
				ke = e;
		}
	}
	KUNIT_EXPECT_TRUE(test, rb && re && kb && ke);
	if (n)
		KUNIT_EXPECT_PTR_EQ(test, nt_evs[0], rb);
	if (rb) {
		KUNIT_EXPECT_EQ(test, rb->val, NT_VAL_UP);
		KUNIT_EXPECT_EQ(test, rb->nr_to_call, -1);
		KUNIT_EXPECT_EQ(test, rb->kind, (int)c->kind);
	}
	if (re) {
		KUNIT_EXPECT_EQ(test, re->val, NT_VAL_UP);
		KUNIT_EXPECT_EQ(test, re->nr_to_call, -1);
		KUNIT_EXPECT_EQ(test, re->ret, fail);
		KUNIT_EXPECT_EQ(test, re->nr_calls, 3);
	}
	if (kb) {
		KUNIT_EXPECT_EQ(test, kb->val, NT_VAL_DOWN);
		KUNIT_EXPECT_EQ(test, kb->nr_to_call, 2);
	}
	if (ke) {
		KUNIT_EXPECT_EQ(test, ke->val, NT_VAL_DOWN);
		KUNIT_EXPECT_EQ(test, ke->nr_to_call, 2);
		KUNIT_EXPECT_EQ(test, ke->ret, NOTIFY_OK);
		KUNIT_EXPECT_EQ(test, ke->nr_calls, 2);
	}

	/* The callbacks: up to the failing one, then the rollback. */
	n = nt_collect(test, c->head, NULL, NT_EV_CALLBACKS);
	KUNIT_EXPECT_EQ(test, n, 11);
	for (i = 0; i < 3; i++) {
		e = nt_expect_cb_ev(test, n, 2 * i, NT_EV_RUN, c->head, c->kind,
				    &b[i].nb, NT_VAL_UP);
		if (e && first_up < 0)
			first_up = nt_pos(e);
		e = nt_expect_cb_ev(test, n, 2 * i + 1, NT_EV_RETURN, c->head,
				    c->kind, &b[i].nb, NT_VAL_UP);
		if (e)
			KUNIT_EXPECT_EQ(test, e->ret, i == 2 ? fail : NOTIFY_OK);
	}
	e = nt_expect_cb_ev(test, n, 6, NT_EV_STOP, c->head, c->kind,
			    &b[2].nb, NT_VAL_UP);
	if (e) {
		stop_pos = nt_pos(e);
		KUNIT_EXPECT_EQ(test, e->ret, fail);
		KUNIT_EXPECT_EQ(test, e->nr_calls, 3);
	}
	for (i = 0; i < 2; i++) {
		e = nt_expect_cb_ev(test, n, 7 + 2 * i, NT_EV_RUN, c->head,
				    c->kind, &b[i].nb, NT_VAL_DOWN);
		if (e && first_down < 0)
			first_down = nt_pos(e);
		e = nt_expect_cb_ev(test, n, 8 + 2 * i, NT_EV_RETURN, c->head,
				    c->kind, &b[i].nb, NT_VAL_DOWN);
		if (e)
			last_down = nt_pos(e);
	}
	if (rb && first_up >= 0)
		KUNIT_EXPECT_LT(test, nt_pos(rb), first_up);
	if (re && stop_pos >= 0)
		KUNIT_EXPECT_GT(test, nt_pos(re), stop_pos);
	if (kb && stop_pos >= 0 && first_down >= 0) {
		KUNIT_EXPECT_GT(test, nt_pos(kb), stop_pos);
		KUNIT_EXPECT_LT(test, nt_pos(kb), first_down);
	}
	if (ke && last_down >= 0)
		KUNIT_EXPECT_GT(test, nt_pos(ke), last_down);

	/* A blocking chain holds its rwsem once, across both passes. */
	if (c->kind == NOTIFIER_CHAIN_BLOCKING) {
		struct blocking_notifier_head *h = c->head;

		nt_expect_lock_wait(test, h, &h->rwsem, c->kind,
				    NOTIFIER_LOCK_READ);
	}

	/* Success: one ROBUST pass over all four, no rollback. */
	b[2].fail_ret = 0;
	nt_rec_clear();
	KUNIT_EXPECT_EQ(test,
			nt_chain_call_robust(c, NT_VAL_UP, NT_VAL_DOWN, NULL),
			NOTIFY_OK);
	n = nt_collect(test, c->head, NULL, NT_EV_CALLS);
	KUNIT_EXPECT_EQ(test, n, 10);
	nt_expect_pass_ev(test, n, 0, NT_EV_CALL_BEGIN, c->head, c->kind,
			  NT_VAL_UP, -1, NOTIFIER_CALL_ROBUST);
	for (i = 0; i < 4; i++) {
		nt_expect_cb_ev(test, n, 1 + 2 * i, NT_EV_RUN, c->head,
				c->kind, &b[i].nb, NT_VAL_UP);
		nt_expect_cb_ev(test, n, 2 + 2 * i, NT_EV_RETURN, c->head,
				c->kind, &b[i].nb, NT_VAL_UP);
	}
	e = nt_expect_pass_ev(test, n, 9, NT_EV_CALL_END, c->head, c->kind,
			      NT_VAL_UP, -1, NOTIFIER_CALL_ROBUST);
	nt_expect_end(test, e, NOTIFY_OK, 4);

	for (i = 0; i < ARRAY_SIZE(prio); i++)
		KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &b[i].nb), 0);
}

/* call_begin and call_end fire for an empty chain too. */
static void notifier_test_tp_empty_chain(struct kunit *test)
{
	struct nt_chain *c;
	const struct nt_event *e;
	int n;

	nt_tp_attach(test);
	c = nt_chain_new(test, nt_param(test)->kind, false);
	nt_rec_watch(test, c->head, NULL);

	nt_rec_clear();
	KUNIT_EXPECT_EQ(test, nt_chain_call(c, NT_VAL, NULL), NOTIFY_DONE);
	n = nt_collect(test, c->head, NULL, NT_EV_CALLS);
	KUNIT_EXPECT_EQ(test, n, 2);
	nt_expect_pass_ev(test, n, 0, NT_EV_CALL_BEGIN, c->head, c->kind,
			  NT_VAL, -1, NOTIFIER_CALL_PLAIN);
	e = nt_expect_pass_ev(test, n, 1, NT_EV_CALL_END, c->head, c->kind,
			      NT_VAL, -1, NOTIFIER_CALL_PLAIN);
	nt_expect_end(test, e, NOTIFY_DONE, 0);

	if (!nt_kind_has_robust(c->kind))
		return;
	nt_rec_clear();
	KUNIT_EXPECT_EQ(test,
			nt_chain_call_robust(c, NT_VAL_UP, NT_VAL_DOWN, NULL),
			NOTIFY_DONE);
	n = nt_collect(test, c->head, NULL, NT_EV_CALLS);
	KUNIT_EXPECT_EQ(test, n, 2);
	nt_expect_pass_ev(test, n, 0, NT_EV_CALL_BEGIN, c->head, c->kind,
			  NT_VAL_UP, -1, NOTIFIER_CALL_ROBUST);
	e = nt_expect_pass_ev(test, n, 1, NT_EV_CALL_END, c->head, c->kind,
			      NT_VAL_UP, -1, NOTIFIER_CALL_ROBUST);
	nt_expect_end(test, e, NOTIFY_DONE, 0);
}

/*
 * lock_wait: write for (un)registration and read for calls on a blocking
 * chain, 0 ns when uncontended and at least the time the test held the
 * rwsem when contended; write for (un)registration on an SRCU chain.
 */
static void notifier_test_tp_lock_wait(struct kunit *test)
{
	static const int prio[] = { 0 };
	struct nt_chain *c, *cs;
	struct blocking_notifier_head *h;
	struct srcu_notifier_head *hs;
	struct nt_block *b;
	const struct nt_event *e;
	struct nt_op *op;
	u64 t0 = 0, t1 = 0;
	bool contended = false;
	unsigned long until;

	nt_tp_attach(test);
	c = nt_chain_new(test, NOTIFIER_CHAIN_BLOCKING, false);
	h = c->head;
	b = nt_blocks_new(test, NULL, prio, 1);
	nt_rec_watch(test, h, NULL);

	nt_rec_clear();
	KUNIT_ASSERT_EQ(test, nt_reg(test, c, &b->nb), 0);
	e = nt_expect_lock_wait(test, h, &h->rwsem, c->kind,
				NOTIFIER_LOCK_WRITE);
	if (e)
		KUNIT_EXPECT_EQ(test, e->ns, 0ULL);

	nt_rec_clear();
	KUNIT_EXPECT_EQ(test, nt_chain_call(c, NT_VAL, NULL), NOTIFY_OK);
	e = nt_expect_lock_wait(test, h, &h->rwsem, c->kind,
				NOTIFIER_LOCK_READ);
	if (e)
		KUNIT_EXPECT_EQ(test, e->ns, 0ULL);

	/* A call that has to wait for a writer (the test itself). */
	nt_rec_clear();
	down_write(&h->rwsem);
	op = nt_op_start(test, c, NT_OP_CALL, NULL, false);
	if (op) {
		until = jiffies + msecs_to_jiffies(NT_WAIT_MS);
		for (;;) {
			contended = rwsem_is_contended(&h->rwsem);
			if (contended || time_after(jiffies, until))
				break;
			usleep_range(200, 500);
		}
		t0 = ktime_get_mono_fast_ns();
		msleep(NT_HOLD_MS);
		t1 = ktime_get_mono_fast_ns();
	}
	up_write(&h->rwsem);
	if (op) {
		KUNIT_EXPECT_TRUE(test, contended);
		KUNIT_EXPECT_TRUE(test, nt_op_wait(op));
		KUNIT_EXPECT_EQ(test, op->ret, NOTIFY_OK);
	}
	nt_threads_stop(test);
	if (op && contended) {
		e = nt_expect_lock_wait(test, h, &h->rwsem, c->kind,
					NOTIFIER_LOCK_READ);
		if (e) {
			KUNIT_EXPECT_GT(test, e->ns, 0ULL);
			KUNIT_EXPECT_GE(test, e->ns, (t1 - t0) / 2);
		}
	}

	nt_rec_clear();
	KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &b->nb), 0);
	e = nt_expect_lock_wait(test, h, &h->rwsem, c->kind,
				NOTIFIER_LOCK_WRITE);
	if (e)
		KUNIT_EXPECT_EQ(test, e->ns, 0ULL);

	/* SRCU: the mutex, for (un)registration only. */
	cs = nt_chain_new(test, NOTIFIER_CHAIN_SRCU, false);
	hs = cs->head;
	nt_rec_watch(test, hs, NULL);
	nt_rec_clear();
	KUNIT_ASSERT_EQ(test, nt_reg(test, cs, &b->nb), 0);
	e = nt_expect_lock_wait(test, hs, &hs->mutex, cs->kind,
				NOTIFIER_LOCK_WRITE);
	if (e)
		KUNIT_EXPECT_EQ(test, e->ns, 0ULL);
	nt_rec_clear();
	KUNIT_EXPECT_EQ(test, nt_chain_call(cs, NT_VAL, NULL), NOTIFY_OK);
	KUNIT_EXPECT_EQ(test, nt_collect(test, hs, NULL, BIT(NT_EV_LOCK_WAIT)),
			0);
	nt_rec_clear();
	KUNIT_EXPECT_EQ(test, nt_unreg(test, cs, &b->nb), 0);
	nt_expect_lock_wait(test, hs, &hs->mutex, cs->kind,
			    NOTIFIER_LOCK_WRITE);
}

static struct kunit_case notifier_tracepoints_cases[] = {
	KUNIT_CASE_PARAM(notifier_test_tp_membership, nt_all_kinds_gen_params),
	KUNIT_CASE(notifier_test_tp_die_chain),
	KUNIT_CASE(notifier_test_tp_errors),
	KUNIT_CASE_PARAM(notifier_test_tp_run_return, nt_all_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_tp_stop, nt_all_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_tp_robust, nt_robust_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_tp_empty_chain, nt_all_kinds_gen_params),
	KUNIT_CASE(notifier_test_tp_lock_wait),
	{}
};

static struct kunit_suite notifier_tracepoints_suite = {
	.name = "notifier_tracepoints",
	.init = nt_test_init,
	.exit = nt_test_exit,
	.test_cases = notifier_tracepoints_cases,
};

kunit_test_suites(&notifier_api_suite, &notifier_concurrency_suite,
		  &notifier_tracepoints_suite);

MODULE_DESCRIPTION("KUnit tests for notifier chains and their tracepoints");
MODULE_LICENSE("GPL");
