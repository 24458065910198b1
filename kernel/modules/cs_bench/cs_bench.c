// SPDX-License-Identifier: GPL-2.0
/*
 * cs_bench - notifier chain micro-benchmarks for chainscope.
 *
 * Times the public notifier API (include/linux/notifier.h) with
 * ktime_get_ns(), so the same source runs on the stock and on the
 * chainscope kernel and the two can be compared.  Four static chains
 * (cs_bench_atomic, cs_bench_blocking, cs_bench_raw, cs_bench_srcu), each
 * with a static pool of CS_BENCH_MAX_BLOCKS blocks whose callback does
 * nothing but return NOTIFY_DONE.
 *
 * Commands are written to /sys/kernel/debug/cs_bench/ctl, one per write;
 * the write returns when the measurement is done and reading ctl then
 * gives its result, one line of "key=value" words (lists are comma
 * separated, times in ns, the ktime_get_ns() pair overhead "ovh" not yet
 * subtracted):
 *
 *   call KIND N CHUNKS      KIND chain with N blocks; CHUNKS timed loops
 *                           of "iters" calls each.
 *                           -> call kind= n= iters= ovh= ns=t1,t2,...
 *   reg KIND N REPS         KIND chain with N blocks; REPS times: register
 *                           one more block of the same priority (it goes
 *                           behind all N) and unregister it again, each
 *                           operation timed on its own.  Atomic and SRCU
 *                           unregistration include their grace period.
 *                           -> reg kind= n= reps= ovh= reg_ns=... unreg_ns=...
 *   sync REPS               synchronize_rcu() and synchronize_srcu() on
 *                           the SRCU chain's srcu_struct, timed alone.
 *                           -> sync reps= ovh= rcu_ns=... srcu_ns=...
 *   contend CALLERS WRITER N MS
 *                           blocking chain with N blocks; CALLERS kthreads
 *                           call it in a loop for MS milliseconds while,
 *                           if WRITER is 1, another kthread registers and
 *                           unregisters one block in a loop.
 *                           -> contend callers= writer= n= ms= elapsed_ns=
 *                              calls=c1,c2,... writes=
 *   pace KIND N RATE MS     KIND chain with N blocks, called RATE times a
 *                           second for MS milliseconds from the writing
 *                           task: each millisecond's share of calls back
 *                           to back, then a sleep to the next millisecond
 *                           (a load of known rate for event recorders).
 *                           -> pace kind= n= rate= ms= calls= elapsed_ns=
 *   reset                   empty every chain.
 *
 * Locking: cs_bench_mutex serialises all commands; it also is the lock
 * the raw chain needs from its user, as every raw chain operation runs
 * from a command.  During "contend", only the blocking chain is used by
 * the kthreads, and the chain's own rwsem protects it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/srcu.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#define CS_BENCH_MAX_BLOCKS	1024
#define CS_BENCH_MAX_CHUNKS	64
#define CS_BENCH_MAX_REPS	256
#define CS_BENCH_MAX_CALLERS	8
#define CS_BENCH_MAX_MS		10000
#define CS_BENCH_CMD_MAX	128
#define CS_BENCH_OUT_SIZE	16384
/* A timed loop runs about this many callbacks (at least MIN_ITERS calls). */
#define CS_BENCH_CHUNK_WORK	8192
#define CS_BENCH_MIN_ITERS	4
#define CS_BENCH_OVH_TRIES	64
#define CS_BENCH_MAX_RATE	100000000U

enum cs_bench_kind {
	CS_BENCH_ATOMIC,
	CS_BENCH_BLOCKING,
	CS_BENCH_RAW,
	CS_BENCH_SRCU,
	CS_BENCH_NR_KINDS,
};

static const char * const cs_bench_kind_names[CS_BENCH_NR_KINDS] = {
	[CS_BENCH_ATOMIC] = "atomic",
	[CS_BENCH_BLOCKING] = "blocking",
	[CS_BENCH_RAW] = "raw",
	[CS_BENCH_SRCU] = "srcu",
};

static ATOMIC_NOTIFIER_HEAD(cs_bench_atomic);
static BLOCKING_NOTIFIER_HEAD(cs_bench_blocking);
static RAW_NOTIFIER_HEAD(cs_bench_raw);
SRCU_NOTIFIER_HEAD_STATIC(cs_bench_srcu);

