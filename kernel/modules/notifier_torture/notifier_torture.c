// SPDX-License-Identifier: GPL-2.0
/*
 * notifier_torture - torture tests of notifier chains (linux/notifier.h).
 *
 * What the KUnit suite (kernel/notifier_kunit.c) leaves out: threads that
 * call every chain kind while others register and unregister blocks,
 * callers in hardirq and softirq context, writers against a running
 * callback, a real int3 through the global die chain, a handler on the
 * global power-off chain, and a double registration, which WARNs by
 * design.  Only the notifier API is used: the module builds and runs on
 * any kernel.
 *
 * As in rcutorture and locktorture, the tests run from module init, once
 * the module parameters are set.  Each prints one line
 *
 *	notifier_torture: result NAME PASS|FAIL|SKIP[: DETAIL]
 *
 * and the load fails with -EINVAL if any of them failed.  Either way
 * every block, thread and handler a test set up is gone when init
 * returns.  No verdict depends on timing: times only bound how long a
 * test may wait for something that must happen.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
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
#include <linux/ptrace.h>
#include <linux/reboot.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/signal.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include <linux/string.h>
#include <linux/timer.h>

#ifdef CONFIG_X86_64
#include <asm/text-patching.h>
#include <asm/trapnr.h>
#endif

static unsigned int stress_iters = 1000;
module_param(stress_iters, uint, 0444);
MODULE_PARM_DESC(stress_iters,
		 "calls per caller thread in each stress test (default 1000)");

static unsigned int stress_max_ms = 60000;
module_param(stress_max_ms, uint, 0444);
MODULE_PARM_DESC(stress_max_ms,
		 "time budget of one stress test in ms, at least 1000; running out is reported, not failed (default 60000)");

static char *tests = "";
module_param(tests, charp, 0444);
MODULE_PARM_DESC(tests,
		 "comma-separated tests to run, NAME or PREFIX* (default: all)");

static bool warn_cases;
module_param(warn_cases, bool, 0444);
MODULE_PARM_DESC(warn_cases,
		 "also run double_register, whose WARN is announced by an 'expect WARN:' line; never with panic_on_warn (default 0: skipped)");

/* SRCU notifier chains: 6.1 has them only with CONFIG_SRCU. */
#if defined(CONFIG_TINY_SRCU) || defined(CONFIG_TREE_SRCU)
#define NT_HAVE_SRCU 1
#else
#define NT_HAVE_SRCU 0
#endif

#define NT_VAL			0x4e54UL
#define NT_WAIT_MS		5000	/* bound of any wait for a thread */
#define NT_GATE_MAX_MS		10000	/* a gate nobody opens gives up */
#define NT_STRESS_CALLERS	2
#define NT_STRESS_YIELD		64	/* callers sleep once per this many calls */
#define NT_CHURN_BLOCKS		8
#define NT_IRQ_ROUNDS		16
#define NT_TIMER_ROUNDS		4
#define NT_DOUBLE_PRIO		2317	/* names double_register's block */

/* ---------------------------------------------------------------------- */
/* Results                                                                 */
/* ---------------------------------------------------------------------- */

struct nt_res {
	const char *name;
	int failed;
	const char *skip;
	char detail[160];
};

/* Fail @r unless @ok; the first failure becomes the result's detail. */
static __printf(3, 4) bool nt_check(struct nt_res *r, bool ok,
				    const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	if (ok)
		return true;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_err("%s: check failed: %pV\n", r->name, &vaf);
	if (!r->failed++)
		snprintf(r->detail, sizeof(r->detail), "%pV", &vaf);
	va_end(args);
	return false;
}

/* ---------------------------------------------------------------------- */
/* Chains of every kind                                                    */
/* ---------------------------------------------------------------------- */

enum nt_kind { NT_RAW, NT_ATOMIC, NT_BLOCKING, NT_SRCU };

enum nt_op_type { NT_CALL, NT_REGISTER, NT_UNREGISTER };

struct nt_chain {
	enum nt_kind kind;
	struct mutex raw_lock;	/* held around every raw chain operation */
	union {
		struct raw_notifier_head raw;
		struct atomic_notifier_head atomic;
		struct blocking_notifier_head blocking;
#if NT_HAVE_SRCU
		struct srcu_notifier_head srcu;
#endif
	};
};

static void nt_chain_init(struct nt_chain *c, enum nt_kind kind)
{
	c->kind = kind;
	mutex_init(&c->raw_lock);
	if (kind == NT_RAW)
		RAW_INIT_NOTIFIER_HEAD(&c->raw);
	else if (kind == NT_ATOMIC)
		ATOMIC_INIT_NOTIFIER_HEAD(&c->atomic);
	else if (kind == NT_BLOCKING)
		BLOCKING_INIT_NOTIFIER_HEAD(&c->blocking);
#if NT_HAVE_SRCU
	else
		srcu_init_notifier_head(&c->srcu);
#endif
}

