// SPDX-License-Identifier: GPL-2.0
/*
 * cs_loadgen - notifier chain load generator for chainscope.
 *
 * Four chains live in this module (cs_loadgen_atomic, cs_loadgen_blocking,
 * cs_loadgen_raw, cs_loadgen_srcu). Callback blocks are added, removed and
 * called through /sys/kernel/debug/cs_loadgen/ctl, from the writing task,
 * from kthreads, from hardirq (irq_work) and from softirq (hrtimer). Only
 * the public notifier API is used, so the module runs on the stock and on
 * the chainscope kernel alike. See README.md for the command syntax.
 *
 * Locking:
 *  - cs_lg_mutex protects the block list, the block ids, the nesting
 *    bookkeeping and the thread list. Chain callbacks never take it.
 *  - The raw chain has no lock of its own: every registration, removal
 *    and call of cs_loadgen_raw (from any context) holds cs_lg_raw_lock,
 *    a raw spinlock taken with interrupts off, because the chain is also
 *    called from hardirq and softirq. Raw callbacks therefore run with
 *    interrupts disabled and must not sleep.
 *  - Blocks are freed only after the chain's unregister function returned,
 *    which waits for callbacks still running (RCU, rwsem, SRCU or
 *    cs_lg_raw_lock), so a callback never sees a freed block.
 *
 * Nesting (cs_loadgen_cb_nest) is limited to one level: a chain that
 * holds a nest block may not be the target of one and vice versa. This
 * rules out recursion and self-deadlock on cs_lg_raw_lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/srcu.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/wait.h>

#define CS_LG_MAX_BLOCKS	4096
#define CS_LG_MAX_THREADS	64
#define CS_LG_MAX_DELAY_US	1000000U
#define CS_LG_MAX_SLEEP_MS	10000U
#define CS_LG_CMD_MAX		256
#define CS_LG_MAX_ARGS		16
#define CS_LG_MAX_POS		3
#define CS_LG_TIMER_NS		(10 * NSEC_PER_USEC)
#define CS_LG_FN_PREFIX		"cs_loadgen_cb_"

static bool verbose;
module_param(verbose, bool, 0644);
MODULE_PARM_DESC(verbose, "log every control command");

enum cs_lg_chain {
	CS_LG_ATOMIC,
	CS_LG_BLOCKING,
	CS_LG_RAW,
	CS_LG_SRCU,
	CS_LG_NR_CHAINS,
};

static const char * const cs_lg_chain_names[CS_LG_NR_CHAINS] = {
	[CS_LG_ATOMIC] = "atomic",
	[CS_LG_BLOCKING] = "blocking",
	[CS_LG_RAW] = "raw",
	[CS_LG_SRCU] = "srcu",
};

static bool cs_lg_chain_atomic(enum cs_lg_chain chain)
{
	return chain == CS_LG_ATOMIC || chain == CS_LG_RAW;
}

enum cs_lg_func {
	CS_LG_FN_FAST,
	CS_LG_FN_BUSY,
	CS_LG_FN_SLEEP,
	CS_LG_FN_VETO,
	CS_LG_FN_NEST,
	CS_LG_FN_BUSY2,
	CS_LG_FN_FAST2,
	CS_LG_NR_FUNCS,
};

/* One callback block; writers embed a private one in their thread. */
struct cs_lg_block {
	struct notifier_block nb;
	struct list_head node;		/* in cs_lg_blocks, ctl blocks only */
	int id;
	enum cs_lg_chain chain;
	enum cs_lg_func func;
	enum cs_lg_chain nest;		/* target of cs_loadgen_cb_nest */
	unsigned int delay_us;
	unsigned int sleep_ms;
	int ret;
	atomic_long_t calls;
};

static ATOMIC_NOTIFIER_HEAD(cs_loadgen_atomic);
static BLOCKING_NOTIFIER_HEAD(cs_loadgen_blocking);
static RAW_NOTIFIER_HEAD(cs_loadgen_raw);
SRCU_NOTIFIER_HEAD_STATIC(cs_loadgen_srcu);

/* Serialises everything done to cs_loadgen_raw, in any context. */
static DEFINE_RAW_SPINLOCK(cs_lg_raw_lock);

/* Protects the block list, ids, nesting counts and the thread list. */
static DEFINE_MUTEX(cs_lg_mutex);
static LIST_HEAD(cs_lg_blocks);
static unsigned int cs_lg_nr_blocks;
static int cs_lg_next_id;
static int cs_lg_last_id = -1;
static unsigned int cs_lg_nest_from[CS_LG_NR_CHAINS];
static unsigned int cs_lg_nest_into[CS_LG_NR_CHAINS];

static LIST_HEAD(cs_lg_threads);
static unsigned int cs_lg_nr_threads;
static unsigned int cs_lg_thread_seq;

static atomic_t cs_lg_running = ATOMIC_INIT(0);
static atomic_t cs_lg_finite_running = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(cs_lg_wq);

static atomic_long_t cs_lg_callers_calls = ATOMIC_LONG_INIT(0);
static atomic_long_t cs_lg_writers_cycles = ATOMIC_LONG_INIT(0);
static atomic_long_t cs_lg_irq_calls = ATOMIC_LONG_INIT(0);
static atomic_long_t cs_lg_timer_calls = ATOMIC_LONG_INIT(0);

static struct dentry *cs_lg_dir;

static __printf(1, 2) int cs_lg_bad(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_warn("%pV\n", &vaf);
	va_end(args);
	return -EINVAL;
}

