// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for notifier chains (include/linux/notifier.h).
 *
 * The tests are written from the documented semantics of the Linux 6.1
 * API, not from an implementation: the same module runs on a kernel with
 * the stock kernel/notifier.c and on one with chainscope's traced rewrite.
 *
 * notifier_api:          priority order, return values, NOTIFY_STOP_MASK,
 *                        robust calls and their rollback, error returns,
 *                        unique priorities, SRCU heads, the die chain (a
 *                        real int3) and atomic_notifier_call_chain_is_empty()
 *                        (through its exported caller).
 * notifier_concurrency:  every chain kind called while other threads
 *                        register and unregister blocks, callers in hardirq
 *                        and softirq context, sleeping callbacks, writers
 *                        against a running callback, nested chains.
 * notifier_api_traced,
 * notifier_concurrency_traced:
 *                        the same cases with a probe on every notifier
 *                        event, so that chainscope's traced walk is what
 *                        runs; skipped where the events do not exist.
 * notifier_tracepoints:  the notifier:* events themselves.
 *
 * The events are found by name at run time and attached with
 * tracepoint_probe_register(), so the module refers to no tracepoint
 * symbol and loads on the stock kernel.
 *
 * Expected callbacks are written as strings of block ids: "51304276" is
 * block 5, then 1, then 3, ...; "012/01" is a robust call that ran 0, 1
 * and 2 with val_up and rolled 0 and 1 back with val_down.  Expected
 * events likewise: "B r0 t0 s0 E" is call_begin, the run, return and stop
 * of block 0, call_end.
 *
 * Every test leaves the chains it used empty.  Blocks, threads, gates,
 * SRCU heads and handlers are tracked, so that the exit hook can undo
 * whatever a failed test left behind before the memory is freed.
 *
 * Console contract of the test harness: any WARNING fails the run unless
 * it was announced.  Registering a block twice WARNs by design, so each
 * such registration is preceded by one "notifier_kunit: expect WARN: ..."
 * line: once on a raw chain in notifier_api (and once more in its traced
 * pass) and once on an atomic chain in notifier_tracepoints.
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
#include <linux/objtool.h>
#include <linux/pm.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/reboot.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/signal.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/timer.h>
#include <linux/tracepoint.h>

#ifdef CONFIG_X86
#include <asm/text-patching.h>
#include <asm/trapnr.h>
#endif

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

/*
 * What the test made the chains do, for the traced passes to compare with
 * the events their probes saw: every call and every registration emits at
 * least one call_begin and one register event.
 */
static atomic_long_t nt_made_calls;
static atomic_long_t nt_made_regs;

static const char * const nt_kind_names[] = {
	[NOTIFIER_CHAIN_RAW] = "raw",
	[NOTIFIER_CHAIN_ATOMIC] = "atomic",
	[NOTIFIER_CHAIN_BLOCKING] = "blocking",
	[NOTIFIER_CHAIN_SRCU] = "srcu",
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
	if (!ret)
		atomic_long_inc(&nt_made_regs);
	return ret;
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

	atomic_long_inc(&nt_made_calls);
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

/* Robust calls (val_up, val_down) exist for raw and blocking chains only. */
static int nt_chain_call_robust(struct nt_chain *c, void *v)
{
	atomic_long_inc(&nt_made_calls);
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
	bool tp_attached;
	bool traced;		/* a case of a traced pass */
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

	if (c->kind == NOTIFIER_CHAIN_ATOMIC)
		ret = atomic_notifier_chain_register_unique_prio(c->head, nb);
	else
		ret = blocking_notifier_chain_register_unique_prio(c->head, nb);
	if (!ret) {
		atomic_long_inc(&nt_made_regs);
		nt_track_add(test, c, nb);
	}
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
				     enum notifier_chain_kind kind,
				     bool second)
{
	struct nt_test_ctx *ctx = test->priv;
	struct nt_chain *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct srcu_notifier_head *h;

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
		if (!IS_ENABLED(CONFIG_SRCU))
			kunit_skip(test, "SRCU notifier chains need CONFIG_SRCU");
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

static void nt_tp_attach(struct kunit *test);
static void nt_tp_detach(struct nt_test_ctx *ctx);
static void nt_traced_check(struct kunit *test);

static int nt_test_init(struct kunit *test)
{
	struct nt_test_ctx *ctx;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	test->priv = ctx;
	atomic_long_set(&nt_made_calls, 0);
	atomic_long_set(&nt_made_regs, 0);
	return 0;
}

/* Init of the traced passes: every notifier event gets a probe. */
static int nt_traced_init(struct kunit *test)
{
	int ret = nt_test_init(test);

	if (ret)
		return ret;
	nt_tp_attach(test);
	((struct nt_test_ctx *)test->priv)->traced = true;
	return 0;
}

/*
 * Runs after every case, also after a failed assertion or a skip: lets
 * blocked threads finish, stops them, detaches the tracepoint probes and
 * unregisters every block still registered, so that the next case starts
 * from empty chains and no freed block stays on a chain.
 */
static void nt_test_exit(struct kunit *test)
{
	static struct notifier_block __rcu ** const heads[] = {
		&nt_raw_head.head, &nt_atomic_head.head, &nt_blocking_head.head,
		&nt_raw_head2.head, &nt_atomic_head2.head,
		&nt_blocking_head2.head,
#ifdef CONFIG_SRCU
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
	if (ctx->traced)
		nt_traced_check(test);
	if (ctx->tp_attached)
		nt_tp_detach(ctx);
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
	for (i = 0; i < ctx->nr_srcu && IS_ENABLED(CONFIG_SRCU); i++)
		srcu_cleanup_notifier_head(ctx->srcu[i]);
	for (i = 0; i < ARRAY_SIZE(heads); i++)
		KUNIT_EXPECT_TRUE_MSG(test, !rcu_access_pointer(*heads[i]),
				      "static head %d left non-empty", i);
}

/* ---------------------------------------------------------------------- */
/* Recording callbacks, and expectations written as strings of ids         */
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

static int nt_block_ret(const struct nt_block *b, unsigned long val)
{
	return b->fail_ret && val == b->fail_val ? b->fail_ret : b->ret;
}

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

	f.c = nt_chain_new(test, kind, false);
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
	for (; *ids; ids++)
		KUNIT_ASSERT_EQ_MSG(test, nt_reg(test, f->c, &f->b[*ids - '0'].nb),
				    0, "registering block %c", *ids);
}

static void nt_unreg_ids(struct kunit *test, struct nt_fix *f, const char *ids)
{
	for (; *ids; ids++)
		KUNIT_EXPECT_EQ_MSG(test,
				    nt_unreg(test, f->c, &f->b[*ids - '0'].nb),
				    0, "unregistering block %c", *ids);
}

/*
 * The log must hold exactly the callbacks @ids, in order, each with @data
 * and NT_VAL, or for a robust call ("012/01") val_up before the "/" and
 * val_down after it.
 */
static void nt_expect_log(struct kunit *test, const struct nt_log *log,
			  const char *ids, void *data, bool robust)
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
			KUNIT_EXPECT_PTR_EQ_MSG(test, log->data[i], data,
						"data of callback #%d", i);
		}
		i++;
	}
	KUNIT_EXPECT_EQ_MSG(test, log->n, i, "number of callbacks run");
}

/* Call the chain; expect @ret and exactly the callbacks @ids. */
static void nt_call_expect(struct kunit *test, struct nt_fix *f, int ret,
			   const char *ids)
{
	int data;

	memset(f->log, 0, sizeof(*f->log));
	KUNIT_EXPECT_EQ_MSG(test, nt_chain_call(f->c, NT_VAL, &data), ret,
			    "return of the call running \"%s\"", ids);
	nt_expect_log(test, f->log, ids, &data, false);
}

