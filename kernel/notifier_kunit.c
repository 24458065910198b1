// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for notifier chains (include/linux/notifier.h).
 *
 * The tests are written from the documented semantics of the API, not
 * from an implementation, and use no tracepoint: they run the same on
 * any kernel/notifier.c.  The notifier events have a suite of their own,
 * kernel/notifier_trace_kunit.c.
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
 *
 * Expected callbacks are written as strings of block ids: "51304276" is
 * block 5, then 1, then 3, ...; "012/01" is a robust call that ran 0, 1
 * and 2 with val_up and rolled 0 and 1 back with val_down.
 *
 * Every test leaves the chains it used empty.  Blocks, threads, gates,
 * SRCU heads and handlers are tracked, so that the exit hook can undo
 * whatever a failed test left behind before the memory is freed.
 *
 * Registering a block twice WARNs by design.  CI systems often run
 * KUnit with panic_on_warn, so the cases that do it run only when the
 * module parameter warn_cases=1 asks for them, and are skipped otherwise.
 * A harness that fails a run on any WARNING it was not told about can
 * ask for them: the one such registration, on a raw chain in
 * notifier_api, is preceded by a "notifier_kunit: expect WARN: ..." line.
 *
 * One compilation unit, as kernel/rcu/tree.c with its tree_*.h: this
 * file holds the module parameters, the cases and the suites; the
 * harness is in the headers it includes, by concern:
 *
 * notifier_kunit_harness.h:      chains, per-test tracking, threads,
 *                                gates, the init and exit hooks.
 * notifier_kunit_fixture.h:      recording blocks, fixtures,
 *                                expectations as strings of ids, the
 *                                die chain.
 * notifier_kunit_concurrency.h:  stress threads, hardirq and softirq
 *                                callers, sleeping and nesting
 *                                callbacks.
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

#ifdef CONFIG_X86_64
#include <asm/text-patching.h>
#include <asm/trapnr.h>
#endif

/* The four kinds of notifier chain the cases run on. */
enum nt_chain_kind {
	NT_CHAIN_RAW,
	NT_CHAIN_ATOMIC,
	NT_CHAIN_BLOCKING,
	NT_CHAIN_SRCU,
};

/*
 * SRCU notifier chains: Linux 6.1 has them only when something selects
 * CONFIG_SRCU; from 6.3 on SRCU is always built (CONFIG_SRCU is gone) and
 * one of these two is always set.
 */
#if defined(CONFIG_TINY_SRCU) || defined(CONFIG_TREE_SRCU)
#define NT_HAVE_SRCU 1
#else
#define NT_HAVE_SRCU 0
#endif

/*
 * Loaded as a module, these are read by nt_params_load(), not only by the
 * module loader: see there.
 */
static unsigned int stress_iters = 1000;
module_param(stress_iters, uint, 0444);
MODULE_PARM_DESC(stress_iters,
		 "chain calls per caller thread and chain kind in notifier_test_stress (default 1000): at least 8 * stress_iters calls in all, plus the (un)registrations; each case reports its operations, the suite their total");

static unsigned int warn_cases;
module_param(warn_cases, uint, 0444);
MODULE_PARM_DESC(warn_cases,
		 "1: also run the cases that provoke a WARN on purpose (double registration), each announced by a 'notifier_kunit: expect WARN:' line; never with panic_on_warn (default 0: skipped)");

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
		else if (nt_param_eq(param, "warn_cases"))
			warn_cases = v;
	}
	kfree(buf);
#endif
}

/* warn_cases, as given at load time (see nt_params_load()). */
static bool nt_warn_cases(void)
{
	nt_params_load();
	return warn_cases;
}

#include "notifier_kunit_harness.h"
#include "notifier_kunit_fixture.h"
#include "notifier_kunit_concurrency.h"

#define NT_BUSY_US		50	/* busy callback of the duration test */
#define NT_IRQ_ROUNDS		16
#define NT_TIMER_ROUNDS		4

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
	struct nt_fix f;

	if (!nt_warn_cases())
		kunit_skip(test, "provokes a WARN: load with warn_cases=1");
	f = nt_fix_new(test, NT_CHAIN_RAW, prio, ARRAY_SIZE(prio));
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
	struct nt_fix f = nt_fix_new(test, NT_CHAIN_SRCU, prio, ARRAY_SIZE(prio));
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
	struct nt_fix f = nt_fix_new(test, NT_CHAIN_SRCU, prio, ARRAY_SIZE(prio));