/* Call a chain once, in whatever context the caller is in. */
static int cs_lg_call(enum cs_lg_chain chain, unsigned long val)
{
	unsigned long flags;
	int ret;

	switch (chain) {
	case CS_LG_ATOMIC:
		return atomic_notifier_call_chain(&cs_loadgen_atomic, val, NULL);
	case CS_LG_BLOCKING:
		return blocking_notifier_call_chain(&cs_loadgen_blocking, val,
						    NULL);
	case CS_LG_RAW:
		raw_spin_lock_irqsave(&cs_lg_raw_lock, flags);
		ret = raw_notifier_call_chain(&cs_loadgen_raw, val, NULL);
		raw_spin_unlock_irqrestore(&cs_lg_raw_lock, flags);
		return ret;
	case CS_LG_SRCU:
		return srcu_notifier_call_chain(&cs_loadgen_srcu, val, NULL);
	default:
		return NOTIFY_DONE;
	}
}

static int cs_lg_call_robust(enum cs_lg_chain chain, unsigned long up,
			     unsigned long down)
{
	unsigned long flags;
	int ret;

	if (chain == CS_LG_BLOCKING)
		return blocking_notifier_call_chain_robust(&cs_loadgen_blocking,
							   up, down, NULL);
	raw_spin_lock_irqsave(&cs_lg_raw_lock, flags);
	ret = raw_notifier_call_chain_robust(&cs_loadgen_raw, up, down, NULL);
	raw_spin_unlock_irqrestore(&cs_lg_raw_lock, flags);
	return ret;
}

/*
 * Common entry of every callback. The check against @fn also keeps the
 * bodies of the otherwise identical callbacks different, so the compiler
 * cannot fold them into one symbol.
 */
static __always_inline struct cs_lg_block *
cs_lg_hit(struct notifier_block *nb, enum cs_lg_func fn)
{
	struct cs_lg_block *b = container_of(nb, struct cs_lg_block, nb);

	WARN_ON_ONCE(b->func != fn);
	atomic_long_inc(&b->calls);
	return b;
}

/*
 * Busy wait on the clock the tools time callbacks with (the one behind
 * bpf_ktime_get_ns()), not udelay(): under QEMU/TCG a vCPU's
 * loops_per_jiffy calibration is often off by 2x or more, so udelay()
 * does not last what it says, while the clock does.  Latency tests rely
 * on the exact length.
 */
static void cs_lg_spin(unsigned int us)
{
	u64 end = ktime_get_mono_fast_ns() + (u64)us * NSEC_PER_USEC;

	while (ktime_get_mono_fast_ns() < end)
		cpu_relax();
}

static noinline int cs_loadgen_cb_fast(struct notifier_block *nb,
				       unsigned long val, void *data)
{
	return cs_lg_hit(nb, CS_LG_FN_FAST)->ret;
}

static noinline int cs_loadgen_cb_busy(struct notifier_block *nb,
				       unsigned long val, void *data)
{
	struct cs_lg_block *b = cs_lg_hit(nb, CS_LG_FN_BUSY);

	cs_lg_spin(b->delay_us);
	return b->ret;
}

static noinline int cs_loadgen_cb_sleep(struct notifier_block *nb,
					unsigned long val, void *data)
{
	struct cs_lg_block *b = cs_lg_hit(nb, CS_LG_FN_SLEEP);

	msleep(b->sleep_ms);
	return b->ret;
}

static noinline int cs_loadgen_cb_veto(struct notifier_block *nb,
				       unsigned long val, void *data)
{
	return cs_lg_hit(nb, CS_LG_FN_VETO)->ret;
}

static noinline int cs_loadgen_cb_nest(struct notifier_block *nb,
				       unsigned long val, void *data)
{
	struct cs_lg_block *b = cs_lg_hit(nb, CS_LG_FN_NEST);

	cs_lg_call(b->nest, val);
	return b->ret;
}

static noinline int cs_loadgen_cb_busy2(struct notifier_block *nb,
					unsigned long val, void *data)
{
	struct cs_lg_block *b = cs_lg_hit(nb, CS_LG_FN_BUSY2);

	cs_lg_spin(b->delay_us);
	return b->ret;
}

static noinline int cs_loadgen_cb_fast2(struct notifier_block *nb,
					unsigned long val, void *data)
{
	return cs_lg_hit(nb, CS_LG_FN_FAST2)->ret;
}

static const struct {
	const char *sym;
	notifier_fn_t fn;
} cs_lg_funcs[CS_LG_NR_FUNCS] = {
	[CS_LG_FN_FAST] = { "cs_loadgen_cb_fast", cs_loadgen_cb_fast },
	[CS_LG_FN_BUSY] = { "cs_loadgen_cb_busy", cs_loadgen_cb_busy },
	[CS_LG_FN_SLEEP] = { "cs_loadgen_cb_sleep", cs_loadgen_cb_sleep },
	[CS_LG_FN_VETO] = { "cs_loadgen_cb_veto", cs_loadgen_cb_veto },
	[CS_LG_FN_NEST] = { "cs_loadgen_cb_nest", cs_loadgen_cb_nest },
	[CS_LG_FN_BUSY2] = { "cs_loadgen_cb_busy2", cs_loadgen_cb_busy2 },
	[CS_LG_FN_FAST2] = { "cs_loadgen_cb_fast2", cs_loadgen_cb_fast2 },
};