static void nt_robust_expect(struct kunit *test, struct nt_fix *f, int ret,
			     const char *ids)
{
	int data;

	memset(f->log, 0, sizeof(*f->log));
	KUNIT_EXPECT_EQ_MSG(test, nt_chain_call_robust(f->c, &data), ret,
			    "return of the robust call running \"%s\"", ids);
	nt_expect_log(test, f->log, ids, &data, true);
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

static const struct nt_kind_param nt_unique_kinds[] = {
	{ NOTIFIER_CHAIN_ATOMIC, "atomic" },
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
KUNIT_ARRAY_PARAM(nt_unique_kinds, nt_unique_kinds, nt_kind_desc);
KUNIT_ARRAY_PARAM(nt_sleeping_kinds, nt_sleeping_kinds, nt_kind_desc);

static enum notifier_chain_kind nt_kind(struct kunit *test)
{
	return ((const struct nt_kind_param *)test->param_value)->kind;
}

/* ---------------------------------------------------------------------- */
/* The die chain, called for real: an int3 that our notifier claims        */
/* ---------------------------------------------------------------------- */

/*
 * exc_int3() calls notify_die(DIE_INT3, "int3", regs, 0, X86_TRAP_BP,
 * SIGTRAP) for an int3 in kernel mode that is neither a text-patching site
 * nor a kprobe, and resumes after it if a notifier returns NOTIFY_STOP, as
 * the kernel's own int3_selftest() does at boot.  Our notifier (priority
 * INT_MAX: after kprobes', which passes, before uprobes', which ignores
 * kernel mode) claims only the int3 at nt_int3_ip.  It runs in NMI
 * context: it only copies what it saw.
 */
struct nt_die_block {
	struct notifier_block nb;
	int hits;
	unsigned long val;
	unsigned long ip;
	struct die_args args;
};

#ifdef CONFIG_X86
#define NT_DIE_VAL	DIE_INT3

/* The address of the int3 in nt_die_trap(), a label of this object. */
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
	d->val = val;
	d->ip = args->regs->ip;
	d->args = *args;
	return NOTIFY_STOP;
}

/* Must be noinline, so that the label is defined once. */
static noinline void nt_die_trap(void)
{
	asm volatile("nt_int3_ip:\n\t"
		     ANNOTATE_NOENDBR
		     "int3\n\t" : : : "memory");
}
#else
#define NT_DIE_VAL	0
#endif

static void nt_rec_watch(struct kunit *test, void *head,
			 struct notifier_block *nb);

/* Registers a block on the die chain (@watch: recording its events). */
static struct nt_die_block *nt_die_block_new(struct kunit *test, bool watch)
{
	struct nt_test_ctx *ctx = test->priv;
	struct nt_die_block *d;

	if (!IS_ENABLED(CONFIG_X86))
		kunit_skip(test, "the die chain is called through an x86 int3");
	d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d);
#ifdef CONFIG_X86
	d->nb.notifier_call = nt_die_cb;
#endif
	d->nb.priority = INT_MAX;
	if (watch)
		nt_rec_watch(test, NULL, &d->nb);
	KUNIT_ASSERT_EQ(test, register_die_notifier(&d->nb), 0);
	ctx->die_nb = &d->nb;
	return d;
}

/* Traps once, and expects our notifier to have seen exactly that. */
static void nt_die_expect_trap(struct kunit *test, struct nt_die_block *d)
{
#ifdef CONFIG_X86
	nt_die_trap();
	KUNIT_EXPECT_EQ(test, d->hits, 1);
	KUNIT_EXPECT_EQ(test, d->val, (unsigned long)NT_DIE_VAL);
	KUNIT_EXPECT_EQ(test, d->ip, nt_int3_addr() + INT3_INSN_SIZE);
	KUNIT_EXPECT_NOT_NULL(test, d->args.regs);
	KUNIT_EXPECT_STREQ(test, d->args.str, "int3");
	KUNIT_EXPECT_EQ(test, d->args.err, 0L);
	KUNIT_EXPECT_EQ(test, d->args.trapnr, X86_TRAP_BP);
	KUNIT_EXPECT_EQ(test, d->args.signr, SIGTRAP);
#endif
}

static void nt_die_unregister(struct kunit *test, struct nt_die_block *d)
{
	struct nt_test_ctx *ctx = test->priv;

	KUNIT_EXPECT_EQ(test, unregister_die_notifier(&d->nb), 0);
	ctx->die_nb = NULL;
	KUNIT_EXPECT_EQ(test, unregister_die_notifier(&d->nb), -ENOENT);
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
	static const int no_err[] = {
		NOTIFY_DONE, NOTIFY_OK, NOTIFY_STOP, NOTIFY_STOP_MASK,
	};
	unsigned int i;

	KUNIT_EXPECT_EQ(test, NOTIFY_DONE, 0x0000);
	KUNIT_EXPECT_EQ(test, NOTIFY_OK, 0x0001);
	KUNIT_EXPECT_EQ(test, NOTIFY_STOP_MASK, 0x8000);
	KUNIT_EXPECT_EQ(test, NOTIFY_STOP, 0x8001);
	KUNIT_EXPECT_EQ(test, NOTIFY_BAD, 0x8002);
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
	static const int none[] = { 0 };
	struct nt_fix f = nt_fix_new(test, nt_kind(test), none, ARRAY_SIZE(none));

	nt_call_expect(test, &f, NOTIFY_DONE, "");
	KUNIT_EXPECT_EQ(test, nt_chain_call(f.c, NT_VAL, NULL), NOTIFY_DONE);
	if (nt_kind_has_robust(f.c->kind))
		nt_robust_expect(test, &f, NOTIFY_DONE, "");
}

/* Highest priority first, equal priorities in registration order. */
static void notifier_test_priority_order(struct kunit *test)
{
	static const int prio[] = { 0, 10, -5, 10, 0, INT_MAX, INT_MIN, -5 };
	struct nt_fix f = nt_fix_new(test, nt_kind(test), prio, ARRAY_SIZE(prio));

	nt_reg_ids(test, &f, "01234567");
	nt_call_expect(test, &f, NOTIFY_OK, "51304276");
	/* The first, the last and two in the middle go. */
	nt_unreg_ids(test, &f, "5614");
	nt_call_expect(test, &f, NOTIFY_OK, "3027");
	/* A block registered again goes behind those of equal priority. */
	nt_reg_ids(test, &f, "15");
	nt_call_expect(test, &f, NOTIFY_OK, "531027");
	nt_unreg_ids(test, &f, "531027");
	nt_call_expect(test, &f, NOTIFY_DONE, "");
}

/* A call returns the last callback's value, whatever it is. */
static void notifier_test_call_returns_last(struct kunit *test)
{
	static const int prio[] = { 3, 2, 1 };
	static const int rets[][3] = {
		{ NOTIFY_OK, NOTIFY_OK, NOTIFY_DONE },
		{ NOTIFY_DONE, NOTIFY_DONE, NOTIFY_OK },
		/* No NOTIFY_STOP_MASK: the call goes on. */
		{ 0x0042, NOTIFY_DONE, 0x7ff0 },
	};
	struct nt_fix f = nt_fix_new(test, nt_kind(test), prio, ARRAY_SIZE(prio));
	unsigned int i, j;

	nt_reg_ids(test, &f, "012");
	for (i = 0; i < ARRAY_SIZE(rets); i++) {
		for (j = 0; j < 3; j++)
			f.b[j].ret = rets[i][j];
		nt_call_expect(test, &f, rets[i][2], "012");
	}
	nt_unreg_ids(test, &f, "012");
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
	struct nt_fix f = nt_fix_new(test, nt_kind(test), prio, ARRAY_SIZE(prio));
	unsigned int i;

	nt_reg_ids(test, &f, "0123");
	for (i = 0; i < ARRAY_SIZE(stops); i++) {
		f.b[stops[i].id].ret = stops[i].ret;
		nt_call_expect(test, &f, stops[i].ret, stops[i].ran);
		f.b[stops[i].id].ret = NOTIFY_OK;
	}
	f.b[1].ret = notifier_from_errno(-ENOMEM);
	KUNIT_EXPECT_EQ(test, notifier_to_errno(nt_chain_call(f.c, NT_VAL, NULL)),
			-ENOMEM);
	nt_unreg_ids(test, &f, "0123");
}

/*
 * *_call_chain_robust(): val_up to every callback; if one returns a value
 * with NOTIFY_STOP_MASK, val_down to the callbacks that ran before it, in
 * chain order, and the failed val_up's value is returned.
 */