/* Protects everything below, and serialises all use of cs_bench_raw. */
static DEFINE_MUTEX(cs_bench_mutex);

/* cs_bench_blocks[k][0 .. cs_bench_len[k] - 1] are on chain k. */
static struct notifier_block cs_bench_blocks[CS_BENCH_NR_KINDS][CS_BENCH_MAX_BLOCKS];
static unsigned int cs_bench_len[CS_BENCH_NR_KINDS];
/* Registered and unregistered again by "reg". */
static struct notifier_block cs_bench_probe;
/* Registered and unregistered by the "contend" writer thread. */
static struct notifier_block cs_bench_writer_nb;

static u64 cs_bench_vals[2][CS_BENCH_MAX_REPS];

static char cs_bench_out[CS_BENCH_OUT_SIZE];
static size_t cs_bench_out_len;

struct cs_bench_thread {
	struct task_struct *task;
	u64 count;
	int err;
};

/* Caller threads, then the writer. */
static struct cs_bench_thread cs_bench_threads[CS_BENCH_MAX_CALLERS + 1];
static bool cs_bench_go;
static bool cs_bench_stop;
static DECLARE_WAIT_QUEUE_HEAD(cs_bench_wq);

static struct dentry *cs_bench_dir;

static __printf(1, 2) void cs_bench_printf(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	cs_bench_out_len += vscnprintf(cs_bench_out + cs_bench_out_len,
				       sizeof(cs_bench_out) - cs_bench_out_len,
				       fmt, args);
	va_end(args);
}

static void cs_bench_print_list(const char *key, const u64 *vals,
				unsigned int nr)
{
	unsigned int i;

	cs_bench_printf(" %s=", key);
	for (i = 0; i < nr; i++)
		cs_bench_printf("%s%llu", i ? "," : "", vals[i]);
}

static int cs_bench_cb(struct notifier_block *nb, unsigned long val,
		       void *data)
{
	return NOTIFY_DONE;
}

/*
 * Distinct callbacks cs_bench_cb_000, cs_bench_cb_001, ... (one
 * CS_BENCH_CB() line each in cs_bench_cbs.h, generated by gen_cbs.sh),
 * never called: attach targets for the attach-time benchmark
 * (benchattach -a, qemu/bench.sh extension attach_time), which needs as
 * many traceable functions with BTF as watched callbacks (up to 1000).
 * __used keeps them without a caller; the empty asm with the callback's
 * number keeps the bodies different, so that identical code folding
 * cannot merge them into one function.
 */