static int cs_lg_register(struct cs_lg_block *b, bool unique)
{
	unsigned long flags;
	int err;

	switch (b->chain) {
	case CS_LG_ATOMIC:
		if (unique)
			return atomic_notifier_chain_register_unique_prio(&cs_loadgen_atomic,
									  &b->nb);
		return atomic_notifier_chain_register(&cs_loadgen_atomic, &b->nb);
	case CS_LG_BLOCKING:
		if (unique)
			return blocking_notifier_chain_register_unique_prio(&cs_loadgen_blocking,
									    &b->nb);
		return blocking_notifier_chain_register(&cs_loadgen_blocking,
							&b->nb);
	case CS_LG_RAW:
		raw_spin_lock_irqsave(&cs_lg_raw_lock, flags);
		err = raw_notifier_chain_register(&cs_loadgen_raw, &b->nb);
		raw_spin_unlock_irqrestore(&cs_lg_raw_lock, flags);
		return err;
	case CS_LG_SRCU:
		return srcu_notifier_chain_register(&cs_loadgen_srcu, &b->nb);
	default:
		return -EINVAL;
	}
}

static int cs_lg_unregister(struct cs_lg_block *b)
{
	unsigned long flags;
	int err;

	switch (b->chain) {
	case CS_LG_ATOMIC:
		return atomic_notifier_chain_unregister(&cs_loadgen_atomic,
							&b->nb);
	case CS_LG_BLOCKING:
		return blocking_notifier_chain_unregister(&cs_loadgen_blocking,
							  &b->nb);
	case CS_LG_RAW:
		raw_spin_lock_irqsave(&cs_lg_raw_lock, flags);
		err = raw_notifier_chain_unregister(&cs_loadgen_raw, &b->nb);
		raw_spin_unlock_irqrestore(&cs_lg_raw_lock, flags);
		return err;
	case CS_LG_SRCU:
		return srcu_notifier_chain_unregister(&cs_loadgen_srcu, &b->nb);
	default:
		return -EINVAL;
	}
}

/* ---------------------------------------------------------------------
 * Command arguments
 */

enum {
	CS_LG_OPT_PRIO,
	CS_LG_OPT_DELAY_US,
	CS_LG_OPT_SLEEP_MS,
	CS_LG_OPT_RET,
	CS_LG_OPT_NEST,
	CS_LG_OPT_FUNC,
	CS_LG_OPT_VAL,
	CS_LG_OPT_VAL_UP,
	CS_LG_OPT_VAL_DOWN,
	CS_LG_NR_OPTS,
};

static const char * const cs_lg_opt_names[CS_LG_NR_OPTS] = {
	[CS_LG_OPT_PRIO] = "prio",
	[CS_LG_OPT_DELAY_US] = "delay_us",
	[CS_LG_OPT_SLEEP_MS] = "sleep_ms",
	[CS_LG_OPT_RET] = "ret",
	[CS_LG_OPT_NEST] = "nest",
	[CS_LG_OPT_FUNC] = "func",
	[CS_LG_OPT_VAL] = "val",
	[CS_LG_OPT_VAL_UP] = "val_up",
	[CS_LG_OPT_VAL_DOWN] = "val_down",
};

#define CS_LG_BLOCK_OPTS	(BIT(CS_LG_OPT_PRIO) | BIT(CS_LG_OPT_DELAY_US) | \
				 BIT(CS_LG_OPT_SLEEP_MS) | BIT(CS_LG_OPT_RET))

struct cs_lg_args {
	unsigned long set;		/* BIT(CS_LG_OPT_*) given */
	int prio;
	unsigned int delay_us;
	unsigned int sleep_ms;
	int ret;
	enum cs_lg_chain nest;
	enum cs_lg_func func;
	unsigned long val;
	unsigned long val_up;
	unsigned long val_down;
};

static int cs_lg_parse_chain(const char *s, enum cs_lg_chain *chain)
{
	int i = match_string(cs_lg_chain_names, CS_LG_NR_CHAINS, s);

	if (i < 0)
		return cs_lg_bad("unknown chain '%s' (atomic, blocking, raw, srcu)",
				 s);
	*chain = i;
	return 0;
}

static int cs_lg_parse_func(const char *s, enum cs_lg_func *func)
{
	const char *name = s;
	int i;

	if (strstarts(name, CS_LG_FN_PREFIX))
		name += strlen(CS_LG_FN_PREFIX);
	for (i = 0; i < CS_LG_NR_FUNCS; i++) {
		if (!strcmp(name, cs_lg_funcs[i].sym + strlen(CS_LG_FN_PREFIX))) {
			*func = i;
			return 0;
		}
	}
	return cs_lg_bad("unknown callback '%s' (fast, busy, sleep, veto, nest, busy2, fast2)",
			 s);
}

static int cs_lg_parse_ret(const char *s, int *ret)
{
	static const struct {
		const char *name;
		int val;
	} names[] = {
		{ "done", NOTIFY_DONE },
		{ "ok", NOTIFY_OK },
		{ "stop", NOTIFY_STOP },
		{ "bad", NOTIFY_BAD },
	};
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(s, names[i].name)) {
			*ret = names[i].val;
			return 0;
		}
	}
	if (strstarts(s, "errno:")) {
		if (kstrtoint(s + strlen("errno:"), 10, &err) ||
		    err < -MAX_ERRNO || err > MAX_ERRNO)
			return cs_lg_bad("bad errno in ret=%s", s);
		*ret = notifier_from_errno(err > 0 ? -err : err);
		return 0;
	}
	if (kstrtoint(s, 0, ret))
		return cs_lg_bad("bad ret=%s (done, ok, stop, bad, errno:-N or a number)",
				 s);
	return 0;
}

static int cs_lg_parse_opt(char *tok, unsigned long allowed,
			   struct cs_lg_args *a)
{
	char *val = strchr(tok, '=');
	int opt, err = 0;

	*val++ = '\0';
	opt = match_string(cs_lg_opt_names, CS_LG_NR_OPTS, tok);
	if (opt < 0)
		return cs_lg_bad("unknown option '%s'", tok);
	if (!(allowed & BIT(opt)))
		return cs_lg_bad("option '%s' is not valid for this command", tok);
	if (a->set & BIT(opt))
		return cs_lg_bad("option '%s' given twice", tok);
	a->set |= BIT(opt);