static void notifier_test_robust(struct kunit *test)
{
	static const int prio[] = { 40, 30, 20, 10 };
	const struct { int id, ret, err; const char *ran; } fails[] = {
		{ 2, notifier_from_errno(-EINVAL), -EINVAL, "012/01" },
		{ 0, NOTIFY_BAD, -EPERM, "0" },
		{ 3, notifier_from_errno(-ENOMEM), -ENOMEM, "0123/012" },
		{ -1, NOTIFY_OK, 0, "0123" },	/* success: no rollback */
	};
	struct nt_fix f = nt_fix_new(test, nt_kind(test), prio, ARRAY_SIZE(prio));
	unsigned int i;

	nt_reg_ids(test, &f, "0123");
	for (i = 0; i < ARRAY_SIZE(fails); i++) {
		struct nt_block *b = fails[i].id >= 0 ? &f.b[fails[i].id] : NULL;

		if (b) {
			b->fail_val = NT_VAL_UP;
			b->fail_ret = fails[i].ret;
		}
		nt_robust_expect(test, &f, fails[i].ret, fails[i].ran);
		KUNIT_EXPECT_EQ(test, notifier_to_errno(fails[i].ret),
				fails[i].err);
		if (b)
			b->fail_ret = 0;
	}
	nt_unreg_ids(test, &f, "0123");
}

/* The only double registration of this suite: one WARN, announced. */
static void notifier_test_double_register(struct kunit *test)
{
	static const int prio[] = { 0 };
	struct nt_fix f = nt_fix_new(test, NOTIFIER_CHAIN_RAW, prio, ARRAY_SIZE(prio));

	nt_reg_ids(test, &f, "0");
	pr_info("notifier_kunit: expect WARN: notifier callback %ps already registered\n",
		f.b[0].nb.notifier_call);
	KUNIT_EXPECT_EQ(test, nt_chain_register(f.c, &f.b[0].nb), -EEXIST);
	/* Still on the chain exactly once. */
	nt_call_expect(test, &f, NOTIFY_OK, "0");
	nt_unreg_ids(test, &f, "0");
	KUNIT_EXPECT_EQ(test, nt_chain_unregister(f.c, &f.b[0].nb), -ENOENT);
	nt_call_expect(test, &f, NOTIFY_DONE, "");
}

/* *_register_unique_prio() refuses a taken priority, without a warning. */
static void notifier_test_unique_prio(struct kunit *test)
{
	static const int prio[] = { 5, 5, 6, 4, 5 };
	struct nt_fix f = nt_fix_new(test, nt_kind(test), prio, ARRAY_SIZE(prio));

	KUNIT_EXPECT_EQ(test, nt_reg_unique(test, f.c, &f.b[0].nb), 0);
	KUNIT_EXPECT_EQ(test, nt_reg_unique(test, f.c, &f.b[1].nb), -EBUSY);
	KUNIT_EXPECT_EQ(test, nt_reg_unique(test, f.c, &f.b[2].nb), 0);
	KUNIT_EXPECT_EQ(test, nt_reg_unique(test, f.c, &f.b[3].nb), 0);
	nt_call_expect(test, &f, NOTIFY_OK, "203");
	/* Plain registration does not care about priorities. */
	nt_reg_ids(test, &f, "1");
	nt_call_expect(test, &f, NOTIFY_OK, "2013");
	KUNIT_EXPECT_EQ(test, nt_reg_unique(test, f.c, &f.b[4].nb), -EBUSY);
	nt_unreg_ids(test, &f, "0123");
	KUNIT_EXPECT_EQ(test, nt_chain_unregister(f.c, &f.b[4].nb), -ENOENT);
	nt_call_expect(test, &f, NOTIFY_DONE, "");
}

static void notifier_test_unregister_enoent(struct kunit *test)
{
	static const int prio[] = { 1, 2 };
	struct nt_fix f = nt_fix_new(test, nt_kind(test), prio, ARRAY_SIZE(prio));

	/* Never registered, on an empty chain. */
	KUNIT_EXPECT_EQ(test, nt_chain_unregister(f.c, &f.b[0].nb), -ENOENT);
	/* Not on a non-empty chain, which is left as it was. */
	nt_reg_ids(test, &f, "0");
	KUNIT_EXPECT_EQ(test, nt_chain_unregister(f.c, &f.b[1].nb), -ENOENT);
	nt_call_expect(test, &f, NOTIFY_OK, "0");
	/* Unregistered twice. */
	nt_unreg_ids(test, &f, "0");
	KUNIT_EXPECT_EQ(test, nt_chain_unregister(f.c, &f.b[0].nb), -ENOENT);
	nt_call_expect(test, &f, NOTIFY_DONE, "");
}

static int nt_sys_off_cb(struct sys_off_data *data)
{
	return NOTIFY_DONE;
}

/*
 * atomic_notifier_call_chain_is_empty() is not exported by 6.1; its one
 * caller is, kernel_can_power_off() = !is_empty(&power_off_handler_list)
 * || pm_power_off, and register_sys_off_handler() puts a block on that
 * atomic chain.  So the real function must say "not empty" once ours is
 * registered.  Its "empty" answer cannot be reached from a module where
 * the platform registered a power-off handler (ACPI does), so only
 * "unregistering restores the previous answer" is asked of that side.
 */
static void notifier_test_atomic_is_empty(struct kunit *test)
{
	struct nt_test_ctx *ctx = test->priv;
	struct sys_off_handler *h;
	bool before = kernel_can_power_off();

	if (pm_power_off)
		kunit_skip(test, "pm_power_off set: the answer does not depend on the chain");
	h = register_sys_off_handler(SYS_OFF_MODE_POWER_OFF, SYS_OFF_PRIO_LOW,
				     nt_sys_off_cb, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(h));
	ctx->sys_off = h;
	KUNIT_EXPECT_TRUE(test, kernel_can_power_off());
	unregister_sys_off_handler(h);
	ctx->sys_off = NULL;
	KUNIT_EXPECT_EQ(test, kernel_can_power_off(), before);
}

/* srcu_init_notifier_head() on a dynamically allocated head. */
static void notifier_test_srcu_dynamic_head(struct kunit *test)
{
	static const int prio[] = { -1, 1, 0 };
	struct nt_fix f = nt_fix_new(test, NOTIFIER_CHAIN_SRCU, prio, ARRAY_SIZE(prio));
	struct nt_test_ctx *ctx = test->priv;

	nt_call_expect(test, &f, NOTIFY_DONE, "");
	nt_reg_ids(test, &f, "012");
	nt_call_expect(test, &f, NOTIFY_OK, "120");
	nt_unreg_ids(test, &f, "2");
	nt_call_expect(test, &f, NOTIFY_OK, "10");
	nt_unreg_ids(test, &f, "01");
	nt_call_expect(test, &f, NOTIFY_DONE, "");
	/* Cleaned up now, and so not again at exit. */
	srcu_cleanup_notifier_head((struct srcu_notifier_head *)f.c->head);
	ctx->nr_srcu--;
}

/* A head from SRCU_NOTIFIER_HEAD_STATIC(); cleaned up in suite_exit. */
static void notifier_test_srcu_static_head(struct kunit *test)
{
	static const int prio[] = { 0, 7 };
	struct nt_fix f = nt_fix_new(test, NOTIFIER_CHAIN_SRCU, prio, ARRAY_SIZE(prio));

#ifdef CONFIG_SRCU
	f.c->head = &nt_srcu_static_head;
	nt_srcu_static_used = true;
#endif
	nt_call_expect(test, &f, NOTIFY_DONE, "");
	nt_reg_ids(test, &f, "01");
	nt_call_expect(test, &f, NOTIFY_OK, "10");
	nt_unreg_ids(test, &f, "01");
	nt_call_expect(test, &f, NOTIFY_DONE, "");
}