static void nt_chain_destroy(struct nt_chain *c)
{
#if NT_HAVE_SRCU
	if (c->kind == NT_SRCU)
		srcu_cleanup_notifier_head(&c->srcu);
#endif
}

/* The first block of @c's list, looked at without its lock. */
static struct notifier_block *nt_chain_first(struct nt_chain *c)
{
	switch (c->kind) {
	case NT_RAW:
		return rcu_access_pointer(c->raw.head);
	case NT_ATOMIC:
		return rcu_access_pointer(c->atomic.head);
	case NT_BLOCKING:
		return rcu_access_pointer(c->blocking.head);
	case NT_SRCU:
		break;
	}
#if NT_HAVE_SRCU
	return rcu_access_pointer(c->srcu.head);
#else
	return NULL;
#endif
}

/* Is @nb on @c's list?  Only for chains of blocks that stay allocated. */
static bool nt_chain_has(struct nt_chain *c, struct notifier_block *nb)
{
	struct notifier_block *p;

	for (p = nt_chain_first(c); p; p = rcu_access_pointer(p->next))
		if (p == nb)
			return true;
	return false;
}

static int nt_atomic_op(struct nt_chain *c, enum nt_op_type op,
			struct notifier_block *nb, void *v)
{
	if (op == NT_REGISTER)
		return atomic_notifier_chain_register(&c->atomic, nb);
	if (op == NT_UNREGISTER)
		return atomic_notifier_chain_unregister(&c->atomic, nb);
	return atomic_notifier_call_chain(&c->atomic, NT_VAL, v);
}

static int nt_blocking_op(struct nt_chain *c, enum nt_op_type op,
			  struct notifier_block *nb, void *v)
{
	if (op == NT_REGISTER)
		return blocking_notifier_chain_register(&c->blocking, nb);
	if (op == NT_UNREGISTER)
		return blocking_notifier_chain_unregister(&c->blocking, nb);
	return blocking_notifier_call_chain(&c->blocking, NT_VAL, v);
}

static int nt_srcu_op(struct nt_chain *c, enum nt_op_type op,
		      struct notifier_block *nb, void *v)
{
#if NT_HAVE_SRCU
	if (op == NT_REGISTER)
		return srcu_notifier_chain_register(&c->srcu, nb);
	if (op == NT_UNREGISTER)
		return srcu_notifier_chain_unregister(&c->srcu, nb);
	return srcu_notifier_call_chain(&c->srcu, NT_VAL, v);
#else
	return -EOPNOTSUPP;
#endif
}

/* Raw chains get the lock their users must provide. */
static int nt_raw_op(struct nt_chain *c, enum nt_op_type op,
		     struct notifier_block *nb, void *v)
{
	int ret;

	mutex_lock(&c->raw_lock);
	if (op == NT_REGISTER)
		ret = raw_notifier_chain_register(&c->raw, nb);
	else if (op == NT_UNREGISTER)
		ret = raw_notifier_chain_unregister(&c->raw, nb);
	else
		ret = raw_notifier_call_chain(&c->raw, NT_VAL, v);
	mutex_unlock(&c->raw_lock);
	return ret;
}

/* Register or unregister @nb, or call the chain with NT_VAL and @v. */
static int nt_op(struct nt_chain *c, enum nt_op_type op,
		 struct notifier_block *nb, void *v)
{
	static int (* const ops[])(struct nt_chain *c, enum nt_op_type op,
				   struct notifier_block *nb, void *v) = {
		nt_raw_op, nt_atomic_op, nt_blocking_op, nt_srcu_op,
	};

	return ops[c->kind](c, op, nb, v);
}

/* A block that counts its calls. */
struct nt_counted {
	struct notifier_block nb;
	int calls;
};