	switch (opt) {
	case CS_LG_OPT_PRIO:
		err = kstrtoint(val, 0, &a->prio);
		break;
	case CS_LG_OPT_DELAY_US:
		err = kstrtouint(val, 0, &a->delay_us);
		if (!err && a->delay_us > CS_LG_MAX_DELAY_US)
			err = -ERANGE;
		break;
	case CS_LG_OPT_SLEEP_MS:
		err = kstrtouint(val, 0, &a->sleep_ms);
		if (!err && a->sleep_ms > CS_LG_MAX_SLEEP_MS)
			err = -ERANGE;
		break;
	case CS_LG_OPT_RET:
		return cs_lg_parse_ret(val, &a->ret);
	case CS_LG_OPT_NEST:
		return cs_lg_parse_chain(val, &a->nest);
	case CS_LG_OPT_FUNC:
		return cs_lg_parse_func(val, &a->func);
	case CS_LG_OPT_VAL:
		err = kstrtoul(val, 0, &a->val);
		break;
	case CS_LG_OPT_VAL_UP:
		err = kstrtoul(val, 0, &a->val_up);
		break;
	case CS_LG_OPT_VAL_DOWN:
		err = kstrtoul(val, 0, &a->val_down);
		break;
	}
	if (err)
		return cs_lg_bad("bad value in %s=%s%s", tok, val,
				 err == -ERANGE ? " (out of range)" : "");
	return 0;
}

static int cs_lg_parse_count(const char *what, const char *s,
			     unsigned long *n)
{
	if (kstrtoul(s, 0, n))
		return cs_lg_bad("bad %s '%s'", what, s);
	return 0;
}

/* Fill in and check a block; it is not registered yet. */
static int cs_lg_block_init(struct cs_lg_block *b, enum cs_lg_chain chain,
			    enum cs_lg_func func, const struct cs_lg_args *a)
{
	const char *sym = cs_lg_funcs[func].sym;

	b->chain = chain;
	b->func = func;
	b->nb.notifier_call = cs_lg_funcs[func].fn;
	b->nb.priority = a->prio;
	b->delay_us = a->delay_us;
	b->sleep_ms = a->sleep_ms;
	b->nest = a->nest;
	if (a->set & BIT(CS_LG_OPT_RET))
		b->ret = a->ret;
	else
		b->ret = func == CS_LG_FN_VETO ? NOTIFY_BAD : NOTIFY_OK;
	atomic_long_set(&b->calls, 0);

	if (b->delay_us && func != CS_LG_FN_BUSY && func != CS_LG_FN_BUSY2)
		return cs_lg_bad("delay_us is only for busy/busy2, not %s", sym);
	if (cs_lg_chain_atomic(chain) && (func == CS_LG_FN_SLEEP || b->sleep_ms))
		return cs_lg_bad("%s chain callbacks may not sleep",
				 cs_lg_chain_names[chain]);
	if (b->sleep_ms && func != CS_LG_FN_SLEEP)
		return cs_lg_bad("sleep_ms is only for sleep, not %s", sym);
	if (func != CS_LG_FN_NEST) {
		if (a->set & BIT(CS_LG_OPT_NEST))
			return cs_lg_bad("nest= is only for the nest callback");
		return 0;
	}
	if (!(a->set & BIT(CS_LG_OPT_NEST)))
		return cs_lg_bad("the nest callback needs nest=CHAIN");
	if (b->nest == chain)
		return cs_lg_bad("a chain may not nest into itself");
	if (cs_lg_chain_atomic(chain) && !cs_lg_chain_atomic(b->nest))
		return cs_lg_bad("%s chain callbacks may only nest into atomic or raw",
				 cs_lg_chain_names[chain]);
	return 0;
}

/* ---------------------------------------------------------------------
 * Blocks
 */

static void cs_lg_block_unlink(struct cs_lg_block *b)
{
	lockdep_assert_held(&cs_lg_mutex);
	list_del(&b->node);
	cs_lg_nr_blocks--;
	if (b->func == CS_LG_FN_NEST) {
		cs_lg_nest_from[b->chain]--;
		cs_lg_nest_into[b->nest]--;
	}
	kfree(b);
}

/* Unregister and free; a block that is still registered is kept. */
static int cs_lg_block_del(struct cs_lg_block *b)
{
	int err = cs_lg_unregister(b);

	if (err && err != -ENOENT) {
		pr_err("cannot unregister block %d from %s: %d\n", b->id,
		       cs_lg_chain_names[b->chain], err);
		return err;
	}
	cs_lg_block_unlink(b);
	return err;
}

static int cs_lg_clear_locked(void)
{
	struct cs_lg_block *b, *tmp;
	int err, first = 0;

	lockdep_assert_held(&cs_lg_mutex);
	list_for_each_entry_safe(b, tmp, &cs_lg_blocks, node) {
		err = cs_lg_block_del(b);
		if (err && !first)
			first = err;
	}
	return first;
}