/* A real die event reaches our notifier, which can stop it. */
static void notifier_test_die_chain(struct kunit *test)
{
	struct nt_die_block *d = nt_die_block_new(test, false);

	nt_die_expect_trap(test, d);
	nt_die_unregister(test, d);
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

/* What the stress cases of one suite did, for its suite_exit. */
static atomic_long_t nt_stress_total_ops;
static atomic_t nt_stress_cases;
static atomic_t nt_stress_cases_out_of_time;

static void nt_stress_setup(struct nt_stress *s, enum notifier_chain_kind kind)
{
	unsigned int i;

	mutex_init(&s->raw_lock);
	if (kind == NOTIFIER_CHAIN_RAW)
		s->chain->raw_lock = &s->raw_lock;
	s->iters = max(stress_iters, 1U);
	s->churn_min = max(stress_iters / 128, 8U);
	atomic_set(&s->callers_left, NT_STRESS_CALLERS);
	atomic_set(&s->threads_left, NT_STRESS_CALLERS + 1);
	init_completion(&s->done);
	s->stable.s = s;
	s->stable.stable = true;
	s->stable.nb.notifier_call = nt_stress_cb;
	for (i = 0; i < NT_CHURN_BLOCKS; i++) {
		s->churn[i].s = s;
		s->churn[i].nb.notifier_call = nt_stress_cb;
		s->churn[i].nb.priority = (int)(i % 3) - 1;
	}
}

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
	enum notifier_chain_kind kind = nt_kind(test);
	unsigned int i, max_ms = max(stress_max_ms, 1000U);
	unsigned long budget = msecs_to_jiffies(max_ms);
	unsigned long calls, regs, unregs, ops, before;
	ktime_t start = ktime_get();
	struct nt_stress *s;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	s->chain = nt_chain_new(test, kind, false);
	nt_stress_setup(s, kind);
	s->deadline = jiffies + budget;
	atomic_long_inc(&s->regs);
	KUNIT_ASSERT_EQ(test, nt_reg(test, s->chain, &s->stable.nb), 0);

	for (i = 0; i < NT_STRESS_CALLERS; i++)
		if (!nt_thread_start(test, nt_stress_caller, s, "nt_caller"))
			break;
	if (i == NT_STRESS_CALLERS &&
	    nt_thread_start(test, nt_stress_churner, s, "nt_churner") &&
	    !wait_for_completion_timeout(&s->done, budget +
					 msecs_to_jiffies(NT_WAIT_MS)))
		KUNIT_FAIL(test, "stress threads did not finish");
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

	regs = atomic_long_read(&s->regs);
	unregs = atomic_long_read(&s->unregs);
	KUNIT_EXPECT_EQ(test, regs, unregs);
	ops = calls + regs + unregs;
	atomic_long_add(ops, &nt_stress_total_ops);
	atomic_inc(&nt_stress_cases);
	if (atomic_read(&s->out_of_time)) {
		atomic_inc(&nt_stress_cases_out_of_time);
		kunit_info(test, "%s: time budget of %u ms used up",
			   nt_kind_names[kind], max_ms);
	}
	kunit_info(test,
		   "%s: %lu operations: %lu calls, %lu registrations, %lu unregistrations (%ld churn iterations, stress_iters %u, %lld ms)",
		   nt_kind_names[kind], ops, calls, regs, unregs,
		   atomic_long_read(&s->churn_ops), stress_iters,
		   ktime_ms_delta(ktime_get(), start));
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
	if (nt_chain_call(it->chain, NT_VAL_IRQ, it) == NOTIFY_OK)
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

/*
 * @rounds calls, each running both callbacks in hardirq or in softirq;
 * then unregisters them.
 */
static void nt_irqtest_finish(struct kunit *test, struct nt_irqtest *it,
			      int rounds, bool hard)
{
	unsigned int i;

	KUNIT_EXPECT_EQ(test, atomic_read(&it->runs), rounds);
	KUNIT_EXPECT_EQ(test, atomic_read(&it->ok), rounds);
	for (i = 0; i < ARRAY_SIZE(it->blk); i++) {
		struct nt_ctxblock *b = &it->blk[i];

		KUNIT_EXPECT_EQ(test, atomic_read(&b->calls), rounds);
		KUNIT_EXPECT_EQ(test, atomic_read(&b->hardirq), hard ? rounds : 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&b->softirq), hard ? 0 : rounds);
		KUNIT_EXPECT_EQ(test, atomic_read(&b->task), 0);
		if (hard)
			KUNIT_EXPECT_EQ(test, atomic_read(&b->irqs_off), rounds);
		KUNIT_EXPECT_EQ(test, nt_unreg(test, it->chain, &b->nb), 0);
	}
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
	nt_irqtest_finish(test, it, NT_IRQ_ROUNDS, true);
}

static void notifier_test_atomic_from_softirq(struct kunit *test)
{
	struct nt_irqtest *it = nt_irqtest_new(test);
	int rounds;

	init_completion(&it->timer_done);
	timer_setup(&it->timer, nt_timer_fn, 0);
	for (rounds = 0; rounds < NT_TIMER_ROUNDS; rounds++) {
		reinit_completion(&it->timer_done);
		mod_timer(&it->timer, jiffies + 1);
		if (!wait_for_completion_timeout(&it->timer_done,
						 msecs_to_jiffies(NT_WAIT_MS))) {
			KUNIT_FAIL(test, "timer round %d did not run", rounds);
			break;
		}
	}
	del_timer_sync(&it->timer);
	nt_irqtest_finish(test, it, rounds, false);
}

/* Callbacks of blocking and SRCU chains may sleep, in the caller's task. */
struct nt_sleeper {
	struct notifier_block nb;
	int *seq;
	int order;
	int calls;
	bool in_task;
	struct task_struct *task;
	u64 slept_ns;
};

enum { NT_SLEEP_MSLEEP, NT_SLEEP_USLEEP, NT_SLEEP_SCHEDULE, NT_SLEEPERS };

static int nt_sleeper_cb(struct notifier_block *nb, unsigned long val,
			 void *data)
{
	struct nt_sleeper *s = container_of(nb, struct nt_sleeper, nb);
	u64 t0 = ktime_get_ns();

	s->calls++;
	s->order = (*s->seq)++;
	s->in_task = in_task();
	s->task = current;
	if (s->order == NT_SLEEP_MSLEEP)
		msleep(NT_SLEEP_MS);
	else if (s->order == NT_SLEEP_USLEEP)
		usleep_range(NT_USLEEP_MIN, NT_USLEEP_MAX);
	else
		schedule_timeout_uninterruptible(1);
	s->slept_ns = ktime_get_ns() - t0;
	return NOTIFY_OK;
}

