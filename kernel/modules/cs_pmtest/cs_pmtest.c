// SPDX-License-Identifier: GPL-2.0
/*
 * cs_pmtest - PM notifiers with known priorities and delays.
 *
 * Registers three callbacks on the PM notifier chain (pm_chain_head),
 * each its own function so that a tracer names it:
 *
 *   cs_pmtest_cb_hi   priority  10, waits delay_hi_ms  (default 20)
 *   cs_pmtest_cb_mid  priority   0, waits delay_mid_ms (default 5)
 *   cs_pmtest_cb_lo   priority -10, waits delay_lo_ms  (default 40)
 *
 * On PM_SUSPEND_PREPARE and PM_POST_SUSPEND each waits at least its delay,
 * measured on the monotonic clock (the one ktime_get() and BPF's
 * bpf_ktime_get_ns() read), so a tracer must find each run at least that
 * long. Other PM events are only counted. The callbacks return NOTIFY_OK
 * and never veto. PM notifiers run in process context with
 * system_transition_mutex held, which also serialises the counters.
 *
 * /sys/kernel/debug/cs_pmtest/stats has one line per callback, in call
 * order:  NAME prio=P delay_ms=D prepare=N post=N other=N seq=S
 * where seq is the position of its last call in a global count of calls,
 * so the test can check the order without any tracer (stock kernels).
 * Nothing is logged unless verbose=1. Only the public API is used.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/seq_file.h>
#include <linux/suspend.h>

#define CS_PM_MAX_DELAY_MS	10000U

static unsigned int delay_hi_ms = 20;
module_param(delay_hi_ms, uint, 0444);
MODULE_PARM_DESC(delay_hi_ms, "wait of cs_pmtest_cb_hi (priority 10), ms");

static unsigned int delay_mid_ms = 5;
module_param(delay_mid_ms, uint, 0444);
MODULE_PARM_DESC(delay_mid_ms, "wait of cs_pmtest_cb_mid (priority 0), ms");

static unsigned int delay_lo_ms = 40;
module_param(delay_lo_ms, uint, 0444);
MODULE_PARM_DESC(delay_lo_ms, "wait of cs_pmtest_cb_lo (priority -10), ms");

static bool verbose;
module_param(verbose, bool, 0644);
MODULE_PARM_DESC(verbose, "log every call");

struct cs_pm_cb {
	struct notifier_block nb;
	const char *name;
	unsigned int delay_ms;
	/* under system_transition_mutex, held by every PM chain caller */
	unsigned int prepare;
	unsigned int post;
	unsigned int other;
	unsigned int seq;
};

static unsigned int cs_pm_seq;

/* Sleep, then make sure the monotonic clock went on by at least @ms. */
static void cs_pm_wait(unsigned int ms)
{
	ktime_t end = ktime_add_ms(ktime_get(), ms);

	if (!ms)
		return;
	msleep(ms);
	while (ktime_before(ktime_get(), end))
		usleep_range(100, 200);
}

static int cs_pm_call(struct cs_pm_cb *cb, unsigned long action)
{
	cb->seq = ++cs_pm_seq;
	switch (action) {
	case PM_SUSPEND_PREPARE:
		cb->prepare++;
		break;
	case PM_POST_SUSPEND:
		cb->post++;
		break;
	default:
		cb->other++;
		if (verbose)
			pr_info("%s: action %lu, counted only\n", cb->name, action);
		return NOTIFY_DONE;
	}
	if (verbose)
		pr_info("%s: action %lu, waiting %u ms\n", cb->name, action,
			cb->delay_ms);
	cs_pm_wait(cb->delay_ms);
	return NOTIFY_OK;
}

static struct cs_pm_cb cs_pm_cbs[3];

static noinline int cs_pmtest_cb_hi(struct notifier_block *nb,
				    unsigned long action, void *data)
{
	return cs_pm_call(container_of(nb, struct cs_pm_cb, nb), action);
}

static noinline int cs_pmtest_cb_mid(struct notifier_block *nb,
				     unsigned long action, void *data)
{
	return cs_pm_call(container_of(nb, struct cs_pm_cb, nb), action);
}

static noinline int cs_pmtest_cb_lo(struct notifier_block *nb,
				    unsigned long action, void *data)
{
	return cs_pm_call(container_of(nb, struct cs_pm_cb, nb), action);
}

static int cs_pm_stats_show(struct seq_file *m, void *v)
{
	unsigned int flags;
	int i;

	flags = lock_system_sleep();
	for (i = 0; i < ARRAY_SIZE(cs_pm_cbs); i++) {
		struct cs_pm_cb *cb = &cs_pm_cbs[i];

		seq_printf(m, "%s prio=%d delay_ms=%u prepare=%u post=%u other=%u seq=%u\n",
			   cb->name, cb->nb.priority, cb->delay_ms, cb->prepare,
			   cb->post, cb->other, cb->seq);
	}
	unlock_system_sleep(flags);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cs_pm_stats);

static struct dentry *cs_pm_dir;

static void cs_pm_setup(struct cs_pm_cb *cb, notifier_fn_t fn,
			const char *name, int prio, unsigned int delay_ms)
{
	cb->nb.notifier_call = fn;
	cb->nb.priority = prio;
	cb->name = name;
	cb->delay_ms = delay_ms;
}

static int __init cs_pmtest_init(void)
{
	int i, ret;

	if (delay_hi_ms > CS_PM_MAX_DELAY_MS ||
	    delay_mid_ms > CS_PM_MAX_DELAY_MS ||
	    delay_lo_ms > CS_PM_MAX_DELAY_MS)
		return -EINVAL;

	cs_pm_setup(&cs_pm_cbs[0], cs_pmtest_cb_hi, "cs_pmtest_cb_hi", 10,
		    delay_hi_ms);
	cs_pm_setup(&cs_pm_cbs[1], cs_pmtest_cb_mid, "cs_pmtest_cb_mid", 0,
		    delay_mid_ms);
	cs_pm_setup(&cs_pm_cbs[2], cs_pmtest_cb_lo, "cs_pmtest_cb_lo", -10,
		    delay_lo_ms);

	for (i = 0; i < ARRAY_SIZE(cs_pm_cbs); i++) {
		ret = register_pm_notifier(&cs_pm_cbs[i].nb);
		if (ret)
			goto unregister;
	}
	/* debugfs is optional: the callbacks run without it */
	cs_pm_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("stats", 0444, cs_pm_dir, NULL, &cs_pm_stats_fops);
	return 0;

unregister:
	while (--i >= 0)
		unregister_pm_notifier(&cs_pm_cbs[i].nb);
	return ret;
}

static void __exit cs_pmtest_exit(void)
{
	int i;

	debugfs_remove_recursive(cs_pm_dir);
	for (i = ARRAY_SIZE(cs_pm_cbs) - 1; i >= 0; i--)
		unregister_pm_notifier(&cs_pm_cbs[i].nb);
}

module_init(cs_pmtest_init);
module_exit(cs_pmtest_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("chainscope test: PM notifiers with known priorities and delays");
