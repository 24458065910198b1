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
 * Registering a block twice WARNs by design.  CI systems often run
 * KUnit with panic_on_warn, so the cases that do it run only when the
 * module parameter warn_cases=1 asks for them, and are skipped otherwise.
 * chainscope's guest harness asks for them: it fails a run on any
 * WARNING that was not announced, so each such registration is preceded
 * by one "notifier_kunit: expect WARN: ..." line: once on a raw chain in
 * notifier_api (and once more in its traced pass) and once on an atomic
 * chain in notifier_tracepoints.
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
 * notifier_kunit_trace.h:        probes, the event recorder and
 *                                expectations on recorded events.
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
#include <linux/kallsyms.h>
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

#ifdef CONFIG_X86_64
#include <asm/text-patching.h>
#include <asm/trapnr.h>
#endif

/*
 * The values that the chainscope notifier events carry in their kind and
 * type fields (enum notifier_chain_kind and notifier_call_type of its
 * include/trace/events/notifier.h).  Defined here
 * rather than taken from that header, so that this suite also builds on a
 * tree without it, or with upstream's three cb-only events (6.4+): the
 * probes are attached by name, and only if the kernel has every one of
 * the chainscope events (notifier_kunit_trace.h).
 */
enum nt_chain_kind {
	NT_CHAIN_RAW,
	NT_CHAIN_ATOMIC,
	NT_CHAIN_BLOCKING,
	NT_CHAIN_SRCU,
};

enum nt_call_type {
	NT_CALL_PLAIN,
	NT_CALL_ROBUST,
	NT_CALL_ROLLBACK,
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
#include "notifier_kunit_trace.h"
#include "notifier_kunit_concurrency.h"

#define NT_HOLD_MS		50	/* how long a writer is shown to wait */
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
	struct nt_die_block *d = nt_die_block_new(test, false);

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
 */
static void notifier_test_writer_during_call(struct kunit *test)
{
	static const int prio[] = { 10 };
	const struct nt_writer_param *p = test->param_value;
	bool spin = p->kind == NT_CHAIN_ATOMIC;
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
/* Suite notifier_tracepoints                                              */
/* ---------------------------------------------------------------------- */

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
	const enum nt_chain_kind kind = NT_CHAIN_ATOMIC;
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
			  NT_CALL_PLAIN);
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
			      val, -1, NT_CALL_PLAIN);
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
	struct nt_fix fa = nt_tp_fix_new(test, NT_CHAIN_ATOMIC, prio, ARRAY_SIZE(prio));
	struct nt_fix fb = nt_fix_new(test, NT_CHAIN_BLOCKING, prio, ARRAY_SIZE(prio));
	unsigned int k;

	nt_rec_watch(test, fb.c->head, NULL);
	nt_reg_ids(test, &fa, "0");
	nt_reg_ids(test, &fb, "0");
	nt_rec_clear();

	/* The only double registration of this suite: one WARN, announced. */
	if (nt_warn_cases()) {
		pr_info("notifier_kunit: expect WARN: notifier callback %ps already registered\n",
			fa.b[0].nb.notifier_call);
		KUNIT_EXPECT_EQ(test, nt_chain_register(fa.c, &fa.b[0].nb),
				-EEXIST);
		nt_expect_membership(test, fa.c->head, fa.c->kind, &fa.b[0].nb,
				     NT_EV_REGISTER_ERROR, -EEXIST);
	} else {
		kunit_info(test, "-EEXIST event not checked: provokes a WARN (warn_cases=1)");
	}
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
		bool back = e->call_type == NT_CALL_ROLLBACK;
		bool end = e->type == NT_EV_CALL_END;

		if (!(BIT(e->type) & NT_EV_PASSES)) {
			cbs++;
			continue;
		}
		passes[back][end]++;
		KUNIT_EXPECT_TRUE(test, back ||
				  e->call_type == NT_CALL_ROBUST);
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

/*
 * Which walk ran a callback, by the function it returns to: the plain
 * walk is inlined into raw_notifier_call_chain(), the traced one is
 * notifier_walk_traced().
 */
static void *nt_walk_ret;

static int nt_cb_note_caller(struct notifier_block *nb, unsigned long val,
			     void *v)
{
	WRITE_ONCE(nt_walk_ret, __builtin_return_address(0));
	return NOTIFY_OK;
}

static void nt_expect_walk(struct kunit *test, struct raw_notifier_head *nh,
			   const char *want)
{
	char sym[KSYM_SYMBOL_LEN];

	WRITE_ONCE(nt_walk_ret, NULL);
	KUNIT_EXPECT_EQ(test, raw_notifier_call_chain(nh, 0, NULL), NOTIFY_OK);
	KUNIT_ASSERT_NOT_NULL(test, READ_ONCE(nt_walk_ret));
	sprint_symbol_no_offset(sym, (unsigned long)READ_ONCE(nt_walk_ret));
	KUNIT_EXPECT_STREQ(test, sym, want);
}

/*
 * One static key per kind of event: with only the membership events
 * enabled, chain calls keep the plain walk; any call event moves them to
 * the traced one, and they go back once it is disabled.
 */
static void notifier_test_tp_keys(struct kunit *test)
{
	struct raw_notifier_head nh = RAW_NOTIFIER_INIT(nh);
	struct notifier_block nb = { .notifier_call = nt_cb_note_caller };
	struct nt_test_ctx *ctx = test->priv;

	if (!IS_ENABLED(CONFIG_KALLSYMS))
		kunit_skip(test, "needs CONFIG_KALLSYMS to name the walk");
	/* Attaches nothing; skips unless the kernel has our events. */
	nt_tp_attach_mask(test, 0);
	KUNIT_ASSERT_EQ(test, raw_notifier_chain_register(&nh, &nb), 0);
	nt_expect_walk(test, &nh, "raw_notifier_call_chain");

	nt_tp_attach_mask(test, NT_EV_MEMBERSHIP);
	nt_expect_walk(test, &nh, "raw_notifier_call_chain");

	nt_tp_detach(ctx);
	nt_tp_attach_mask(test, BIT(NT_EV_RUN));
	nt_expect_walk(test, &nh, "notifier_walk_traced");

	nt_tp_detach(ctx);
	nt_expect_walk(test, &nh, "raw_notifier_call_chain");
	KUNIT_EXPECT_EQ(test, raw_notifier_chain_unregister(&nh, &nb), 0);
}

static struct kunit_case notifier_tracepoints_cases[] = {
	KUNIT_CASE_PARAM(notifier_test_tp_membership, nt_all_kinds_gen_params),
	KUNIT_CASE(notifier_test_tp_die_chain),
	KUNIT_CASE(notifier_test_tp_errors),
	KUNIT_CASE_PARAM(notifier_test_tp_run_return, nt_all_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_tp_stop, nt_all_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_tp_robust, nt_robust_kinds_gen_params),
	KUNIT_CASE_PARAM(notifier_test_tp_empty_chain, nt_all_kinds_gen_params),
	KUNIT_CASE(notifier_test_tp_keys),
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