static void notifier_test_sleeping_callbacks(struct kunit *test)
{
	struct nt_chain *c = nt_chain_new(test, nt_kind(test), false);
	struct nt_sleeper *s;
	struct nt_op *op;
	int i, seq = 0;

	s = kunit_kcalloc(test, NT_SLEEPERS, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	for (i = 0; i < NT_SLEEPERS; i++) {
		s[i].nb.notifier_call = nt_sleeper_cb;
		s[i].nb.priority = NT_SLEEPERS - i;
		s[i].seq = &seq;
		s[i].order = -1;
		KUNIT_ASSERT_EQ(test, nt_reg(test, c, &s[i].nb), 0);
	}
	op = nt_op_start(test, c, NT_OP_CALL, NULL, false);
	KUNIT_ASSERT_NOT_NULL(test, op);
	KUNIT_EXPECT_TRUE(test, nt_op_wait(op));
	KUNIT_EXPECT_EQ(test, op->ret, NOTIFY_OK);
	nt_threads_stop(test);
	for (i = 0; i < NT_SLEEPERS; i++) {
		KUNIT_EXPECT_EQ(test, s[i].calls, 1);
		KUNIT_EXPECT_EQ(test, s[i].order, i);
		KUNIT_EXPECT_TRUE(test, s[i].in_task);
		KUNIT_EXPECT_PTR_EQ(test, s[i].task, op->task);
		KUNIT_EXPECT_GT(test, s[i].slept_ns, 0ULL);
		KUNIT_EXPECT_EQ(test, nt_unreg(test, c, &s[i].nb), 0);
	}
	/* usleep_range() sleeps at least its minimum, on ktime. */
	KUNIT_EXPECT_GE(test, s[NT_SLEEP_USLEEP].slept_ns,
			(u64)NT_USLEEP_MIN * NSEC_PER_USEC);
}

/*
 * A writer while a callback runs (sleeps, or on an atomic chain spins on
 * the other CPU): blocking chains hold their rwsem for reading across the
 * call, so (un)registration waits; SRCU and atomic chains register under
 * their own lock at once, and unregistration waits for the grace period
 * that ends with the call.  Either way the call in progress does not run
 * a block registered meanwhile.
 */
struct nt_writer_param {
	const char *name;
	enum notifier_chain_kind kind;
	enum nt_op_type op;	/* REGISTER: a new block; UNREGISTER: the gate */
	bool waits;
};

static const struct nt_writer_param nt_writer_params[] = {
	{ "blocking-register-waits", NOTIFIER_CHAIN_BLOCKING, NT_OP_REGISTER, true },
	{ "blocking-unregister-waits", NOTIFIER_CHAIN_BLOCKING, NT_OP_UNREGISTER, true },
#ifdef CONFIG_SRCU
	{ "srcu-register-proceeds", NOTIFIER_CHAIN_SRCU, NT_OP_REGISTER, false },
	{ "srcu-unregister-waits", NOTIFIER_CHAIN_SRCU, NT_OP_UNREGISTER, true },
#endif
	{ "atomic-register-proceeds", NOTIFIER_CHAIN_ATOMIC, NT_OP_REGISTER, false },
	{ "atomic-unregister-waits", NOTIFIER_CHAIN_ATOMIC, NT_OP_UNREGISTER, true },
};

static void nt_writer_desc(const struct nt_writer_param *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(nt_writer, nt_writer_params, nt_writer_desc);

static void notifier_test_writer_during_call(struct kunit *test)
{
	static const int prio[] = { 10 };
	const struct nt_writer_param *p = test->param_value;
	bool spin = p->kind == NOTIFIER_CHAIN_ATOMIC;
	struct notifier_block *nb;
	struct nt_op *caller, *op;
	struct nt_gate *g;
	struct nt_fix f;

	if (spin && num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs");
	f = nt_fix_new(test, p->kind, prio, ARRAY_SIZE(prio));
	g = nt_gate_new(test, spin);
	KUNIT_ASSERT_EQ(test, nt_reg(test, f.c, &g->nb), 0);
	nb = p->op == NT_OP_REGISTER ? &f.b[0].nb : &g->nb;
	/* Made up front: no thread is created while a CPU spins. */
	op = nt_op_start(test, f.c, p->op, nb, true);
	KUNIT_ASSERT_NOT_NULL(test, op);
	caller = nt_op_start(test, f.c, NT_OP_CALL, NULL, false);
	KUNIT_ASSERT_NOT_NULL(test, caller);
	KUNIT_ASSERT_TRUE_MSG(test, nt_gate_wait_entered(g),
			      "the call did not reach its callback");
	nt_op_go(op);
	if (p->waits) {
		msleep(NT_HOLD_MS);
		KUNIT_EXPECT_FALSE_MSG(test, nt_op_finished(op),
				       "did not wait for the running callback");
	} else {
		KUNIT_EXPECT_TRUE_MSG(test, nt_op_wait(op),
				      "waited for the running callback");
		KUNIT_EXPECT_FALSE(test, nt_op_finished(caller));
	}
	nt_gate_open(g);
	KUNIT_EXPECT_TRUE(test, nt_op_wait(caller));
	KUNIT_EXPECT_EQ(test, caller->ret, NOTIFY_OK);
	KUNIT_EXPECT_TRUE(test, nt_op_wait(op));
	KUNIT_EXPECT_EQ(test, op->ret, 0);
	nt_threads_stop(test);
	if (!op->ret && p->op == NT_OP_REGISTER)
		nt_track_add(test, f.c, nb);
	else if (!op->ret)
		nt_track_del(test, f.c, nb);
	KUNIT_EXPECT_FALSE(test, g->timed_out);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->calls), 1);
	KUNIT_EXPECT_EQ(test, f.b[0].calls, 0);
	nt_unreg_all(test);
}

/* A callback of an outer chain calls an inner chain. */
struct nt_nest_block {
	struct notifier_block nb;
	struct nt_log *log;
	int code;
	struct nt_chain *inner;	/* called from the callback if set */
	int inner_ret;
};

static void nt_nest_record(struct nt_log *log, int code, unsigned long val,
			   void *data)
{
	if (log->n < NT_LOG_MAX) {
		log->id[log->n] = code;
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
	const struct nt_nest_param *p = test->param_value;
	struct nt_chain *outer = nt_chain_new(test, p->outer, false);
	struct nt_chain *inner = nt_chain_new(test, p->inner, true);
	struct nt_log *log = kunit_kzalloc(test, sizeof(*log), GFP_KERNEL);
	struct nt_nest_block *b = kunit_kcalloc(test, 4, sizeof(*b), GFP_KERNEL);
	int i, data;

	KUNIT_ASSERT_NOT_NULL(test, log);
	KUNIT_ASSERT_NOT_NULL(test, b);
	for (i = 0; i < 4; i++) {
		b[i].nb.notifier_call = nt_nest_cb;
		b[i].nb.priority = prio[i];
		b[i].log = log;
		b[i].code = 10 * (i + 1);
		b[i].inner_ret = -1;
		KUNIT_ASSERT_EQ(test, nt_reg(test, i < 2 ? outer : inner,
					     &b[i].nb), 0);
	}
	b[0].inner = inner;

	KUNIT_EXPECT_EQ(test, nt_chain_call(outer, NT_VAL, &data), NOTIFY_OK);
	KUNIT_EXPECT_EQ(test, b[0].inner_ret, NOTIFY_OK);
	KUNIT_EXPECT_EQ(test, log->n, (int)ARRAY_SIZE(codes));
	for (i = 0; i < ARRAY_SIZE(codes) && i < log->n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, log->id[i], codes[i], "step %d", i);
		KUNIT_EXPECT_EQ_MSG(test, log->val[i], vals[i], "step %d", i);
		KUNIT_EXPECT_PTR_EQ(test, log->data[i], (void *)&data);
	}
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, nt_unreg(test, i < 2 ? outer : inner,
					       &b[i].nb), 0);
}

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

/* ---------------------------------------------------------------------- */
/* Probes on the notifier events                                           */
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
 * Every event is counted by type; the events of the watched heads and
 * blocks are also recorded (the rest of the kernel calls its chains too).
 * Lock-free, as probes run in any context, NMI included: a slot is claimed
 * with an atomic increment and published with a release store.
 */
static struct {
	void *heads[NT_MAX_WATCH];
	struct notifier_block *nbs[NT_MAX_WATCH];
	atomic_t n;
	atomic_t dropped;
	atomic_long_t seen[NT_EV_NR];
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