static int cs_lg_add(char **pos, struct cs_lg_args *a, bool unique)
{
	enum cs_lg_chain chain;
	enum cs_lg_func func;
	struct cs_lg_block *b;
	int err;

	err = cs_lg_parse_chain(pos[0], &chain);
	if (!err)
		err = cs_lg_parse_func(pos[1], &func);
	if (err)
		return err;
	if (unique && chain != CS_LG_ATOMIC && chain != CS_LG_BLOCKING)
		return cs_lg_bad("add_unique works on the atomic and blocking chains only");

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	err = cs_lg_block_init(b, chain, func, a);
	if (err)
		goto out_free;

	mutex_lock(&cs_lg_mutex);
	if (cs_lg_nr_blocks >= CS_LG_MAX_BLOCKS) {
		pr_warn("too many blocks (max %d)\n", CS_LG_MAX_BLOCKS);
		err = -ENOSPC;
		goto out_unlock;
	}
	if (func == CS_LG_FN_NEST &&
	    (cs_lg_nest_into[chain] || cs_lg_nest_from[b->nest])) {
		err = cs_lg_bad("nest %s -> %s would nest more than one level",
				cs_lg_chain_names[chain],
				cs_lg_chain_names[b->nest]);
		goto out_unlock;
	}
	b->id = cs_lg_next_id;
	err = cs_lg_register(b, unique);
	if (err) {
		if (verbose)
			pr_info("registering on %s failed: %d\n",
				cs_lg_chain_names[chain], err);
		goto out_unlock;
	}
	list_add_tail(&b->node, &cs_lg_blocks);
	cs_lg_nr_blocks++;
	cs_lg_next_id++;
	WRITE_ONCE(cs_lg_last_id, b->id);
	if (func == CS_LG_FN_NEST) {
		cs_lg_nest_from[chain]++;
		cs_lg_nest_into[b->nest]++;
	}
	mutex_unlock(&cs_lg_mutex);
	return 0;

out_unlock:
	mutex_unlock(&cs_lg_mutex);
out_free:
	kfree(b);
	return err;
}

static int cs_lg_cmd_add(char **pos, struct cs_lg_args *a)
{
	return cs_lg_add(pos, a, false);
}

static int cs_lg_cmd_add_unique(char **pos, struct cs_lg_args *a)
{
	return cs_lg_add(pos, a, true);
}

static int cs_lg_cmd_del(char **pos, struct cs_lg_args *a)
{
	struct cs_lg_block *b;
	int id, err = -ENOENT;

	if (kstrtoint(pos[0], 0, &id))
		return cs_lg_bad("bad block id '%s'", pos[0]);

	mutex_lock(&cs_lg_mutex);
	list_for_each_entry(b, &cs_lg_blocks, node) {
		if (b->id == id) {
			err = cs_lg_block_del(b);
			break;
		}
	}
	mutex_unlock(&cs_lg_mutex);
	return err;
}

/*
 * forget ID: take blocking block ID off its chain behind the notifier
 * API's back, as a driver that edits the list itself would: no event, and
 * a later "del ID" gets -ENOENT for a block that was registered. A
 * provocation for chainscope check (rule membership-enoent), the same
 * on every kernel. The rwsem held for writing keeps callers out.
 */
static int cs_lg_cmd_forget(char **pos, struct cs_lg_args *a)
{
	struct blocking_notifier_head *nh = &cs_loadgen_blocking;
	struct notifier_block __rcu **p;
	struct notifier_block *cur;
	struct cs_lg_block *b;
	int id, err = -ENOENT;

	if (kstrtoint(pos[0], 0, &id))
		return cs_lg_bad("bad block id '%s'", pos[0]);

	mutex_lock(&cs_lg_mutex);
	list_for_each_entry(b, &cs_lg_blocks, node) {
		if (b->id != id)
			continue;
		if (b->chain != CS_LG_BLOCKING) {
			err = cs_lg_bad("forget works on the blocking chain only");
			break;
		}
		down_write(&nh->rwsem);
		for (p = &nh->head;
		     (cur = rcu_dereference_protected(*p, lockdep_is_held(&nh->rwsem)));
		     p = &cur->next) {
			if (cur != &b->nb)
				continue;
			rcu_assign_pointer(*p, rcu_dereference_protected(cur->next, true));
			err = 0;
			break;
		}
		up_write(&nh->rwsem);
		break;
	}
	mutex_unlock(&cs_lg_mutex);
	return err;
}

static int cs_lg_cmd_clear(char **pos, struct cs_lg_args *a)
{
	int err;

	mutex_lock(&cs_lg_mutex);
	err = cs_lg_clear_locked();
	mutex_unlock(&cs_lg_mutex);
	return err;
}

/* ---------------------------------------------------------------------
 * Synchronous calls: writing task, hardirq, softirq
 */