static int nt_count_cb(struct notifier_block *nb, unsigned long val, void *v)
{
	container_of(nb, struct nt_counted, nb)->calls++;
	return NOTIFY_OK;
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

/* ---------------------------------------------------------------------- */
/* stress_<kind>: two callers and a churner on one chain                   */
/* ---------------------------------------------------------------------- */

/*
 * Two threads call the chain while a third registers and unregisters
 * blocks around a block that stays registered throughout.  Whatever the
 * interleaving, every call runs the stable block exactly once and sees
 * the priorities in order, and no block runs after its unregistration
 * returned.  The churner keeps half of its blocks registered, a sliding
 * window, so that each block stays unregistered (and checked) a while.
 */
struct nt_stress;

struct nt_sblock {
	struct notifier_block nb;
	struct nt_stress *s;
	bool stable;
	bool dead;	/* set after unregister returned, cleared before register */
	bool on_chain;
};

struct nt_stress {
	struct nt_chain c;
	struct nt_sblock stable;
	struct nt_sblock churn[NT_CHURN_BLOCKS];
	struct task_struct *threads[NT_STRESS_CALLERS + 1];
	unsigned long iters, churn_min, deadline;
	atomic_t callers_left, threads_left, out_of_time;
	struct completion done;
	atomic_long_t calls, regs, unregs, stable_calls, churn_ops;
	atomic_t bad_calls, order_errors, after_unregister, op_errors;
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

	if (val != NT_VAL || !sc) {
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

/* Only after a thread's first operation: the budget decides no verdict. */
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
		if (i && nt_stress_out_of_time(s))
			break;
		nt_op(&s->c, NT_CALL, NULL, &sc);
		atomic_long_inc(&s->calls);
		if (sc.stable_seen != 1)
			atomic_inc(&s->bad_calls);
		/* A quiescent state now and then: grace periods end sooner. */
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

static void nt_churn(struct nt_stress *s, struct nt_sblock *b, bool add)
{
	if (add)
		WRITE_ONCE(b->dead, false);
	atomic_long_inc(add ? &s->regs : &s->unregs);
	if (nt_op(&s->c, add ? NT_REGISTER : NT_UNREGISTER, &b->nb, NULL))
		atomic_inc(&s->op_errors);
	b->on_chain = add;
	/* Once unregistered, no call may run this block any more. */
	if (!add)
		WRITE_ONCE(b->dead, true);
}

static int nt_stress_churner(void *arg)
{
	const unsigned int half = NT_CHURN_BLOCKS / 2;
	struct nt_stress *s = arg;
	unsigned long j;
	unsigned int i;

	for (i = 0; i < half; i++)
		nt_churn(s, &s->churn[i], true);
	for (j = 0; !kthread_should_stop(); j++) {
		if (j >= s->churn_min && !atomic_read(&s->callers_left))
			break;
		if (j && nt_stress_out_of_time(s))
			break;
		nt_churn(s, &s->churn[j % NT_CHURN_BLOCKS], false);
		nt_churn(s, &s->churn[(j + half) % NT_CHURN_BLOCKS], true);
		atomic_long_inc(&s->churn_ops);
		cond_resched();
	}
	for (i = 0; i < NT_CHURN_BLOCKS; i++)
		if (s->churn[i].on_chain)
			nt_churn(s, &s->churn[i], false);
	nt_stress_thread_done(s);
	nt_wait_for_stop();
	return 0;
}

static void nt_stress_setup(struct nt_stress *s, enum nt_kind kind)
{
	unsigned int i;

	nt_chain_init(&s->c, kind);
	s->iters = max(stress_iters, 1U);
	s->churn_min = max(stress_iters / 128, 8U);
	s->deadline = jiffies + msecs_to_jiffies(max(stress_max_ms, 1000U));
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

static void nt_test_stress(struct nt_res *r, long arg)
{
	enum nt_kind kind = arg;
	unsigned long calls, before, regs, unregs;
	ktime_t start = ktime_get();
	struct nt_stress *s;
	unsigned int i;

	if (kind == NT_SRCU && !NT_HAVE_SRCU) {
		r->skip = "no SRCU notifier chains in this kernel";
		return;
	}
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!nt_check(r, s, "out of memory"))
		return;
	nt_stress_setup(s, kind);
	atomic_long_inc(&s->regs);
	if (!nt_check(r, !nt_op(&s->c, NT_REGISTER, &s->stable.nb, NULL),
		      "registering the stable block failed"))
		goto out;
	for (i = 0; i <= NT_STRESS_CALLERS; i++) {
		s->threads[i] = kthread_run(i < NT_STRESS_CALLERS ?
					    nt_stress_caller : nt_stress_churner,
					    s, "nt_stress/%u", i);
		if (!nt_check(r, !IS_ERR(s->threads[i]), "cannot start a thread")) {
			s->threads[i] = NULL;
			break;
		}
	}
	/*
	 * No bound: the threads stop by themselves once their operations or
	 * their time budget are used up, and a hang is the hung-task
	 * detector's to report, not a verdict that depends on speed.
	 */
	if (i > NT_STRESS_CALLERS)
		wait_for_completion(&s->done);
	for (i = 0; i <= NT_STRESS_CALLERS; i++)
		if (s->threads[i])
			kthread_stop(s->threads[i]);
	calls = atomic_long_read(&s->calls);
	nt_check(r, calls > 0 && atomic_long_read(&s->churn_ops) > 0,
		 "no calls (%lu) or no churn", calls);
	nt_check(r, atomic_long_read(&s->stable_calls) == calls,
		 "stable block ran %ld times in %lu calls",
		 atomic_long_read(&s->stable_calls), calls);
	nt_check(r, !atomic_read(&s->bad_calls), "%d calls ran the stable block not exactly once",
		 atomic_read(&s->bad_calls));
	nt_check(r, !atomic_read(&s->order_errors), "%d calls out of priority order",
		 atomic_read(&s->order_errors));
	nt_check(r, !atomic_read(&s->after_unregister), "%d runs after unregistration",
		 atomic_read(&s->after_unregister));
	nt_check(r, !atomic_read(&s->op_errors), "%d failed (un)registrations",
		 atomic_read(&s->op_errors));
	/* Once its unregistration returned, the stable block never runs. */
	atomic_long_inc(&s->unregs);
	nt_check(r, !nt_op(&s->c, NT_UNREGISTER, &s->stable.nb, NULL),
		 "unregistering the stable block failed");
	before = atomic_long_read(&s->stable_calls);
	nt_check(r, !nt_chain_first(&s->c), "a block is still on the chain");
	nt_check(r, nt_op(&s->c, NT_CALL, NULL, NULL) == NOTIFY_DONE &&
		 atomic_long_read(&s->stable_calls) == before &&
		 !atomic_read(&s->bad_calls),
		 "a block ran after every block was unregistered");
	regs = atomic_long_read(&s->regs);
	unregs = atomic_long_read(&s->unregs);
	if (!r->failed)
		snprintf(r->detail, sizeof(r->detail),
			 "%lu operations: %lu calls, %lu registrations, %lu unregistrations (stress_iters %u, %lld ms%s)",
			 calls + 1 + regs + unregs, calls + 1, regs, unregs,
			 stress_iters, ktime_ms_delta(ktime_get(), start),
			 atomic_read(&s->out_of_time) ? ", time budget used up" : "");
out:
	nt_chain_destroy(&s->c);
	kfree(s);
}

/* ---------------------------------------------------------------------- */
/* hardirq, softirq: an atomic chain called from interrupt context         */
/* ---------------------------------------------------------------------- */

struct nt_irqtest {
	struct nt_chain c;
	struct notifier_block nb[2];
	struct irq_work work;
	struct timer_list timer;
	struct completion timer_done;
	atomic_t runs, ok, calls, hardirq, softirq, task, irqs_off;
};

static int nt_ctx_cb(struct notifier_block *nb, unsigned long val, void *data)
{
	struct nt_irqtest *it = data;

	atomic_inc(&it->calls);
	if (in_hardirq())
		atomic_inc(&it->hardirq);
	if (in_serving_softirq())
		atomic_inc(&it->softirq);
	if (in_task())
		atomic_inc(&it->task);
	if (irqs_disabled())
		atomic_inc(&it->irqs_off);
	return NOTIFY_OK;
}

static void nt_irqtest_call(struct nt_irqtest *it)
{
	if (nt_op(&it->c, NT_CALL, NULL, it) == NOTIFY_OK)
		atomic_inc(&it->ok);
	atomic_inc(&it->runs);
}

static void nt_irq_work_fn(struct irq_work *work)
{
	nt_irqtest_call(container_of(work, struct nt_irqtest, work));
}

static void nt_timer_fn(struct timer_list *t)
{
	struct nt_irqtest *it = container_of(t, struct nt_irqtest, timer);

	nt_irqtest_call(it);
	complete(&it->timer_done);
}

/* Both callbacks run in every round, in hardirq or in softirq. */
static void nt_test_irq(struct nt_res *r, long arg)
{
	bool hard = arg;
	struct nt_irqtest *it = kzalloc(sizeof(*it), GFP_KERNEL);
	int i, rounds = 0, want = hard ? NT_IRQ_ROUNDS : NT_TIMER_ROUNDS;

	if (!nt_check(r, it, "out of memory"))
		return;
	nt_chain_init(&it->c, NT_ATOMIC);
	for (i = 0; i < 2; i++) {
		it->nb[i].notifier_call = nt_ctx_cb;
		it->nb[i].priority = i;
		nt_check(r, !nt_op(&it->c, NT_REGISTER, &it->nb[i], NULL),
			 "registration failed");
	}
	it->work = IRQ_WORK_INIT_HARD(nt_irq_work_fn);
	init_completion(&it->timer_done);
	timer_setup(&it->timer, nt_timer_fn, 0);
	for (; rounds < want && !r->failed; rounds++) {
		if (hard) {
			nt_check(r, irq_work_queue(&it->work), "irq_work busy");
			irq_work_sync(&it->work);
			continue;
		}
		reinit_completion(&it->timer_done);
		mod_timer(&it->timer, jiffies + 1);
		nt_check(r, wait_for_completion_timeout(&it->timer_done,
							msecs_to_jiffies(NT_WAIT_MS)),
			 "timer round %d did not run", rounds);
	}
	del_timer_sync(&it->timer);
	/* The counters only after the last call is seen done. */
	smp_rmb();
	nt_check(r, atomic_read(&it->runs) == want && atomic_read(&it->ok) == want,
		 "%d of %d calls returned NOTIFY_OK", atomic_read(&it->ok), want);
	nt_check(r, atomic_read(&it->calls) == 2 * want,
		 "%d callbacks in %d calls", atomic_read(&it->calls), want);
	nt_check(r, atomic_read(&it->hardirq) == (hard ? 2 * want : 0) &&
		 atomic_read(&it->softirq) == (hard ? 0 : 2 * want) &&
		 !atomic_read(&it->task),
		 "contexts: %d hardirq, %d softirq, %d task",
		 atomic_read(&it->hardirq), atomic_read(&it->softirq),
		 atomic_read(&it->task));
	if (hard)
		nt_check(r, atomic_read(&it->irqs_off) == 2 * want,
			 "%d callbacks with interrupts on",
			 2 * want - atomic_read(&it->irqs_off));
	for (i = 0; i < 2; i++)
		nt_check(r, !nt_op(&it->c, NT_UNREGISTER, &it->nb[i], NULL),
			 "unregistration failed");
	snprintf(r->detail, sizeof(r->detail), "%d calls, %d callbacks",
		 atomic_read(&it->runs), atomic_read(&it->calls));
	kfree(it);
}

/* ---------------------------------------------------------------------- */
/* writer_*: (un)registration while a callback runs                        */
/* ---------------------------------------------------------------------- */

/*
 * A writer while a callback runs (sleeps, or on an atomic chain spins on
 * another CPU): blocking chains hold their rwsem for reading across the
 * call, so (un)registration waits; SRCU and atomic chains register under
 * a lock of their own at once, and unregistration waits for the grace
 * period that ends with the call.  Either way the call in progress does
 * not run a block registered meanwhile.
 *
 * The caller is bound to one CPU, the writer and this thread to another,
 * so that neither queues behind a spinning callback.  A writer that waits
 * is checked once it is seen held by the call (queued on the rwsem, or
 * its block already unlinked), and only then asserted not finished; one
 * that proceeds must finish while the callback is held.
 */
struct nt_gate {
	struct notifier_block nb;
	struct completion entered, release;
	bool released, spin, timed_out;
	atomic_t calls;
};

static int nt_gate_cb(struct notifier_block *nb, unsigned long val, void *v)
{
	struct nt_gate *g = container_of(nb, struct nt_gate, nb);
	u64 end = ktime_get_mono_fast_ns() + (u64)NT_GATE_MAX_MS * NSEC_PER_MSEC;

	atomic_inc(&g->calls);
	complete(&g->entered);
	if (!g->spin) {
		if (!wait_for_completion_timeout(&g->release,
						 msecs_to_jiffies(NT_GATE_MAX_MS)))
			WRITE_ONCE(g->timed_out, true);
		return NOTIFY_OK;
	}
	while (!READ_ONCE(g->released)) {
		if (ktime_get_mono_fast_ns() > end) {
			WRITE_ONCE(g->timed_out, true);
			break;
		}
		cpu_relax();
	}
	return NOTIFY_OK;
}

static void nt_gate_open(struct nt_gate *g)
{
	WRITE_ONCE(g->released, true);
	complete_all(&g->release);
}

/* One chain operation in a thread of its own. */
struct nt_thread_op {
	struct nt_chain *c;
	enum nt_op_type type;
	struct notifier_block *nb;
	struct completion go, done;
	struct task_struct *task;
	int ret;
};

static int nt_thread_op_fn(void *arg)
{
	struct nt_thread_op *op = arg;

	wait_for_completion(&op->go);
	op->ret = nt_op(op->c, op->type, op->nb, op);
	complete_all(&op->done);
	nt_wait_for_stop();
	return 0;
}

/* Start @type on @c bound to @cpu (if >= 0); a @gated one waits for go. */
static bool nt_thread_op_start(struct nt_thread_op *op, struct nt_chain *c,
			       enum nt_op_type type, struct notifier_block *nb,
			       bool gated, int cpu)
{
	struct task_struct *t;

	op->c = c;
	op->type = type;
	op->nb = nb;
	init_completion(&op->go);
	init_completion(&op->done);
	if (!gated)
		complete(&op->go);
	t = kthread_create(nt_thread_op_fn, op, "nt_op");
	if (IS_ERR(t))
		return false;
	if (cpu >= 0)
		kthread_bind(t, cpu);
	op->task = t;
	wake_up_process(t);
	return true;
}

static void nt_thread_op_stop(struct nt_thread_op *op)
{
	if (!op->task)
		return;
	complete_all(&op->go);
	kthread_stop(op->task);
	op->task = NULL;
}

static bool nt_thread_op_wait(struct nt_thread_op *op)
{
	return wait_for_completion_timeout(&op->done,
					   msecs_to_jiffies(NT_WAIT_MS));
}

/*
 * Wait until the writer @op is held by the call in progress, or finished;
 * false if neither within NT_WAIT_MS.  On a blocking chain it is held once
 * queued on the rwsem, which the call holds for reading; an unregistration
 * of an atomic or SRCU chain once it unlinked its block, so it is in (or
 * entering) the grace-period wait that the call holds up.
 */
static bool nt_thread_op_wait_held(struct nt_thread_op *op)
{
	unsigned long end = jiffies + msecs_to_jiffies(NT_WAIT_MS);

	while (!completion_done(&op->done)) {
		if (op->c->kind == NT_BLOCKING ?
		    rwsem_is_contended(&op->c->blocking.rwsem) :
		    (op->type == NT_UNREGISTER && !nt_chain_has(op->c, op->nb)))
			return true;
		if (time_after(jiffies, end))
			return false;
		usleep_range(100, 200);
	}
	return true;
}

struct nt_writer_param {
	enum nt_kind kind;
	enum nt_op_type op;	/* REGISTER: a new block; UNREGISTER: the gate */
	bool waits;
};

static const struct nt_writer_param nt_writers[] = {
	{ NT_BLOCKING, NT_REGISTER, true },
	{ NT_BLOCKING, NT_UNREGISTER, true },
	{ NT_SRCU, NT_REGISTER, false },
	{ NT_SRCU, NT_UNREGISTER, true },
	{ NT_ATOMIC, NT_REGISTER, false },
	{ NT_ATOMIC, NT_UNREGISTER, true },
};

struct nt_writer {
	struct nt_chain c;
	struct nt_gate g;
	struct nt_counted b;
	struct nt_thread_op op, caller;
	struct cpumask allowed;	/* the loading task's, restored after */
};

static void nt_writer_check(struct nt_res *r, const struct nt_writer_param *p,
			    struct nt_writer *w)
{
	if (p->waits) {
		nt_check(r, nt_thread_op_wait_held(&w->op),
			 "the writer neither waited nor finished in %d ms",
			 NT_WAIT_MS);
		nt_check(r, !completion_done(&w->op.done),
			 "the writer did not wait for the running callback");
	} else {
		/*
		 * Bounded by the gate only: a writer that waits for the
		 * callback finishes when the gate gives up, too late.
		 */
		wait_for_completion(&w->op.done);
		nt_check(r, !READ_ONCE(w->g.timed_out) &&
			 !completion_done(&w->caller.done),
			 "the writer waited for the running callback");
	}
	nt_check(r, !completion_done(&w->caller.done),
		 "the call ended before the gate was opened");
	nt_gate_open(&w->g);
	nt_check(r, nt_thread_op_wait(&w->caller) && w->caller.ret == NOTIFY_OK,
		 "the call did not return NOTIFY_OK");
	nt_check(r, nt_thread_op_wait(&w->op) && !w->op.ret,
		 "the writer did not succeed");
}

static void nt_test_writer(struct nt_res *r, long arg)
{
	const struct nt_writer_param *p = &nt_writers[arg];
	bool spin = p->kind == NT_ATOMIC;
	int call_cpu = -1, other_cpu = -1;
	struct nt_writer *w;

	if (p->kind == NT_SRCU && !NT_HAVE_SRCU) {
		r->skip = "no SRCU notifier chains in this kernel";
		return;
	}
	if (num_online_cpus() >= 2) {
		call_cpu = cpumask_first(cpu_online_mask);
		other_cpu = cpumask_next(call_cpu, cpu_online_mask);
	} else if (spin) {
		r->skip = "needs two online CPUs";
		return;
	}
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!nt_check(r, w, "out of memory"))
		return;
	cpumask_copy(&w->allowed, current->cpus_ptr);
	nt_chain_init(&w->c, p->kind);
	w->g.nb.notifier_call = nt_gate_cb;
	w->g.nb.priority = 10;
	w->g.spin = spin;
	init_completion(&w->g.entered);
	init_completion(&w->g.release);
	w->b.nb.notifier_call = nt_count_cb;
	if (!nt_check(r, !nt_op(&w->c, NT_REGISTER, &w->g.nb, NULL),
		      "registering the gate failed"))
		goto out;
	if (other_cpu >= 0 &&
	    !nt_check(r, !set_cpus_allowed_ptr(current, cpumask_of(other_cpu)),
		      "cannot move to CPU %d", other_cpu))
		goto out;
	/* Started up front: no thread is created while a CPU spins. */
	if (!nt_check(r, nt_thread_op_start(&w->op, &w->c, p->op,
					    p->op == NT_REGISTER ? &w->b.nb : &w->g.nb,
					    true, other_cpu) &&
		      nt_thread_op_start(&w->caller, &w->c, NT_CALL, NULL,
					 false, call_cpu),
		      "cannot start the threads"))
		goto out;
	if (nt_check(r, wait_for_completion_timeout(&w->g.entered,
						    msecs_to_jiffies(NT_WAIT_MS)),
		     "the call did not reach its callback")) {
		complete_all(&w->op.go);
		nt_writer_check(r, p, w);
	}
out:
	nt_gate_open(&w->g);
	nt_thread_op_stop(&w->caller);
	nt_thread_op_stop(&w->op);
	if (other_cpu >= 0)
		set_cpus_allowed_ptr(current, &w->allowed);
	nt_check(r, !READ_ONCE(w->g.timed_out),
		 "the gate gave up after %d ms, before it was opened",
		 NT_GATE_MAX_MS);
	nt_check(r, atomic_read(&w->g.calls) == 1, "the gate ran %d times",
		 atomic_read(&w->g.calls));
	nt_check(r, !w->b.calls, "the block registered during the call ran");
	nt_op(&w->c, NT_UNREGISTER, &w->g.nb, NULL);
	nt_op(&w->c, NT_UNREGISTER, &w->b.nb, NULL);
	nt_chain_destroy(&w->c);
	kfree(w);
}

/* ---------------------------------------------------------------------- */
/* die_int3: the die chain, called for real                                */
/* ---------------------------------------------------------------------- */

/*
 * exc_int3() calls notify_die(DIE_INT3, "int3", regs, 0, X86_TRAP_BP,
 * SIGTRAP) for an int3 in kernel mode that is neither a text-patching
 * site nor a kprobe, and resumes after it if a notifier returns
 * NOTIFY_STOP, as the kernel's own int3_selftest() does.  Our notifier
 * (priority INT_MAX) claims only the int3 at nt_int3_ip; it runs in NMI
 * context and only copies what it saw.
 */
struct nt_die {
	struct notifier_block nb;
	int hits;
	unsigned long val;
	struct die_args args;
	struct pt_regs regs;
};

#ifdef CONFIG_X86_64
static unsigned long nt_int3_addr(void)
{
	unsigned long ip;

	asm("lea nt_int3_ip(%%rip), %0" : "=r" (ip));
	return ip;
}

static int nt_die_cb(struct notifier_block *nb, unsigned long val, void *v)
{
	struct nt_die *d = container_of(nb, struct nt_die, nb);
	struct die_args *args = v;

	if (val != DIE_INT3 || !args->regs || user_mode(args->regs) ||
	    args->regs->ip - INT3_INSN_SIZE != nt_int3_addr())
		return NOTIFY_DONE;
	d->hits++;
	d->val = val;
	d->args = *args;
	d->regs = *args->regs;
	return NOTIFY_STOP;
}

/* noinline: the label is defined once. */
static noinline void nt_die_trap(void)
{
	asm volatile("nt_int3_ip:\n\t"
		     ANNOTATE_NOENDBR
		     "int3\n\t" : : : "memory");
}

static void nt_test_die(struct nt_res *r, long arg)
{
	struct nt_die *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!nt_check(r, d, "out of memory"))
		return;
	d->nb.notifier_call = nt_die_cb;
	d->nb.priority = INT_MAX;
	if (nt_check(r, !register_die_notifier(&d->nb), "register failed")) {
		nt_die_trap();
		nt_check(r, d->hits == 1 && d->val == DIE_INT3,
			 "%d hits, val %lu", d->hits, d->val);
		nt_check(r, d->regs.ip == nt_int3_addr() + INT3_INSN_SIZE,
			 "regs->ip %pS", (void *)d->regs.ip);
		nt_check(r, d->args.str && !strcmp(d->args.str, "int3") &&
			 !d->args.err && d->args.trapnr == X86_TRAP_BP &&
			 d->args.signr == SIGTRAP,
			 "die_args str %s err %ld trapnr %d signr %d",
			 d->args.str ?: "(null)", d->args.err, d->args.trapnr,
			 d->args.signr);
		nt_check(r, !unregister_die_notifier(&d->nb),
			 "unregister failed");
	}
	nt_check(r, unregister_die_notifier(&d->nb) == -ENOENT,
		 "a second unregister did not return -ENOENT");
	kfree(d);
}
#else
static void nt_test_die(struct nt_res *r, long arg)
{
	r->skip = "the die chain is called through an x86-64 int3";
}
#endif

/* ---------------------------------------------------------------------- */
/* power_off: atomic_notifier_call_chain_is_empty() on the real chain      */
/* ---------------------------------------------------------------------- */

static int nt_sys_off_cb(struct sys_off_data *data)
{
	return NOTIFY_DONE;
}

/*
 * atomic_notifier_call_chain_is_empty() is not exported by 6.1; its one
 * caller is, kernel_can_power_off() = !is_empty(&power_off_handler_list)
 * || pm_power_off, and register_sys_off_handler() puts a block on that
 * atomic chain: the real function must say "not empty" once ours is
 * there, and unregistering must restore the answer.
 */
static void nt_test_power_off(struct nt_res *r, long arg)
{
	bool before = kernel_can_power_off();
	struct sys_off_handler *h;

	if (pm_power_off) {
		r->skip = "pm_power_off set: the answer does not depend on the chain";
		return;
	}
	if (before) {
		r->skip = "another power-off handler is registered: ours changes no answer";
		return;
	}
	h = register_sys_off_handler(SYS_OFF_MODE_POWER_OFF, SYS_OFF_PRIO_LOW,
				     nt_sys_off_cb, NULL);
	if (!nt_check(r, !IS_ERR(h), "register_sys_off_handler: %ld",
		      PTR_ERR(h)))
		return;
	nt_check(r, kernel_can_power_off(), "chain with our handler empty");
	unregister_sys_off_handler(h);
	nt_check(r, kernel_can_power_off() == before,
		 "unregistering did not restore the answer");
}

/* ---------------------------------------------------------------------- */
/* double_register: -EEXIST, with the WARN it gives, announced             */
/* ---------------------------------------------------------------------- */

/*
 * The second registration of a block WARNs and returns -EEXIST; the
 * block stays on the chain once.  The line before the WARN announces it
 * (a harness excuses announced warnings only), the one before that names
 * the refused registration as a notifier_register_error event prints it,
 * where the kernel has that event: the callback, and a priority no other
 * block has, as the pointers may print only as "(____ptrval____)".
 */
static void nt_test_double_register(struct nt_res *r, long arg)
{
	struct nt_notifier_pair {
		struct nt_chain c;
		struct nt_counted b;
	} *d;
	struct notifier_block *nb;
	struct nt_chain *c;

	if (!warn_cases) {
		r->skip = "provokes a WARN: load with warn_cases=1";
		return;
	}
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!nt_check(r, d, "out of memory"))
		return;
	c = &d->c;
	nb = &d->b.nb;
	nt_chain_init(c, NT_RAW);
	nb->notifier_call = nt_count_cb;
	nb->priority = NT_DOUBLE_PRIO;
	if (!nt_check(r, !nt_op(c, NT_REGISTER, nb, NULL), "register failed"))
		goto out;
	pr_info("double_register: event: %ps head=%p nb=%p priority=%d kind=raw err=%d\n",
		nb->notifier_call, &c->raw, nb, nb->priority, -EEXIST);
	pr_info("expect WARN: notifier callback %ps already registered\n",
		nb->notifier_call);
	nt_check(r, nt_op(c, NT_REGISTER, nb, NULL) == -EEXIST,
		 "the second registration did not return -EEXIST");
	nt_check(r, nt_op(c, NT_CALL, NULL, NULL) == NOTIFY_OK && d->b.calls == 1,
		 "the block ran %d times in one call", d->b.calls);
	nt_check(r, !nt_op(c, NT_UNREGISTER, nb, NULL), "unregister failed");
	nt_check(r, nt_op(c, NT_UNREGISTER, nb, NULL) == -ENOENT,
		 "unregistered twice");
	nt_check(r, nt_op(c, NT_CALL, NULL, NULL) == NOTIFY_DONE && d->b.calls == 1,
		 "the block ran after its unregistration");
out:
	nt_op(c, NT_UNREGISTER, nb, NULL);
	kfree(d);
}