	atomic_long_inc(&nt_rec.seen[t->type]);
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

/* notifier_run has the fields of notifier_return up to @val. */
static void nt_probe_run(void *data, void *cb, void *head,
			 struct notifier_block *nb, int priority,
			 enum notifier_chain_kind kind, unsigned long val)
{
	nt_probe_return(data, cb, head, nb, priority, kind, val, 0, 0);
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

/* notifier_call_begin has the fields of notifier_call_end up to @type. */
static void nt_probe_call_begin(void *data, void *head,
				enum notifier_chain_kind kind,
				unsigned long val, int nr_to_call,
				enum notifier_call_type type)
{
	nt_probe_call_end(data, head, kind, val, nr_to_call, type, 0, 0);
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
	[NT_EV_REGISTER] = { NT_EV_REGISTER, nt_probe_membership },
	[NT_EV_UNREGISTER] = { NT_EV_UNREGISTER, nt_probe_membership },
	[NT_EV_REGISTER_ERROR] = { NT_EV_REGISTER_ERROR, nt_probe_membership },
	[NT_EV_UNREGISTER_ERROR] = {
		NT_EV_UNREGISTER_ERROR, nt_probe_membership
	},
	[NT_EV_RUN] = { NT_EV_RUN, nt_probe_run },
	[NT_EV_RETURN] = { NT_EV_RETURN, nt_probe_return },
	[NT_EV_STOP] = { NT_EV_STOP, nt_probe_stop },
	[NT_EV_CALL_BEGIN] = { NT_EV_CALL_BEGIN, nt_probe_call_begin },
	[NT_EV_CALL_END] = { NT_EV_CALL_END, nt_probe_call_end },
	[NT_EV_LOCK_WAIT] = { NT_EV_LOCK_WAIT, nt_probe_lock_wait },
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
		if (!strcmp(tp->name, nt_ev_names[i]))
			nt_tps[i].tp = tp;
}

static void nt_tp_detach(struct nt_test_ctx *ctx)
{
	unsigned int i;

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

	if (!IS_ENABLED(CONFIG_TRACEPOINTS))
		kunit_skip(test, "notifier tracepoints not present (CONFIG_TRACEPOINTS=n)");
	for (i = 0; i < NT_EV_NR; i++)
		nt_tps[i].tp = NULL;
	for_each_kernel_tracepoint(nt_tp_find, NULL);
	for (i = 0; i < NT_EV_NR; i++)
		found += !!nt_tps[i].tp;
	if (!found)
		kunit_skip(test, "notifier tracepoints not present (stock kernel)");
	for (i = 0; i < NT_EV_NR; i++)
		if (!nt_tps[i].tp)
			KUNIT_FAIL(test, "tracepoint %s missing", nt_ev_names[i]);
	KUNIT_ASSERT_EQ(test, found, (unsigned int)NT_EV_NR);

	nt_rec_unwatch();
	nt_rec_clear();
	for (i = 0; i < NT_EV_NR; i++)
		atomic_long_set(&nt_rec.seen[i], 0);
	ctx->tp_attached = true;
	for (i = 0; i < NT_EV_NR; i++) {
		KUNIT_ASSERT_EQ_MSG(test,
				    tracepoint_probe_register(nt_tps[i].tp,
							      nt_tps[i].probe,
							      &nt_tps[i]),
				    0, "cannot attach to %s", nt_ev_names[i]);
		nt_tps[i].attached = true;
	}
}

/*
 * Exit check of a traced pass: the walk that ran was the traced one, i.e.
 * each call the test made emitted a call_begin, each registration a
 * register event (other chains of the kernel may add more).
 */
static void nt_traced_check(struct kunit *test)
{
	long calls = atomic_long_read(&nt_made_calls);
	long regs = atomic_long_read(&nt_made_regs);

	KUNIT_EXPECT_GE_MSG(test, atomic_long_read(&nt_rec.seen[NT_EV_CALL_BEGIN]),
			    calls, "call_begin events for %ld calls", calls);
	KUNIT_EXPECT_GE_MSG(test, atomic_long_read(&nt_rec.seen[NT_EV_REGISTER]),
			    regs, "register events for %ld registrations", regs);
	kunit_info(test, "traced: %ld calls, %ld registrations, %ld run events",
		   calls, regs, atomic_long_read(&nt_rec.seen[NT_EV_RUN]));
}

/* ---------------------------------------------------------------------- */
/* Suite notifier_tracepoints                                              */
/* ---------------------------------------------------------------------- */

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
	KUNIT_EXPECT_EQ(test, e->kind, (int)kind);
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