static int cs_lg_cmd_call(char **pos, struct cs_lg_args *a)
{
	enum cs_lg_chain chain;
	unsigned long i, n;
	int err;

	err = cs_lg_parse_chain(pos[0], &chain);
	if (!err)
		err = cs_lg_parse_count("call count", pos[1], &n);
	if (err)
		return err;

	for (i = 0; i < n; i++) {
		cs_lg_call(chain, a->val);
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	return 0;
}

static int cs_lg_cmd_robust(char **pos, struct cs_lg_args *a)
{
	enum cs_lg_chain chain;
	unsigned long i, n;
	int err;

	err = cs_lg_parse_chain(pos[0], &chain);
	if (!err)
		err = cs_lg_parse_count("call count", pos[1], &n);
	if (err)
		return err;
	if (chain != CS_LG_BLOCKING && chain != CS_LG_RAW)
		return cs_lg_bad("robust works on the blocking and raw chains only");

	for (i = 0; i < n; i++) {
		err = cs_lg_call_robust(chain, a->val_up, a->val_down);
		if (verbose && err)
			pr_info("robust %s: %d\n", cs_lg_chain_names[chain], err);
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	return 0;
}

/* One irq or timer command in flight. */
struct cs_lg_async {
	struct irq_work work;
	struct hrtimer timer;
	struct completion done;
	enum cs_lg_chain chain;
	unsigned long val;
	unsigned long left;
	bool stop;
};

static void cs_lg_irq_fn(struct irq_work *work)
{
	struct cs_lg_async *c = container_of(work, struct cs_lg_async, work);

	cs_lg_call(c->chain, c->val);
	atomic_long_inc(&cs_lg_irq_calls);
}

static enum hrtimer_restart cs_lg_timer_fn(struct hrtimer *timer)
{
	struct cs_lg_async *c = container_of(timer, struct cs_lg_async, timer);

	cs_lg_call(c->chain, c->val);
	atomic_long_inc(&cs_lg_timer_calls);
	if (--c->left && !READ_ONCE(c->stop)) {
		hrtimer_forward_now(timer, ns_to_ktime(CS_LG_TIMER_NS));
		return HRTIMER_RESTART;
	}
	complete(&c->done);
	return HRTIMER_NORESTART;
}

static int cs_lg_async_prepare(char **pos, struct cs_lg_args *a,
			       const char *cmd, struct cs_lg_async **cp)
{
	enum cs_lg_chain chain;
	struct cs_lg_async *c;
	unsigned long n;
	int err;

	err = cs_lg_parse_chain(pos[0], &chain);
	if (!err)
		err = cs_lg_parse_count("call count", pos[1], &n);
	if (err)
		return err;
	/* Blocks on atomic/raw never sleep, nor do the chains they nest into. */
	if (!cs_lg_chain_atomic(chain))
		return cs_lg_bad("%s works on the atomic and raw chains only", cmd);

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->chain = chain;
	c->val = a->val;
	c->left = n;
	*cp = c;
	return 0;
}

static int cs_lg_cmd_irq(char **pos, struct cs_lg_args *a)
{
	struct cs_lg_async *c;
	int err;

	err = cs_lg_async_prepare(pos, a, "irq", &c);
	if (err)
		return err;

	c->work = IRQ_WORK_INIT_HARD(cs_lg_irq_fn);
	for (; c->left; c->left--) {
		irq_work_queue(&c->work);
		irq_work_sync(&c->work);
		if (fatal_signal_pending(current)) {
			err = -EINTR;
			break;
		}
		cond_resched();
	}
	kfree(c);
	return err;
}

static int cs_lg_cmd_timer(char **pos, struct cs_lg_args *a)
{
	struct cs_lg_async *c;
	int err;

	err = cs_lg_async_prepare(pos, a, "timer", &c);
	if (err)
		return err;
	if (!c->left)
		goto out;

	init_completion(&c->done);
	hrtimer_init(&c->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	c->timer.function = cs_lg_timer_fn;
	hrtimer_start(&c->timer, ns_to_ktime(CS_LG_TIMER_NS),
		      HRTIMER_MODE_REL_SOFT);
	if (wait_for_completion_killable(&c->done)) {
		WRITE_ONCE(c->stop, true);
		err = -EINTR;
	}
	/* Also waits for the callback that completed us to return. */
	hrtimer_cancel(&c->timer);
out:
	kfree(c);
	return err;
}

/* ---------------------------------------------------------------------
 * Threads
 */

struct cs_lg_thread {
	struct list_head node;		/* in cs_lg_threads */
	struct task_struct *task;	/* reference held */
	enum cs_lg_chain chain;
	unsigned long count;		/* calls or cycles, 0 = until stopped */
	unsigned long val;
	bool finished;			/* thread function returned */
	struct cs_lg_block blk;		/* writers: private block */
};

static void cs_lg_thread_done(struct cs_lg_thread *t)
{
	if (t->count)
		atomic_dec(&cs_lg_finite_running);
	atomic_dec(&cs_lg_running);
	/* Pairs with smp_load_acquire() in cs_lg_reap_locked(). */
	smp_store_release(&t->finished, true);
	wake_up_all(&cs_lg_wq);
}

static int cs_lg_caller_fn(void *arg)
{
	struct cs_lg_thread *t = arg;
	unsigned long i;

	for (i = 0; !t->count || i < t->count; i++) {
		if (kthread_should_stop())
			break;
		cs_lg_call(t->chain, t->val);
		atomic_long_inc(&cs_lg_callers_calls);
		cond_resched();
	}
	cs_lg_thread_done(t);
	return 0;
}

static int cs_lg_writer_fn(void *arg)
{
	struct cs_lg_thread *t = arg;
	unsigned long i;
	int err;

	for (i = 0; !t->count || i < t->count; i++) {
		if (kthread_should_stop())
			break;
		err = cs_lg_register(&t->blk, false);
		if (err) {
			pr_warn_ratelimited("writer: register on %s failed: %d\n",
					    cs_lg_chain_names[t->chain], err);
			break;
		}
		cond_resched();
		err = cs_lg_unregister(&t->blk);
		if (err) {
			/* Only -ENOENT: the block is not on the chain. */
			pr_err("writer: unregister from %s failed: %d\n",
			       cs_lg_chain_names[t->chain], err);
			break;
		}
		atomic_long_inc(&cs_lg_writers_cycles);
		cond_resched();
	}
	cs_lg_thread_done(t);
	return 0;
}

/* Stop and free threads: all of them, or those that finished. */
static void cs_lg_reap_locked(bool all)
{
	struct cs_lg_thread *t, *tmp;

	lockdep_assert_held(&cs_lg_mutex);
	list_for_each_entry_safe(t, tmp, &cs_lg_threads, node) {
		/* Pairs with smp_store_release() in cs_lg_thread_done(). */
		if (!all && !smp_load_acquire(&t->finished))
			continue;
		kthread_stop(t->task);
		/* Stopped before its thread function could run. */
		if (!t->finished)
			cs_lg_thread_done(t);
		put_task_struct(t->task);
		list_del(&t->node);
		cs_lg_nr_threads--;
		kfree(t);
	}
}

static int cs_lg_start(enum cs_lg_chain chain, const char *snthreads,
		       const char *scount, bool writer, struct cs_lg_args *a)
{
	struct cs_lg_thread *t, *tmp;
	struct task_struct *task;
	unsigned long nthreads, count;
	LIST_HEAD(fresh);
	int err;
	unsigned long i;

	err = cs_lg_parse_count("thread count", snthreads, &nthreads);
	if (!err)
		err = cs_lg_parse_count(writer ? "cycle count" : "call count",
					scount, &count);
	if (err)
		return err;
	if (!nthreads || nthreads > CS_LG_MAX_THREADS)
		return cs_lg_bad("thread count must be 1..%d", CS_LG_MAX_THREADS);
	if (writer) {
		struct cs_lg_block check = {};

		if (!(a->set & BIT(CS_LG_OPT_FUNC)))
			a->func = CS_LG_FN_FAST;
		if (a->func == CS_LG_FN_NEST)
			return cs_lg_bad("writers cannot use the nest callback");
		err = cs_lg_block_init(&check, chain, a->func, a);
		if (err)
			return err;
	}

	mutex_lock(&cs_lg_mutex);
	cs_lg_reap_locked(false);
	if (cs_lg_nr_threads + nthreads > CS_LG_MAX_THREADS) {
		pr_warn("too many threads (%u running, max %d)\n",
			cs_lg_nr_threads, CS_LG_MAX_THREADS);
		err = -ENOSPC;
		goto out_unlock;
	}
	for (i = 0; i < nthreads; i++) {
		t = kzalloc(sizeof(*t), GFP_KERNEL);
		if (!t) {
			err = -ENOMEM;
			goto out_undo;
		}
		t->chain = chain;
		t->count = count;
		t->val = a->val;
		t->blk.id = -1;
		if (writer)
			cs_lg_block_init(&t->blk, chain, a->func, a);
		task = kthread_create(writer ? cs_lg_writer_fn : cs_lg_caller_fn,
				      t, "cslg_%s_%c/%u", writer ? "wr" : "call",
				      cs_lg_chain_names[chain][0],
				      cs_lg_thread_seq++);
		if (IS_ERR(task)) {
			err = PTR_ERR(task);
			kfree(t);
			goto out_undo;
		}
		get_task_struct(task);
		t->task = task;
		list_add_tail(&t->node, &fresh);
	}
	list_for_each_entry(t, &fresh, node) {
		atomic_inc(&cs_lg_running);
		if (count)
			atomic_inc(&cs_lg_finite_running);
		wake_up_process(t->task);
	}
	list_splice_tail(&fresh, &cs_lg_threads);
	cs_lg_nr_threads += nthreads;
	mutex_unlock(&cs_lg_mutex);
	return 0;

out_undo:
	/* None of them has run: kthread_stop() skips the thread function. */
	list_for_each_entry_safe(t, tmp, &fresh, node) {
		kthread_stop(t->task);
		put_task_struct(t->task);
		kfree(t);
	}
out_unlock:
	mutex_unlock(&cs_lg_mutex);
	return err;
}

static int cs_lg_cmd_callers(char **pos, struct cs_lg_args *a)
{
	enum cs_lg_chain chain;
	int err;

	err = cs_lg_parse_chain(pos[0], &chain);
	if (err)
		return err;
	return cs_lg_start(chain, pos[1], pos[2], false, a);
}

static int cs_lg_cmd_writers(char **pos, struct cs_lg_args *a)
{
	enum cs_lg_chain chain;
	int err;

	err = cs_lg_parse_chain(pos[0], &chain);
	if (err)
		return err;
	return cs_lg_start(chain, pos[1], pos[2], true, a);
}

static int cs_lg_cmd_wait(char **pos, struct cs_lg_args *a)
{
	int err;

	err = wait_event_interruptible(cs_lg_wq,
				       !atomic_read(&cs_lg_finite_running));
	if (err)
		return err;
	mutex_lock(&cs_lg_mutex);
	cs_lg_reap_locked(false);
	mutex_unlock(&cs_lg_mutex);
	return 0;
}

static int cs_lg_cmd_stop(char **pos, struct cs_lg_args *a)
{
	mutex_lock(&cs_lg_mutex);
	cs_lg_reap_locked(true);
	mutex_unlock(&cs_lg_mutex);
	return 0;
}

/* ---------------------------------------------------------------------
 * debugfs
 */

static const struct cs_lg_cmd {
	const char *name;
	unsigned int npos;
	unsigned long opts;
	int (*fn)(char **pos, struct cs_lg_args *a);
	const char *usage;
} cs_lg_cmds[] = {
	{ "add", 2, CS_LG_BLOCK_OPTS | BIT(CS_LG_OPT_NEST), cs_lg_cmd_add,
	  "add CHAIN FUNC [prio=N] [delay_us=N] [sleep_ms=N] [ret=R] [nest=CHAIN]" },
	{ "add_unique", 2, CS_LG_BLOCK_OPTS | BIT(CS_LG_OPT_NEST),
	  cs_lg_cmd_add_unique,
	  "add_unique CHAIN FUNC prio=N [delay_us=N] [sleep_ms=N] [ret=R] [nest=CHAIN]" },
	{ "del", 1, 0, cs_lg_cmd_del, "del ID" },
	{ "forget", 1, 0, cs_lg_cmd_forget, "forget ID" },
	{ "clear", 0, 0, cs_lg_cmd_clear, "clear" },
	{ "call", 2, BIT(CS_LG_OPT_VAL), cs_lg_cmd_call, "call CHAIN N [val=V]" },
	{ "robust", 2, BIT(CS_LG_OPT_VAL_UP) | BIT(CS_LG_OPT_VAL_DOWN),
	  cs_lg_cmd_robust, "robust CHAIN N [val_up=U] [val_down=D]" },
	{ "irq", 2, BIT(CS_LG_OPT_VAL), cs_lg_cmd_irq, "irq CHAIN N [val=V]" },
	{ "timer", 2, BIT(CS_LG_OPT_VAL), cs_lg_cmd_timer,
	  "timer CHAIN N [val=V]" },
	{ "callers", 3, BIT(CS_LG_OPT_VAL), cs_lg_cmd_callers,
	  "callers CHAIN THREADS CALLS [val=V]" },
	{ "writers", 3, CS_LG_BLOCK_OPTS | BIT(CS_LG_OPT_FUNC),
	  cs_lg_cmd_writers,
	  "writers CHAIN THREADS CYCLES [func=F] [prio=N] [delay_us=N] [sleep_ms=N] [ret=R]" },
	{ "wait", 0, 0, cs_lg_cmd_wait, "wait" },
	{ "stop", 0, 0, cs_lg_cmd_stop, "stop" },
};

static int cs_lg_exec(char *buf)
{
	char *argv[CS_LG_MAX_ARGS], *pos[CS_LG_MAX_POS] = {};
	const struct cs_lg_cmd *cmd = NULL;
	struct cs_lg_args a = {};
	unsigned int argc = 0, npos = 0, i;
	char *tok;
	int err;

	while ((tok = strsep(&buf, " \t\n")) != NULL) {
		if (!*tok)
			continue;
		if (argc == CS_LG_MAX_ARGS)
			return cs_lg_bad("too many words in command");
		argv[argc++] = tok;
	}
	if (!argc)
		return cs_lg_bad("empty command");
	for (i = 0; i < ARRAY_SIZE(cs_lg_cmds); i++) {
		if (!strcmp(argv[0], cs_lg_cmds[i].name)) {
			cmd = &cs_lg_cmds[i];
			break;
		}
	}
	if (!cmd)
		return cs_lg_bad("unknown command '%s'", argv[0]);

	for (i = 1; i < argc; i++) {
		if (strchr(argv[i], '=')) {
			err = cs_lg_parse_opt(argv[i], cmd->opts, &a);
			if (err)
				return err;
		} else if (npos < cmd->npos) {
			pos[npos++] = argv[i];
		} else {
			return cs_lg_bad("usage: %s", cmd->usage);
		}
	}
	if (npos != cmd->npos)
		return cs_lg_bad("usage: %s", cmd->usage);

	err = cmd->fn(pos, &a);
	if (verbose)
		pr_info("%s: %d\n", cmd->name, err);
	return err;
}

static ssize_t cs_lg_ctl_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	char *buf;
	int err;

	if (len >= CS_LG_CMD_MAX)
		return cs_lg_bad("command longer than %d bytes", CS_LG_CMD_MAX - 1);
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	err = cs_lg_exec(buf);
	kfree(buf);
	return err ? err : len;
}

static const struct file_operations cs_lg_ctl_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = cs_lg_ctl_write,
	.llseek = noop_llseek,
};

static int cs_lg_stats_show(struct seq_file *m, void *unused)
{
	struct cs_lg_block *b;

	mutex_lock(&cs_lg_mutex);
	list_for_each_entry(b, &cs_lg_blocks, node)
		seq_printf(m, "id=%d chain=%s func=%s prio=%d delay_us=%u sleep_ms=%u ret=0x%x calls=%lu\n",
			   b->id, cs_lg_chain_names[b->chain],
			   cs_lg_funcs[b->func].sym, b->nb.priority,
			   b->delay_us, b->sleep_ms, b->ret,
			   (unsigned long)atomic_long_read(&b->calls));
	mutex_unlock(&cs_lg_mutex);
	seq_printf(m, "callers_calls=%lu writers_cycles=%lu irq_calls=%lu timer_calls=%lu threads=%d\n",
		   (unsigned long)atomic_long_read(&cs_lg_callers_calls),
		   (unsigned long)atomic_long_read(&cs_lg_writers_cycles),
		   (unsigned long)atomic_long_read(&cs_lg_irq_calls),
		   (unsigned long)atomic_long_read(&cs_lg_timer_calls),
		   atomic_read(&cs_lg_running));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cs_lg_stats);

static int cs_lg_last_id_show(struct seq_file *m, void *unused)
{
	seq_printf(m, "%d\n", READ_ONCE(cs_lg_last_id));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cs_lg_last_id);

static int __init cs_lg_init(void)
{
	/*
	 * Initialise the static SRCU now, so that cleanup_srcu_struct() at
	 * unload always finds it initialised.
	 */
	synchronize_srcu(&cs_loadgen_srcu.srcu);

	cs_lg_dir = debugfs_create_dir("cs_loadgen", NULL);
	if (IS_ERR(cs_lg_dir))
		return PTR_ERR(cs_lg_dir);
	debugfs_create_file("ctl", 0200, cs_lg_dir, NULL, &cs_lg_ctl_fops);
	debugfs_create_file("stats", 0444, cs_lg_dir, NULL, &cs_lg_stats_fops);
	debugfs_create_file("last_id", 0444, cs_lg_dir, NULL,
			    &cs_lg_last_id_fops);
	return 0;
}

static void __exit cs_lg_exit(void)
{
	/* No ctl write can be running: an open file pins the module. */
	debugfs_remove_recursive(cs_lg_dir);

	mutex_lock(&cs_lg_mutex);
	cs_lg_reap_locked(true);
	cs_lg_clear_locked();
	mutex_unlock(&cs_lg_mutex);

	/* Unregistering synchronised; no SRCU reader or callback is left. */
	cleanup_srcu_struct(&cs_loadgen_srcu.srcu);
}

module_init(cs_lg_init);
module_exit(cs_lg_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("chainscope load generator for notifier chains");