/* ---------------------------------------------------------------------- */
/* The tests, and module init                                              */
/* ---------------------------------------------------------------------- */

static const struct nt_test {
	const char *name;
	void (*fn)(struct nt_res *r, long arg);
	long arg;
} nt_tests[] = {
	{ "stress_raw", nt_test_stress, NT_RAW },
	{ "stress_atomic", nt_test_stress, NT_ATOMIC },
	{ "stress_blocking", nt_test_stress, NT_BLOCKING },
	{ "stress_srcu", nt_test_stress, NT_SRCU },
	{ "hardirq", nt_test_irq, true },
	{ "softirq", nt_test_irq, false },
	{ "writer_blocking_register_waits", nt_test_writer, 0 },
	{ "writer_blocking_unregister_waits", nt_test_writer, 1 },
	{ "writer_srcu_register_proceeds", nt_test_writer, 2 },
	{ "writer_srcu_unregister_waits", nt_test_writer, 3 },
	{ "writer_atomic_register_proceeds", nt_test_writer, 4 },
	{ "writer_atomic_unregister_waits", nt_test_writer, 5 },
	{ "die_int3", nt_test_die, 0 },
	{ "power_off", nt_test_power_off, 0 },
	{ "double_register", nt_test_double_register, 0 },
};

/* Does the tests parameter select @name (NAME or PREFIX*, or empty)? */
static bool nt_selected(const char *name)
{
	const char *p = tests;
	size_t len;

	if (!p || !*p)
		return true;
	for (; *p; p += len + !!p[len]) {
		len = strcspn(p, ",");
		if (len && p[len - 1] == '*' && !strncmp(p, name, len - 1))
			return true;
		if (len == strlen(name) && !strncmp(p, name, len))
			return true;
	}
	return false;
}