	KUNIT_EXPECT_EQ_MSG(test, n, 1, "%s events", nt_ev_names[type]);
	head = nt_expect_member_ev(test, n, 0, type, head, kind, nb, err);
	nt_rec_clear();
	return head;
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

/*
 * The recorded events of @mask on the fixture's chain must be @script:
 * "B" call_begin, "E" call_end, "rN", "tN", "sN" run, return and stop of
 * block N; "/" starts the rollback pass of a robust call.  Each return
 * carries what the block returned, each stop that and the number of
 * callbacks run in its pass, each call_end the last value returned in its
 * pass (NOTIFY_DONE if none) and that number.  Returns the event count.
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
		case 's':
			type = NT_EV_STOP;
			break;
		default:
			continue;
		}
		b = &f->b[*++s - '0'];
		e = nt_expect_cb_ev(test, n, i++, type, f->c->head, f->c->kind,
				    &b->nb, val);
		if (e && type != NT_EV_RUN)
			KUNIT_EXPECT_EQ(test, e->ret, nt_block_ret(b, val));
		if (e && type == NT_EV_STOP)
			KUNIT_EXPECT_EQ(test, e->nr_calls, runs);
	}
	KUNIT_EXPECT_EQ_MSG(test, n, i, "events of \"%s\"", script);
	return n;
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

/* A fixture with probes attached and its chain watched. */
static struct nt_fix nt_tp_fix_new(struct kunit *test,
				   enum notifier_chain_kind kind,
				   const int *prio, unsigned int n)
{
	struct nt_fix f;

	nt_tp_attach(test);
	f = nt_fix_new(test, kind, prio, n);
	nt_rec_watch(test, f.c->head, NULL);
	return f;
}

/* register and unregister events, for every chain kind. */
static void notifier_test_tp_membership(struct kunit *test)
{
	static const int prio[] = { 7 };
	struct nt_fix f = nt_tp_fix_new(test, nt_kind(test), prio, ARRAY_SIZE(prio));

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
 * the same.  The real die event (int3) is one pass that our block stops;
 * blocks of priority INT_MAX registered before ours run first.
 */
static void notifier_test_tp_die_chain(struct kunit *test)
{
	const enum notifier_chain_kind kind = NOTIFIER_CHAIN_ATOMIC;
	const unsigned long val = NT_DIE_VAL;
	struct nt_die_block *d;
	const struct nt_event *e;
	int n, i, nr, ours = -1;
	void *head;

	nt_tp_attach(test);
	d = nt_die_block_new(test, true);
	head = nt_expect_membership(test, NULL, kind, &d->nb, NT_EV_REGISTER,
				    0);
	KUNIT_ASSERT_NOT_NULL(test, head);
	nt_rec_watch(test, head, NULL);

	nt_die_expect_trap(test, d);
	n = nt_collect(test, head, NULL, NT_EV_CALLS);
	for (i = 0; i < n; i++)
		if (nt_evs[i]->type == NT_EV_RUN && nt_evs[i]->nb == &d->nb)
			ours = i;
	KUNIT_ASSERT_GE(test, ours, 1);
	nr = (ours + 1) / 2;
	nt_expect_pass_ev(test, n, 0, NT_EV_CALL_BEGIN, head, kind, val, -1,
			  NOTIFIER_CALL_PLAIN);
	nt_expect_cb_ev(test, n, ours, NT_EV_RUN, head, kind, &d->nb, val);
	e = nt_expect_cb_ev(test, n, ours + 1, NT_EV_RETURN, head, kind,
			    &d->nb, val);
	if (e)
		KUNIT_EXPECT_EQ(test, e->ret, NOTIFY_STOP);
	e = nt_expect_cb_ev(test, n, ours + 2, NT_EV_STOP, head, kind, &d->nb,
			    val);
	if (e)
		KUNIT_EXPECT_EQ(test, e->nr_calls, nr);
	e = nt_expect_pass_ev(test, n, ours + 3, NT_EV_CALL_END, head, kind,
			      val, -1, NOTIFIER_CALL_PLAIN);
	if (e) {
		KUNIT_EXPECT_EQ(test, e->ret, NOTIFY_STOP);
		KUNIT_EXPECT_EQ(test, e->nr_calls, nr);
	}
	KUNIT_EXPECT_EQ(test, n, ours + 4);

	nt_rec_clear();
	nt_die_unregister(test, d);
	n = nt_collect(test, NULL, &d->nb, NT_EV_MEMBERSHIP);
	KUNIT_EXPECT_EQ(test, n, 2);
	nt_expect_member_ev(test, n, 0, NT_EV_UNREGISTER, head, kind, &d->nb,
			    0);
	nt_expect_member_ev(test, n, 1, NT_EV_UNREGISTER_ERROR, head, kind,
			    &d->nb, -ENOENT);
}

/* _error events: -EEXIST, -EBUSY and -ENOENT. */
static void notifier_test_tp_errors(struct kunit *test)
{
	static const int prio[] = { 5, 5, 5 };
	struct nt_fix fa = nt_tp_fix_new(test, NOTIFIER_CHAIN_ATOMIC, prio, ARRAY_SIZE(prio));
	struct nt_fix fb = nt_fix_new(test, NOTIFIER_CHAIN_BLOCKING, prio, ARRAY_SIZE(prio));
	unsigned int k;

	nt_rec_watch(test, fb.c->head, NULL);
	nt_reg_ids(test, &fa, "0");
	nt_reg_ids(test, &fb, "0");
	nt_rec_clear();

	/* The only double registration of this suite: one WARN, announced. */
	pr_info("notifier_kunit: expect WARN: notifier callback %ps already registered\n",
		fa.b[0].nb.notifier_call);
	KUNIT_EXPECT_EQ(test, nt_chain_register(fa.c, &fa.b[0].nb), -EEXIST);
	nt_expect_membership(test, fa.c->head, fa.c->kind, &fa.b[0].nb,
			     NT_EV_REGISTER_ERROR, -EEXIST);
	KUNIT_EXPECT_EQ(test, nt_reg_unique(test, fa.c, &fa.b[1].nb), -EBUSY);
	nt_expect_membership(test, fa.c->head, fa.c->kind, &fa.b[1].nb,
			     NT_EV_REGISTER_ERROR, -EBUSY);
	KUNIT_EXPECT_EQ(test, nt_reg_unique(test, fb.c, &fb.b[1].nb), -EBUSY);
	nt_expect_membership(test, fb.c->head, fb.c->kind, &fb.b[1].nb,
			     NT_EV_REGISTER_ERROR, -EBUSY);
	nt_unreg_ids(test, &fa, "0");
	nt_unreg_ids(test, &fb, "0");

	/* Unregistering a block that is not on the chain, every kind. */
	for (k = 0; k < ARRAY_SIZE(nt_all_kinds); k++) {
		struct nt_chain *c = nt_chain_new(test, nt_all_kinds[k].kind,
						  false);

		nt_rec_unwatch();
		nt_rec_watch(test, c->head, NULL);
		nt_rec_clear();
		KUNIT_EXPECT_EQ(test, nt_chain_unregister(c, &fa.b[2].nb),
				-ENOENT);
		nt_expect_membership(test, c->head, c->kind, &fa.b[2].nb,
				     NT_EV_UNREGISTER_ERROR, -ENOENT);
	}
}

/* run and return of every callback, framed by call_begin and call_end. */
static void notifier_test_tp_run_return(struct kunit *test)
{
	static const int prio[] = { 30, 20, 10 };
	struct nt_fix f = nt_tp_fix_new(test, nt_kind(test), prio, ARRAY_SIZE(prio));
	const struct nt_event *e;
	int n;

	f.b[1].ret = NOTIFY_DONE;
	f.b[1].busy_us = NT_BUSY_US;
	nt_reg_ids(test, &f, "012");
	nt_rec_clear();
	nt_call_expect(test, &f, NOTIFY_OK, "012");
	n = nt_expect_events(test, &f, NT_EV_CALLS, false,
			     "B r0 t0 r1 t1 r2 t2 E");
	/* notifier_return measures the time spent in the callback. */
	if (n > 4 && nt_evs[4]->type == NT_EV_RETURN)
		KUNIT_EXPECT_GE(test, nt_evs[4]->ns,
				(u64)NT_BUSY_US * NSEC_PER_USEC);

	/* Only a blocking chain takes a lock to call; uncontended here. */
	if (f.c->kind == NOTIFIER_CHAIN_BLOCKING) {
		struct blocking_notifier_head *h = f.c->head;

		e = nt_expect_lock_wait(test, h, &h->rwsem, f.c->kind,
					NOTIFIER_LOCK_READ);
		if (e)
			KUNIT_EXPECT_EQ(test, e->ns, 0ULL);
	} else {
		KUNIT_EXPECT_EQ(test, nt_collect(test, f.c->head, NULL,
						 BIT(NT_EV_LOCK_WAIT)), 0);
	}
	nt_unreg_ids(test, &f, "012");
}

/* The stop event names the callback that stopped the call. */
static void notifier_test_tp_stop(struct kunit *test)
{
	static const int prio[] = { 3, 2, 1 };
	struct nt_fix f = nt_tp_fix_new(test, nt_kind(test), prio, ARRAY_SIZE(prio));

	nt_reg_ids(test, &f, "012");
	f.b[1].ret = NOTIFY_STOP;
	nt_rec_clear();
	nt_call_expect(test, &f, NOTIFY_STOP, "01");
	nt_expect_events(test, &f, NT_EV_CALLS, false, "B r0 t0 r1 t1 s1 E");

	f.b[1].ret = NOTIFY_OK;
	f.b[0].ret = notifier_from_errno(-EIO);
	nt_rec_clear();
	nt_call_expect(test, &f, f.b[0].ret, "0");
	nt_expect_events(test, &f, NT_EV_CALLS, false, "B r0 t0 s0 E");
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
	struct nt_fix f = nt_tp_fix_new(test, nt_kind(test), prio, ARRAY_SIZE(prio));
	int i, n, cbs = 0, passes[2][2] = { };

	nt_reg_ids(test, &f, "0123");
	f.b[2].fail_val = NT_VAL_UP;
	f.b[2].fail_ret = fail;
	nt_rec_clear();
	nt_robust_expect(test, &f, fail, "012/01");
	nt_expect_events(test, &f, NT_EV_CALLBACKS, true,
			 "r0 t0 r1 t1 r2 t2 s2 / r0 t0 r1 t1");

	/* Each pass event, by the number of callback events before it. */
	n = nt_collect(test, f.c->head, NULL, NT_EV_CALLS);
	KUNIT_EXPECT_EQ(test, n, 15);
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
		KUNIT_EXPECT_EQ(test, e->kind, (int)f.c->kind);
		KUNIT_EXPECT_EQ(test, e->val, back ? NT_VAL_DOWN : NT_VAL_UP);
		KUNIT_EXPECT_EQ(test, e->nr_to_call, back ? 2 : -1);
		if (!end)	/* before the first up, between stop and down */
			KUNIT_EXPECT_EQ(test, cbs, back ? 7 : 0);
		else if (back)	/* after the last down */
			KUNIT_EXPECT_EQ(test, cbs, 11);
		else		/* after the stop */
			KUNIT_EXPECT_GE(test, cbs, 7);
		if (end) {
			KUNIT_EXPECT_EQ(test, e->ret, back ? NOTIFY_OK : fail);
			KUNIT_EXPECT_EQ(test, e->nr_calls, back ? 2 : 3);
		}
	}
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ_MSG(test, passes[i / 2][i % 2], 1,
				    "pass events of kind %d", i);

	/* A blocking chain holds its rwsem once, across both passes. */
	if (f.c->kind == NOTIFIER_CHAIN_BLOCKING) {
		struct blocking_notifier_head *h = f.c->head;

		nt_expect_lock_wait(test, h, &h->rwsem, f.c->kind,
				    NOTIFIER_LOCK_READ);
	}

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
	struct nt_fix f = nt_tp_fix_new(test, nt_kind(test), none, ARRAY_SIZE(none));

	nt_rec_clear();
	nt_call_expect(test, &f, NOTIFY_DONE, "");
	nt_expect_events(test, &f, NT_EV_CALLS, false, "B E");
	if (!nt_kind_has_robust(f.c->kind))
		return;
	nt_rec_clear();
	nt_robust_expect(test, &f, NOTIFY_DONE, "");
	nt_expect_events(test, &f, NT_EV_CALLS, true, "B E");
}

/* The one lock_wait event since the last check: uncontended, 0 ns. */
static void nt_expect_no_wait(struct kunit *test, struct nt_chain *c,
			      void *lock, enum notifier_lock_op op)
{
	const struct nt_event *e;

	e = nt_expect_lock_wait(test, c->head, lock, c->kind, op);
	if (e)
		KUNIT_EXPECT_EQ(test, e->ns, 0ULL);
	nt_rec_clear();
}

/*
 * lock_wait: write for (un)registration and read for calls on a blocking
 * chain, 0 ns when uncontended and at least the time the test held the
 * rwsem when contended; write for (un)registration on an SRCU chain.
 */
static void notifier_test_tp_lock_wait(struct kunit *test)
{
	static const int prio[] = { 0 };
	struct nt_fix f = nt_tp_fix_new(test, NOTIFIER_CHAIN_BLOCKING, prio, ARRAY_SIZE(prio));
	struct blocking_notifier_head *h = f.c->head;
	struct srcu_notifier_head *hs;
	const struct nt_event *e;
	unsigned long until;
	bool contended;
	struct nt_op *op;
	struct nt_chain *cs;
	u64 t0, t1;

	nt_rec_clear();
	nt_reg_ids(test, &f, "0");
	nt_expect_no_wait(test, f.c, &h->rwsem, NOTIFIER_LOCK_WRITE);
	nt_call_expect(test, &f, NOTIFY_OK, "0");
	nt_expect_no_wait(test, f.c, &h->rwsem, NOTIFIER_LOCK_READ);

	/* A call that has to wait for a writer (the test itself). */
	down_write(&h->rwsem);
	op = nt_op_start(test, f.c, NT_OP_CALL, NULL, false);
	until = jiffies + msecs_to_jiffies(NT_WAIT_MS);
	do {
		usleep_range(200, 500);
		contended = rwsem_is_contended(&h->rwsem);
	} while (op && !contended && !time_after(jiffies, until));
	t0 = ktime_get_mono_fast_ns();
	msleep(NT_HOLD_MS);
	t1 = ktime_get_mono_fast_ns();
	up_write(&h->rwsem);
	KUNIT_ASSERT_NOT_NULL(test, op);
	KUNIT_EXPECT_TRUE(test, contended);
	KUNIT_EXPECT_TRUE(test, nt_op_wait(op));
	KUNIT_EXPECT_EQ(test, op->ret, NOTIFY_OK);
	nt_threads_stop(test);
	e = nt_expect_lock_wait(test, h, &h->rwsem, f.c->kind,
				NOTIFIER_LOCK_READ);
	if (e && contended)
		KUNIT_EXPECT_GE(test, e->ns, (t1 - t0) / 2);
	nt_rec_clear();
	nt_unreg_ids(test, &f, "0");
	nt_expect_no_wait(test, f.c, &h->rwsem, NOTIFIER_LOCK_WRITE);

	/* SRCU: the mutex, for (un)registration only. */
	cs = nt_chain_new(test, NOTIFIER_CHAIN_SRCU, false);
	hs = cs->head;
	nt_rec_watch(test, hs, NULL);
	KUNIT_ASSERT_EQ(test, nt_reg(test, cs, &f.b[0].nb), 0);
	nt_expect_no_wait(test, cs, &hs->mutex, NOTIFIER_LOCK_WRITE);
	KUNIT_EXPECT_EQ(test, nt_chain_call(cs, NT_VAL, NULL), NOTIFY_OK);
	KUNIT_EXPECT_EQ(test, nt_collect(test, hs, NULL, BIT(NT_EV_LOCK_WAIT)),
			0);
	KUNIT_EXPECT_EQ(test, nt_unreg(test, cs, &f.b[0].nb), 0);
	nt_expect_no_wait(test, cs, &hs->mutex, NOTIFIER_LOCK_WRITE);
}

/* ---------------------------------------------------------------------- */
/* Suites                                                                  */
/* ---------------------------------------------------------------------- */

/*
 * notifier_api and notifier_concurrency run twice, the second time with
 * every notifier event probed (nt_traced_init).  KUnit keeps each case's
 * status and log in its struct kunit_case, so each suite has its own
 * array; nt_check_passes() keeps the two arrays of a pair alike.
 */
static struct kunit_case notifier_api_cases[] = {
	KUNIT_CASE(notifier_test_return_codes),
	KUNIT_CASE_PARAM(notifier_test_empty_chain, nt_all_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_priority_order, nt_all_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_call_returns_last,
			 nt_all_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_stop_mask, nt_all_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_robust, nt_robust_kinds_gen_params),
	KUNIT_CASE(notifier_test_double_register),
	KUNIT_CASE_PARAM(notifier_test_unique_prio, nt_unique_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_unregister_enoent,
			 nt_all_kinds_gen_params),
	KUNIT_CASE(notifier_test_atomic_is_empty),
	KUNIT_CASE(notifier_test_srcu_dynamic_head),
	KUNIT_CASE(notifier_test_srcu_static_head),
	KUNIT_CASE(notifier_test_die_chain),
	{}
};

static struct kunit_case notifier_api_traced_cases[] = {
	KUNIT_CASE(notifier_test_return_codes),
	KUNIT_CASE_PARAM(notifier_test_empty_chain, nt_all_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_priority_order, nt_all_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_call_returns_last,
			 nt_all_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_stop_mask, nt_all_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_robust, nt_robust_kinds_gen_params),
	KUNIT_CASE(notifier_test_double_register),
	KUNIT_CASE_PARAM(notifier_test_unique_prio, nt_unique_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_unregister_enoent,
			 nt_all_kinds_gen_params),
	KUNIT_CASE(notifier_test_atomic_is_empty),
	KUNIT_CASE(notifier_test_srcu_dynamic_head),
	KUNIT_CASE(notifier_test_srcu_static_head),
	KUNIT_CASE(notifier_test_die_chain),
	{}
};

static struct kunit_case notifier_concurrency_cases[] = {
	KUNIT_CASE_PARAM(notifier_test_stress, nt_all_kinds_gen_params),
	KUNIT_CASE(notifier_test_atomic_from_hardirq),
	KUNIT_CASE(notifier_test_atomic_from_softirq),
	KUNIT_CASE_PARAM(notifier_test_sleeping_callbacks,
			 nt_sleeping_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_writer_during_call,
			 nt_writer_gen_params),
	KUNIT_CASE_PARAM(notifier_test_nested_chains, nt_nest_gen_params),
	{}
};

static struct kunit_case notifier_concurrency_traced_cases[] = {
	KUNIT_CASE_PARAM(notifier_test_stress, nt_all_kinds_gen_params),
	KUNIT_CASE(notifier_test_atomic_from_hardirq),
	KUNIT_CASE(notifier_test_atomic_from_softirq),
	KUNIT_CASE_PARAM(notifier_test_sleeping_callbacks,
			 nt_sleeping_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_writer_during_call,
			 nt_writer_gen_params),
	KUNIT_CASE_PARAM(notifier_test_nested_chains, nt_nest_gen_params),
	{}
};

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

/* A traced suite must run exactly the cases of its plain suite. */
static int nt_check_pass(struct kunit_suite *suite,
			 const struct kunit_case *plain)
{
	const struct kunit_case *c = suite->test_cases;

	for (; c->run_case || plain->run_case; c++, plain++)
		if (c->run_case != plain->run_case ||
		    c->generate_params != plain->generate_params) {
			pr_err("notifier_kunit: %s differs from its plain suite\n",
			       suite->name);
			return -EINVAL;
		}
	return 0;
}

static int nt_api_traced_suite_init(struct kunit_suite *suite)
{
	return nt_check_pass(suite, notifier_api_cases);
}

static int nt_concurrency_traced_suite_init(struct kunit_suite *suite)
{
	return nt_check_pass(suite, notifier_concurrency_cases) ?:
	       nt_concurrency_suite_init(suite);
}

static struct kunit_suite notifier_api_suite = {
	.name = "notifier_api",
	.init = nt_test_init,
	.exit = nt_test_exit,
	.suite_exit = nt_api_suite_exit,
	.test_cases = notifier_api_cases,
};

static struct kunit_suite notifier_concurrency_suite = {
	.name = "notifier_concurrency",
	.init = nt_test_init,
	.exit = nt_test_exit,
	.suite_init = nt_concurrency_suite_init,
	.suite_exit = nt_concurrency_suite_exit,
	.test_cases = notifier_concurrency_cases,
};

static struct kunit_suite notifier_api_traced_suite = {
	.name = "notifier_api_traced",
	.init = nt_traced_init,
	.exit = nt_test_exit,
	.suite_init = nt_api_traced_suite_init,
	.suite_exit = nt_api_suite_exit,
	.test_cases = notifier_api_traced_cases,
};

static struct kunit_suite notifier_concurrency_traced_suite = {
	.name = "notifier_concurrency_traced",
	.init = nt_traced_init,
	.exit = nt_test_exit,
	.suite_init = nt_concurrency_traced_suite_init,
	.suite_exit = nt_concurrency_suite_exit,
	.test_cases = notifier_concurrency_traced_cases,
};

static struct kunit_suite notifier_tracepoints_suite = {
	.name = "notifier_tracepoints",
	.init = nt_test_init,
	.exit = nt_test_exit,
	.test_cases = notifier_tracepoints_cases,
};

kunit_test_suites(&notifier_api_suite, &notifier_concurrency_suite,
		  &notifier_api_traced_suite,
		  &notifier_concurrency_traced_suite,
		  &notifier_tracepoints_suite);

MODULE_DESCRIPTION("KUnit tests for notifier chains and their tracepoints");
MODULE_LICENSE("GPL");