#define CS_BENCH_CB(x)							\
static noinline __used int cs_bench_cb_##x(struct notifier_block *nb,	\
					   unsigned long val, void *data) \
{									\
	asm volatile("" : : "i" (0x##x));				\
	return NOTIFY_DONE;						\
}

#include "cs_bench_cbs.h"

/*
 * The chain operations.  They are always inlined with a constant @kind,
 * so the timed code is the bare API call.
 */
static __always_inline int cs_bench_call(enum cs_bench_kind kind)
{
	switch (kind) {
	case CS_BENCH_ATOMIC:
		return atomic_notifier_call_chain(&cs_bench_atomic, 0, NULL);
	case CS_BENCH_BLOCKING:
		return blocking_notifier_call_chain(&cs_bench_blocking, 0, NULL);
	case CS_BENCH_RAW:
		return raw_notifier_call_chain(&cs_bench_raw, 0, NULL);
	case CS_BENCH_SRCU:
		return srcu_notifier_call_chain(&cs_bench_srcu, 0, NULL);
	default:
		return NOTIFY_BAD;
	}
}

static __always_inline int cs_bench_add(enum cs_bench_kind kind,
					struct notifier_block *nb)
{
	switch (kind) {
	case CS_BENCH_ATOMIC:
		return atomic_notifier_chain_register(&cs_bench_atomic, nb);
	case CS_BENCH_BLOCKING:
		return blocking_notifier_chain_register(&cs_bench_blocking, nb);
	case CS_BENCH_RAW:
		return raw_notifier_chain_register(&cs_bench_raw, nb);
	case CS_BENCH_SRCU:
		return srcu_notifier_chain_register(&cs_bench_srcu, nb);
	default:
		return -EINVAL;
	}
}

static __always_inline int cs_bench_del(enum cs_bench_kind kind,
					struct notifier_block *nb)
{
	switch (kind) {
	case CS_BENCH_ATOMIC:
		return atomic_notifier_chain_unregister(&cs_bench_atomic, nb);
	case CS_BENCH_BLOCKING:
		return blocking_notifier_chain_unregister(&cs_bench_blocking, nb);
	case CS_BENCH_RAW:
		return raw_notifier_chain_unregister(&cs_bench_raw, nb);
	case CS_BENCH_SRCU:
		return srcu_notifier_chain_unregister(&cs_bench_srcu, nb);
	default:
		return -EINVAL;
	}
}

/* Smallest time between two back-to-back ktime_get_ns() calls. */
static u64 cs_bench_overhead(void)
{
	u64 t0, t1, best = U64_MAX;
	int i;

	for (i = 0; i < CS_BENCH_OVH_TRIES; i++) {
		t0 = ktime_get_ns();
		t1 = ktime_get_ns();
		best = min(best, t1 - t0);
	}
	return best;
}

/* Bring chain @kind to @n blocks, adding or removing at the tail. */
static int cs_bench_resize(enum cs_bench_kind kind, unsigned int n)
{
	struct notifier_block *nb;
	int err;

	while (cs_bench_len[kind] < n) {
		nb = &cs_bench_blocks[kind][cs_bench_len[kind]];
		nb->notifier_call = cs_bench_cb;
		nb->priority = 0;
		err = cs_bench_add(kind, nb);
		if (err)
			return err;
		cs_bench_len[kind]++;
	}
	while (cs_bench_len[kind] > n) {
		nb = &cs_bench_blocks[kind][cs_bench_len[kind] - 1];
		err = cs_bench_del(kind, nb);
		if (err)
			return err;
		cs_bench_len[kind]--;
	}
	return 0;
}

static __always_inline u64 cs_bench_call_loop(enum cs_bench_kind kind,
					      unsigned int iters)
{
	unsigned int i;
	u64 t0;

	t0 = ktime_get_ns();
	for (i = 0; i < iters; i++)
		cs_bench_call(kind);
	return ktime_get_ns() - t0;
}

static noinline u64 cs_bench_time_calls(enum cs_bench_kind kind,
					unsigned int iters)
{
	switch (kind) {
	case CS_BENCH_ATOMIC:
		return cs_bench_call_loop(CS_BENCH_ATOMIC, iters);
	case CS_BENCH_BLOCKING:
		return cs_bench_call_loop(CS_BENCH_BLOCKING, iters);
	case CS_BENCH_RAW:
		return cs_bench_call_loop(CS_BENCH_RAW, iters);
	case CS_BENCH_SRCU:
		return cs_bench_call_loop(CS_BENCH_SRCU, iters);
	default:
		return 0;
	}
}

static int cs_bench_cmd_call(enum cs_bench_kind kind, unsigned int n,
			     unsigned int chunks)
{
	unsigned int iters, i;
	int err;

	if (n > CS_BENCH_MAX_BLOCKS || !chunks || chunks > CS_BENCH_MAX_CHUNKS)
		return -EINVAL;
	err = cs_bench_resize(kind, n);
	if (err)
		return err;

	iters = max_t(unsigned int, CS_BENCH_MIN_ITERS,
		      CS_BENCH_CHUNK_WORK / (n + 1));
	/* Warm up: first use of the code and data. */
	cs_bench_time_calls(kind, CS_BENCH_MIN_ITERS);
	for (i = 0; i < chunks; i++) {
		cs_bench_vals[0][i] = cs_bench_time_calls(kind, iters);
		cond_resched();
	}

	cs_bench_printf("call kind=%s n=%u iters=%u ovh=%llu",
			cs_bench_kind_names[kind], n, iters,
			cs_bench_overhead());
	cs_bench_print_list("ns", cs_bench_vals[0], chunks);
	cs_bench_printf("\n");
	return 0;
}

static __always_inline int cs_bench_reg_loop(enum cs_bench_kind kind,
					     unsigned int reps)
{
	struct notifier_block *nb = &cs_bench_probe;
	u64 t0, t1, t2;
	unsigned int i;
	int err;

	for (i = 0; i < reps; i++) {
		t0 = ktime_get_ns();
		err = cs_bench_add(kind, nb);
		t1 = ktime_get_ns();
		if (err)
			return err;
		err = cs_bench_del(kind, nb);
		t2 = ktime_get_ns();
		if (err)
			return err;
		cs_bench_vals[0][i] = t1 - t0;
		cs_bench_vals[1][i] = t2 - t1;
		cond_resched();
	}
	return 0;
}

static noinline int cs_bench_time_reg(enum cs_bench_kind kind,
				      unsigned int reps)
{
	switch (kind) {
	case CS_BENCH_ATOMIC:
		return cs_bench_reg_loop(CS_BENCH_ATOMIC, reps);
	case CS_BENCH_BLOCKING:
		return cs_bench_reg_loop(CS_BENCH_BLOCKING, reps);
	case CS_BENCH_RAW:
		return cs_bench_reg_loop(CS_BENCH_RAW, reps);
	case CS_BENCH_SRCU:
		return cs_bench_reg_loop(CS_BENCH_SRCU, reps);
	default:
		return -EINVAL;
	}
}

static int cs_bench_cmd_reg(enum cs_bench_kind kind, unsigned int n,
			    unsigned int reps)
{
	int err;

	if (n > CS_BENCH_MAX_BLOCKS || !reps || reps > CS_BENCH_MAX_REPS)
		return -EINVAL;
	err = cs_bench_resize(kind, n);
	if (err)
		return err;

	cs_bench_probe.notifier_call = cs_bench_cb;
	cs_bench_probe.priority = 0;
	err = cs_bench_time_reg(kind, reps);
	if (err)
		return err;

	cs_bench_printf("reg kind=%s n=%u reps=%u ovh=%llu",
			cs_bench_kind_names[kind], n, reps, cs_bench_overhead());
	cs_bench_print_list("reg_ns", cs_bench_vals[0], reps);
	cs_bench_print_list("unreg_ns", cs_bench_vals[1], reps);
	cs_bench_printf("\n");
	return 0;
}

static int cs_bench_cmd_sync(unsigned int reps)
{
	unsigned int i;
	u64 t0;

	if (!reps || reps > CS_BENCH_MAX_REPS)
		return -EINVAL;
	for (i = 0; i < reps; i++) {
		t0 = ktime_get_ns();
		synchronize_rcu();
		cs_bench_vals[0][i] = ktime_get_ns() - t0;
		t0 = ktime_get_ns();
		synchronize_srcu(&cs_bench_srcu.srcu);
		cs_bench_vals[1][i] = ktime_get_ns() - t0;
	}

	cs_bench_printf("sync reps=%u ovh=%llu", reps, cs_bench_overhead());
	cs_bench_print_list("rcu_ns", cs_bench_vals[0], reps);
	cs_bench_print_list("srcu_ns", cs_bench_vals[1], reps);
	cs_bench_printf("\n");
	return 0;
}

/* Park a finished thread until kthread_stop(). */
static void cs_bench_park(void)
{
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
}

static int cs_bench_caller_fn(void *arg)
{
	struct cs_bench_thread *t = arg;
	u64 n = 0;

	wait_event(cs_bench_wq, READ_ONCE(cs_bench_go));
	while (!READ_ONCE(cs_bench_stop)) {
		blocking_notifier_call_chain(&cs_bench_blocking, 0, NULL);
		if (!(++n & 63))
			cond_resched();
	}
	t->count = n;
	cs_bench_park();
	return 0;
}

static int cs_bench_writer_fn(void *arg)
{
	struct cs_bench_thread *t = arg;
	struct notifier_block *nb = &cs_bench_writer_nb;
	u64 n = 0;

	wait_event(cs_bench_wq, READ_ONCE(cs_bench_go));
	while (!READ_ONCE(cs_bench_stop)) {
		t->err = blocking_notifier_chain_register(&cs_bench_blocking, nb);
		if (t->err)
			break;
		t->err = blocking_notifier_chain_unregister(&cs_bench_blocking, nb);
		if (t->err)
			break;
		n++;
		cond_resched();
	}
	t->count = n;
	cs_bench_park();
	return 0;
}

static int cs_bench_cmd_contend(unsigned int callers, unsigned int writer,
				unsigned int n, unsigned int ms)
{
	unsigned int nr = 0, i;
	struct cs_bench_thread *t;
	u64 t0, elapsed = 0;
	int err;

	if (!callers || callers > CS_BENCH_MAX_CALLERS || writer > 1 ||
	    n > CS_BENCH_MAX_BLOCKS || !ms || ms > CS_BENCH_MAX_MS)
		return -EINVAL;
	err = cs_bench_resize(CS_BENCH_BLOCKING, n);
	if (err)
		return err;

	cs_bench_writer_nb.notifier_call = cs_bench_cb;
	cs_bench_writer_nb.priority = 0;
	WRITE_ONCE(cs_bench_go, false);
	WRITE_ONCE(cs_bench_stop, false);
	for (i = 0; i < callers + writer; i++) {
		t = &cs_bench_threads[i];
		t->count = 0;
		t->err = 0;
		if (i < callers)
			t->task = kthread_create(cs_bench_caller_fn, t,
						 "cs_bench_call/%u", i);
		else
			t->task = kthread_create(cs_bench_writer_fn, t,
						 "cs_bench_write");
		if (IS_ERR(t->task)) {
			err = PTR_ERR(t->task);
			goto stop;
		}
		nr++;
		wake_up_process(t->task);
	}

	t0 = ktime_get_ns();
	WRITE_ONCE(cs_bench_go, true);
	wake_up_all(&cs_bench_wq);
	msleep(ms);
	WRITE_ONCE(cs_bench_stop, true);
	elapsed = ktime_get_ns() - t0;

stop:
	WRITE_ONCE(cs_bench_stop, true);
	WRITE_ONCE(cs_bench_go, true);
	wake_up_all(&cs_bench_wq);
	for (i = 0; i < nr; i++)
		kthread_stop(cs_bench_threads[i].task);
	if (err)
		return err;
	if (writer && cs_bench_threads[callers].err)
		return cs_bench_threads[callers].err;

	cs_bench_printf("contend callers=%u writer=%u n=%u ms=%u elapsed_ns=%llu",
			callers, writer, n, ms, elapsed);
	for (i = 0; i < callers; i++)
		cs_bench_vals[0][i] = cs_bench_threads[i].count;
	cs_bench_print_list("calls", cs_bench_vals[0], callers);
	cs_bench_printf(" writes=%llu\n",
			writer ? cs_bench_threads[callers].count : 0);
	return 0;
}

static int cs_bench_cmd_pace(enum cs_bench_kind kind, unsigned int n,
			     unsigned int rate, unsigned int ms)
{
	u64 t0, now, slot_end, target, calls = 0;
	u64 end = (u64)ms * NSEC_PER_MSEC;
	int err;

	if (n > CS_BENCH_MAX_BLOCKS || !rate || rate > CS_BENCH_MAX_RATE ||
	    !ms || ms > CS_BENCH_MAX_MS)
		return -EINVAL;
	err = cs_bench_resize(kind, n);
	if (err)
		return err;

	t0 = ktime_get_ns();
	for (;;) {
		now = ktime_get_ns() - t0;
		if (now >= end)
			break;
		/* calls due by the end of the current millisecond */
		slot_end = (div64_u64(now, NSEC_PER_MSEC) + 1) * NSEC_PER_MSEC;
		target = div64_u64((u64)rate * slot_end, NSEC_PER_SEC);
		while (calls < target) {
			cs_bench_call(kind);
			calls++;
		}
		now = ktime_get_ns() - t0;
		if (now < slot_end)
			usleep_range(div64_u64(slot_end - now, NSEC_PER_USEC),
				     div64_u64(slot_end - now, NSEC_PER_USEC) + 20);
		else
			cond_resched();
	}
	now = ktime_get_ns() - t0;

	cs_bench_printf("pace kind=%s n=%u rate=%u ms=%u calls=%llu elapsed_ns=%llu\n",
			cs_bench_kind_names[kind], n, rate, ms, calls, now);
	return 0;
}

static int cs_bench_reset(void)
{
	int kind, err;

	for (kind = 0; kind < CS_BENCH_NR_KINDS; kind++) {
		err = cs_bench_resize(kind, 0);
		if (err)
			return err;
	}
	return 0;
}

static int cs_bench_parse_kind(const char *s, enum cs_bench_kind *kind)
{
	int i = match_string(cs_bench_kind_names, CS_BENCH_NR_KINDS, s);

	if (i < 0) {
		pr_warn("unknown chain kind '%s' (atomic, blocking, raw, srcu)\n",
			s);
		return -EINVAL;
	}
	*kind = i;
	return 0;
}

/* Run one command line; the caller holds cs_bench_mutex. */
static int cs_bench_run(char *line)
{
	unsigned int a, b, c, d;
	enum cs_bench_kind kind;
	char word[16], name[16];
	int err;

	if (sscanf(line, "%15s", word) != 1)
		return -EINVAL;

	if (!strcmp(word, "call") || !strcmp(word, "reg")) {
		if (sscanf(line, "%*s %15s %u %u", name, &a, &b) != 3)
			return -EINVAL;
		err = cs_bench_parse_kind(name, &kind);
		if (err)
			return err;
		if (word[0] == 'c')
			return cs_bench_cmd_call(kind, a, b);
		return cs_bench_cmd_reg(kind, a, b);
	}
	if (!strcmp(word, "sync")) {
		if (sscanf(line, "%*s %u", &a) != 1)
			return -EINVAL;
		return cs_bench_cmd_sync(a);
	}
	if (!strcmp(word, "contend")) {
		if (sscanf(line, "%*s %u %u %u %u", &a, &b, &c, &d) != 4)
			return -EINVAL;
		return cs_bench_cmd_contend(a, b, c, d);
	}
	if (!strcmp(word, "pace")) {
		if (sscanf(line, "%*s %15s %u %u %u", name, &a, &b, &c) != 4)
			return -EINVAL;
		err = cs_bench_parse_kind(name, &kind);
		if (err)
			return err;
		return cs_bench_cmd_pace(kind, a, b, c);
	}
	if (!strcmp(word, "reset"))
		return cs_bench_reset();

	pr_warn("unknown command '%s' (call, reg, sync, contend, pace, reset)\n",
		word);
	return -EINVAL;
}

static ssize_t cs_bench_ctl_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	char line[CS_BENCH_CMD_MAX];
	int err;

	if (!count || count >= sizeof(line))
		return -EINVAL;
	if (copy_from_user(line, ubuf, count))
		return -EFAULT;
	line[count] = '\0';

	mutex_lock(&cs_bench_mutex);
	cs_bench_out_len = 0;
	cs_bench_out[0] = '\0';
	err = cs_bench_run(line);
	if (err) {
		pr_warn("command failed (%d): %s", err, line);
		cs_bench_out_len = 0;
	}
	mutex_unlock(&cs_bench_mutex);
	return err ? err : count;
}

static ssize_t cs_bench_ctl_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&cs_bench_mutex);
	ret = simple_read_from_buffer(ubuf, count, ppos, cs_bench_out,
				      cs_bench_out_len);
	mutex_unlock(&cs_bench_mutex);
	return ret;
}

static const struct file_operations cs_bench_ctl_fops = {
	.owner = THIS_MODULE,
	.read = cs_bench_ctl_read,
	.write = cs_bench_ctl_write,
	.llseek = default_llseek,
};

static int __init cs_bench_init(void)
{
	cs_bench_dir = debugfs_create_dir("cs_bench", NULL);
	debugfs_create_file("ctl", 0600, cs_bench_dir, NULL,
			    &cs_bench_ctl_fops);
	return 0;
}

static void __exit cs_bench_exit(void)
{
	debugfs_remove_recursive(cs_bench_dir);
	mutex_lock(&cs_bench_mutex);
	if (cs_bench_reset())
		pr_err("cannot empty the chains; blocks stay registered\n");
	mutex_unlock(&cs_bench_mutex);
}

module_init(cs_bench_init);
module_exit(cs_bench_exit);

MODULE_DESCRIPTION("notifier chain micro-benchmarks for chainscope");
MODULE_LICENSE("GPL");