#if NT_HAVE_SRCU
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
	struct nt_die_block *d = nt_die_block_new(test);

	nt_die_expect_trap(test, d);
	nt_die_unregister(test, d);
}

static void nt_api_suite_exit(struct kunit_suite *suite)
{
#if NT_HAVE_SRCU
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
	enum nt_chain_kind kind = nt_kind(test);
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
 *
 * No verdict depends on timing: the caller is bound to one CPU, the
 * writer and this test to another, so that neither queues behind the
 * spinning callback; a writer that waits is checked once it is seen held
 * (queued on the rwsem, or its block unlinked), one that proceeds by
 * finishing while the callback is held.  NT_WAIT_MS only bounds how long
 * either may take.
 */
static void notifier_test_writer_during_call(struct kunit *test)
{
	static const int prio[] = { 10 };
	const struct nt_writer_param *p = test->param_value;
	bool spin = p->kind == NT_CHAIN_ATOMIC;
	int call_cpu = -1, other_cpu = -1;
	struct notifier_block *nb;
	struct nt_op *caller, *op;
	struct nt_gate *g;
	struct nt_fix f;

	if (num_online_cpus() >= 2) {
		call_cpu = cpumask_first(cpu_online_mask);
		other_cpu = cpumask_next(call_cpu, cpu_online_mask);
	} else if (spin) {
		kunit_skip(test, "needs two online CPUs");
	}
	f = nt_fix_new(test, p->kind, prio, ARRAY_SIZE(prio));
	g = nt_gate_new(test, spin);
	KUNIT_ASSERT_EQ(test, nt_reg(test, f.c, &g->nb), 0);
	nb = p->op == NT_OP_REGISTER ? &f.b[0].nb : &g->nb;
	if (other_cpu >= 0)
		KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current,
							   cpumask_of(other_cpu)),
				0);
	/* Made up front: no thread is created while a CPU spins. */
	op = nt_op_start_on(test, f.c, p->op, nb, true, other_cpu);
	KUNIT_ASSERT_NOT_NULL(test, op);
	caller = nt_op_start_on(test, f.c, NT_OP_CALL, NULL, false, call_cpu);
	KUNIT_ASSERT_NOT_NULL(test, caller);
	KUNIT_ASSERT_TRUE_MSG(test, nt_gate_wait_entered(g),
			      "the call did not reach its callback");
	nt_op_go(op);
	if (p->waits) {
		KUNIT_EXPECT_TRUE_MSG(test, nt_op_wait_held(op),
				      "the writer neither waited nor finished in %d ms",
				      NT_WAIT_MS);
		KUNIT_EXPECT_FALSE_MSG(test, nt_op_finished(op),
				       "did not wait for the running callback");
	} else {
		KUNIT_EXPECT_TRUE_MSG(test, nt_op_wait(op),
				      "waited for the running callback");
	}
	KUNIT_EXPECT_FALSE_MSG(test, nt_op_finished(caller),
			       "the call ended before the test opened the gate");
	nt_gate_open(g);
	KUNIT_EXPECT_TRUE(test, nt_op_wait(caller));
	KUNIT_EXPECT_EQ(test, caller->ret, NOTIFY_OK);
	KUNIT_EXPECT_TRUE(test, nt_op_wait(op));
	KUNIT_EXPECT_EQ(test, op->ret, 0);
	nt_threads_stop(test);
	if (other_cpu >= 0)
		set_cpus_allowed_ptr(current, cpu_possible_mask);
	if (!op->ret && p->op == NT_OP_REGISTER)
		nt_track_add(test, f.c, nb);
	else if (!op->ret)
		nt_track_del(test, f.c, nb);
	KUNIT_EXPECT_FALSE_MSG(test, READ_ONCE(g->timed_out),
			       "the %s gate gave up after %d ms, before the test opened it",
			       spin ? "spinning" : "sleeping",
			       spin ? NT_GATE_SPIN_MAX_MS : NT_GATE_MAX_MS);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->calls), 1);
	KUNIT_EXPECT_EQ(test, f.b[0].calls, 0);
	nt_unreg_all(test);
}

/* A callback of an outer chain calls an inner chain of another kind. */
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
/* Suites                                                                  */
/* ---------------------------------------------------------------------- */

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

kunit_test_suites(&notifier_api_suite, &notifier_concurrency_suite);
MODULE_DESCRIPTION("KUnit tests for notifier chains");
MODULE_LICENSE("GPL");