static int __init nt_torture_init(void)
{
	int i, ran = 0, failed = 0, skipped = 0;

	pr_info("start: stress_iters=%u stress_max_ms=%u tests=%s warn_cases=%d\n",
		stress_iters, stress_max_ms, tests && *tests ? tests : "all",
		warn_cases);
	for (i = 0; i < ARRAY_SIZE(nt_tests); i++) {
		struct nt_res r = { .name = nt_tests[i].name };

		if (!nt_selected(r.name))
			continue;
		nt_tests[i].fn(&r, nt_tests[i].arg);
		ran++;
		if (r.failed) {
			failed++;
			pr_info("result %s FAIL: %s\n", r.name, r.detail);
		} else if (r.skip) {
			skipped++;
			pr_info("result %s SKIP: %s\n", r.name, r.skip);
		} else {
			pr_info("result %s PASS%s%s\n", r.name,
				*r.detail ? ": " : "", r.detail);
		}
	}
	pr_info("end: %d tests, %d passed, %d failed, %d skipped\n", ran,
		ran - failed - skipped, failed, skipped);
	return failed ? -EINVAL : 0;
}

static void __exit nt_torture_exit(void)
{
}

module_init(nt_torture_init);
module_exit(nt_torture_exit);
MODULE_DESCRIPTION("Torture tests of notifier chains");
MODULE_LICENSE("GPL");
