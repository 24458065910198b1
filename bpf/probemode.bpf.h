/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope `probes` mode: the notifier event stream of our core's
 * tracepoints, synthesised on any kernel from
 *  - fentry/fexit on the exported chain API (pass begin/end, membership),
 *  - one kprobe.multi + one kretprobe.multi link per batch of watched
 *    callbacks, cookie = index into cs_pm_slots (run/return/stop).
 *
 * An object defines the five hooks below (static, same argument meanings
 * as the notifier:* tracepoints; an unused hook has an empty body) and
 * then includes this header, after vmlinux.h, the libbpf headers,
 * chainscope.bpf.h and exec_ctx.bpf.h (it includes cb_pair.bpf.h, which
 * pairs a callback's entry with its return in both modes):
 *
 *   cs_pm_call_begin(head, kind, val, nr_to_call, type)
 *   cs_pm_call_end(head, kind, val, nr_to_call, type, ret, nr_calls)
 *   cs_pm_run(cb, head, nb, kind, val, priority)
 *   cs_pm_return(cb, head, nb, kind, val, priority, ret, duration_ns, nr_calls)
 *   cs_pm_membership(rec_type, cb, head, nb, priority, err, kind)
 *
 * User space (userspace/live/probes.c) picks the programs (every pm_*
 * program whose target this kernel lacks stays unloaded), fills
 * cs_pm_nbs/cs_pm_cbmap from its chain walks and attaches the callback
 * links; heads not seen before arrive through cs_pm_msgs.
 *
 * Event synthesis follows kernel/notifier.c (our core) so that both modes
 * give the same stream:
 *  - plain passes: call_begin at fentry (nr_to_call -1, as every caller
 *    of the exported API passes), call_end at fexit with the function's
 *    return and the number of callbacks seen returning;
 *  - robust passes: when a callback of the ROBUST pass returns with
 *    NOTIFY_STOP_MASK, the pass ends there (call_end ROBUST) and a
 *    ROLLBACK pass with val_down and nr_to_call = ran - 1 begins; it ends
 *    at fexit, with the last rollback callback's return (or NOTIFY_DONE);
 *  - a callback is an event only when its nb is a watched block whose
 *    callback is this very function and a pass of its chain is the
 *    innermost open pass of this (task, context); anything else is
 *    counted in cs_pm_stats, never silently dropped.
 */
#ifndef CHAINSCOPE_PROBEMODE_BPF_H
#define CHAINSCOPE_PROBEMODE_BPF_H

#include "probemode.h"
#include "record.h"
#include "cb_pair.bpf.h"

/*
 * The chain API's passes (fentry/fexit of *_notifier_call_chain) are
 * stacked per (task, execution context): an interrupt's passes nest
 * inside what it interrupts, and bpf_get_current_task() there returns
 * the interrupted task, so each pair has a stack of its own.
 */
struct cs_pm_key {
	__u64 task;
	__u32 ctx;
	__u32 __pad;
};

static __always_inline void cs_pm_key_init(struct cs_pm_key *key)
{
	key->task = (__u64)bpf_get_current_task();
	key->ctx = cs_exec_ctx();
	key->__pad = 0;
}

/* The hooks, defined by the including object. */
static __always_inline void cs_pm_call_begin(void *head, int kind, unsigned long val,
					     int nr_to_call, int type);
static __always_inline void cs_pm_call_end(void *head, int kind, unsigned long val,
					   int nr_to_call, int type, int ret, int nr_calls);
static __always_inline void cs_pm_run(void *cb, void *head, void *nb, int kind,
				      unsigned long val, int priority);
/* nr_calls: the callbacks of the pass that ran, this one included */
static __always_inline void cs_pm_return(void *cb, void *head, void *nb, int kind,
					 unsigned long val, int priority, int ret,
					 __u64 duration_ns, int nr_calls);
static __always_inline void cs_pm_membership(int rec_type, void *cb, void *head, void *nb,
					     int priority, int err, int kind);

/* enum notifier_chain_kind (not in a stock kernel's BTF) */
#define CS_PM_RAW	0
#define CS_PM_ATOMIC	1
#define CS_PM_BLOCKING	2
#define CS_PM_SRCU	3

/* die_chain is static: its address comes from user space (kallsyms) */
const volatile __u64 cs_pm_die_chain = 0;
/* -c: every other head is ignored from its first sight (0: watch all) */
const volatile __u64 cs_pm_only_head = 0;

/* cookie -> callback address, set by user space before each attach */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, CS_PM_MAX_CBS);
	__type(key, __u32);
	__type(value, __u64);
} cs_pm_slots SEC(".maps");

/* callback address -> slot: which callbacks are attached */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CS_PM_MAX_CBS);
	__type(key, __u64);
	__type(value, __u32);
} cs_pm_cbmap SEC(".maps");

/* nb -> its chain: from the walks (user space) and register fexits */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CS_PM_MAX_NBS);
	__type(key, __u64);
	__type(value, struct cs_pm_nb);
} cs_pm_nbs SEC(".maps");

/* heads seen; see enum cs_pm_head_state */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CS_PM_MAX_HEADS);
	__type(key, __u64);
	__type(value, struct cs_pm_head);
} cs_pm_heads SEC(".maps");

/* head -> passes before its callbacks were attached */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CS_PM_MAX_HEADS);
	__type(key, __u64);
	__type(value, __u64);
} cs_pm_early SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} cs_pm_msgs SEC(".maps");

/*
 * [0] = 1 once user space has attached everything: before that, an exit
 * without its entry is a call that was running when we attached (fexits
 * go in before fentries), not worth counting.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cs_pm_armed SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CS_PM_STAT_MAX);
	__type(key, __u32);
	__type(value, __u64);
} cs_pm_stats SEC(".maps");

/* Open passes per (task, execution context); running callbacks: cb_pair.bpf.h */
struct cs_pm_pass {
	__u64 head;
	__u64 val;		/* of the current pass (val_down once rolled back) */
	__u64 val_down;		/* robust calls */
	__s32 kind;
	__u32 type;		/* CS_CALL_* */
	__s32 nr_to_call;
	__s32 nr_calls;		/* callbacks of this pass seen returning */
	__s32 ret;		/* the last one's return */
	__u32 skip;		/* early (callbacks not attached): no events */
};

struct cs_pm_passes {
	__u32 depth;
	__u32 __pad;
	struct cs_pm_pass frames[CS_MAX_DEPTH];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CS_PM_MAX_TASKS);
	__type(key, struct cs_pm_key);
	__type(value, struct cs_pm_passes);
} cs_pm_pass_stacks SEC(".maps");

/* register_die_notifier() -> atomic_notifier_chain_register(): one event */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, __u32);
} cs_pm_die_reg SEC(".maps");

static struct cs_pm_passes cs_pm_zero_passes;

static __always_inline void cs_pm_stat_inc(__u32 idx)
{
	__u64 *v = bpf_map_lookup_elem(&cs_pm_stats, &idx);

	if (v)
		*v += 1;
}

/* an exit without its entry: counted once everything is attached */
static __always_inline void cs_pm_unpaired(void)
{
	__u32 zero = 0, *armed = bpf_map_lookup_elem(&cs_pm_armed, &zero);

	if (armed && *armed)
		cs_pm_stat_inc(CS_PM_STAT_UNPAIRED);
}

static __always_inline void cs_pm_notify(__u32 type, void *head, int kind, __u64 cb,
					 __u64 nb)
{
	struct cs_pm_msg *m = bpf_ringbuf_reserve(&cs_pm_msgs, sizeof(*m), 0);

	if (!m) {
		cs_pm_stat_inc(CS_PM_STAT_MSG_LOST);
		return;
	}
	m->head = (__u64)head;
	m->cb = cb;
	m->nb = nb;
	m->kind = kind;
	m->type = type;
	bpf_ringbuf_submit(m, 0);
}

/* A head is used: report it if new. Returns its entry (may be NULL). */
static __always_inline struct cs_pm_head *cs_pm_head_note(void *head, int kind)
{
	__u64 key = (__u64)head;
	struct cs_pm_head *h = bpf_map_lookup_elem(&cs_pm_heads, &key);
	struct cs_pm_head init = { .kind = kind, .state = CS_PM_HEAD_NEW };

	if (h)
		return h;
	if (cs_pm_only_head && key != cs_pm_only_head) {
		init.state = CS_PM_HEAD_IGNORED;
		bpf_map_update_elem(&cs_pm_heads, &key, &init, BPF_NOEXIST);
		return bpf_map_lookup_elem(&cs_pm_heads, &key);
	}
	if (!bpf_map_update_elem(&cs_pm_heads, &key, &init, BPF_NOEXIST))
		cs_pm_notify(CS_PM_MSG_HEAD, head, kind, 0, 0);
	return bpf_map_lookup_elem(&cs_pm_heads, &key);
}

/*
 * A pass of a chain whose callbacks are not attached yet (just
 * discovered, or a callback registered and not attached yet) would have
 * callbacks missing from it: it is not an event at all, only counted
 * (cs_pm_early, per head). Its frame is still pushed, marked skip, so
 * that its exit and its callbacks are recognised.
 */
static __always_inline void cs_pm_pass_enter(void *head, int kind, unsigned long val,
					     unsigned long val_down, int type)
{
	struct cs_pm_head *h = cs_pm_head_note(head, kind);
	struct cs_pm_passes *st;
	struct cs_pm_key key;
	__u32 d, skip = 0;

	if (h && h->state == CS_PM_HEAD_IGNORED)
		return;
	if (!h || h->state != CS_PM_HEAD_ATTACHED) {
		__u64 hkey = (__u64)head, zero = 0, *n;

		n = cs_lookup_or_init(&cs_pm_early, &hkey, &zero);
		if (n)
			__sync_fetch_and_add(n, 1);
		cs_pm_stat_inc(CS_PM_STAT_EARLY);
		skip = 1;
	}
	cs_pm_key_init(&key);
	st = cs_lookup_or_init(&cs_pm_pass_stacks, &key, &cs_pm_zero_passes);
	if (!st)
		return;
	d = st->depth;
	if (d < CS_MAX_DEPTH) {
		struct cs_pm_pass *f = &st->frames[d & (CS_MAX_DEPTH - 1)];

		f->head = (__u64)head;
		f->val = val;
		f->val_down = val_down;
		f->kind = kind;
		f->type = type;
		f->nr_to_call = -1;
		f->nr_calls = 0;
		f->ret = CS_NOTIFY_DONE;
		f->skip = skip;
	} else {
		/* no frame for its end either: neither end is an event */
		cs_pm_stat_inc(CS_PM_STAT_PASS_DEEP);
		skip = 1;
	}
	st->depth = d + 1;
	if (!skip)
		cs_pm_call_begin(head, kind, val, -1, type);
}

static __always_inline void cs_pm_pass_exit(void *head, int kind, int ret)
{
	struct cs_pm_passes *st;
	struct cs_pm_pass *f;
	struct cs_pm_key key;
	__u32 d, i;

	cs_pm_key_init(&key);
	st = bpf_map_lookup_elem(&cs_pm_pass_stacks, &key);
	if (!st || !st->depth) {
		__u64 hkey = (__u64)head;
		struct cs_pm_head *h = bpf_map_lookup_elem(&cs_pm_heads, &hkey);

		/* began before we attached, or an ignored chain */
		if (!h || h->state != CS_PM_HEAD_IGNORED)
			cs_pm_unpaired();
		return;
	}
	d = st->depth - 1;
	if (d >= CS_MAX_DEPTH) {
		st->depth = d;
		return;
	}
	/* the innermost pass of this head (entries of ignored heads never pushed) */
	for (i = 0; i < CS_MAX_DEPTH; i++) {
		if (i > d)
			break;
		if (st->frames[(d - i) & (CS_MAX_DEPTH - 1)].head == (__u64)head)
			break;
	}
	if (i > d || i >= CS_MAX_DEPTH)
		return;		/* an ignored head's exit, or no frame of it */
	if (i)
		cs_pm_unpaired();
	d -= i;
	f = &st->frames[d & (CS_MAX_DEPTH - 1)];
	st->depth = d;
	if (f->type == CS_CALL_ROLLBACK)
		ret = f->ret;
	if (!f->skip)
		cs_pm_call_end(head, kind, f->val, f->nr_to_call, f->type, ret,
			       f->nr_calls);
	if (!d)
		bpf_map_delete_elem(&cs_pm_pass_stacks, &key);
}

/* (Un)registration outcome; nb is a trusted fexit argument. */
static __always_inline void cs_pm_update(int rec_type, void *head, int kind,
					 struct notifier_block *nb, int err)
{
	struct cs_pm_head *h = cs_pm_head_note(head, kind);
	__u64 cb = (__u64)BPF_CORE_READ(nb, notifier_call);
	int prio = BPF_CORE_READ(nb, priority);
	__u64 key = (__u64)nb;

	if (kind == CS_PM_ATOMIC && (__u64)head == cs_pm_die_chain) {
		__u64 task = (__u64)bpf_get_current_task();
		__u32 *st = bpf_map_lookup_elem(&cs_pm_die_reg, &task);

		if (st)
			*st = 2;	/* the inner call reports it */
	}
	if (!err && rec_type == CS_REC_REGISTER) {
		struct cs_pm_nb v = { .head = (__u64)head, .cb = cb, .kind = kind,
				      .priority = prio };

		bpf_map_update_elem(&cs_pm_nbs, &key, &v, BPF_ANY);
		if (!bpf_map_lookup_elem(&cs_pm_cbmap, &cb) && h &&
		    h->state != CS_PM_HEAD_IGNORED) {
			if (h->state == CS_PM_HEAD_ATTACHED)
				h->state = CS_PM_HEAD_PENDING;
			cs_pm_notify(CS_PM_MSG_CB, head, kind, cb, key);
		}
	} else if (!err && rec_type == CS_REC_UNREGISTER) {
		bpf_map_delete_elem(&cs_pm_nbs, &key);
	}
	if (h && h->state == CS_PM_HEAD_IGNORED)
		return;
	cs_pm_membership(rec_type, (void *)cb, head, nb, prio, err, kind);
}

/* --- the exported API --------------------------------------------------- */

#define CS_PM_CALL(fn, kind)							\
SEC("fentry/" #fn)								\
int BPF_PROG(pm_##fn##_in, void *nh, unsigned long val)			\
{										\
	cs_pm_pass_enter(nh, kind, val, 0, CS_CALL_PLAIN);			\
	return 0;								\
}										\
SEC("fexit/" #fn)								\
int BPF_PROG(pm_##fn##_out, void *nh, unsigned long val, void *v, int ret)	\
{										\
	cs_pm_pass_exit(nh, kind, ret);						\
	return 0;								\
}

#define CS_PM_ROBUST(fn, kind)							\
SEC("fentry/" #fn)								\
int BPF_PROG(pm_##fn##_in, void *nh, unsigned long up, unsigned long down)	\
{										\
	cs_pm_pass_enter(nh, kind, up, down, CS_CALL_ROBUST);			\
	return 0;								\
}										\
SEC("fexit/" #fn)								\
int BPF_PROG(pm_##fn##_out, void *nh, unsigned long up, unsigned long down,	\
	     void *v, int ret)							\
{										\
	cs_pm_pass_exit(nh, kind, ret);						\
	return 0;								\
}

#define CS_PM_UPDATE(fn, kind, op)						\
SEC("fexit/" #fn)								\
int BPF_PROG(pm_##fn, void *nh, struct notifier_block *nb, int ret)		\
{										\
	cs_pm_update(ret ? op##_ERROR : op, nh, kind, nb, ret);			\
	return 0;								\
}

CS_PM_CALL(atomic_notifier_call_chain, CS_PM_ATOMIC)
CS_PM_CALL(blocking_notifier_call_chain, CS_PM_BLOCKING)
CS_PM_CALL(raw_notifier_call_chain, CS_PM_RAW)
CS_PM_CALL(srcu_notifier_call_chain, CS_PM_SRCU)
CS_PM_ROBUST(blocking_notifier_call_chain_robust, CS_PM_BLOCKING)
CS_PM_ROBUST(raw_notifier_call_chain_robust, CS_PM_RAW)

CS_PM_UPDATE(atomic_notifier_chain_register, CS_PM_ATOMIC, CS_REC_REGISTER)
CS_PM_UPDATE(atomic_notifier_chain_register_unique_prio, CS_PM_ATOMIC, CS_REC_REGISTER)
CS_PM_UPDATE(atomic_notifier_chain_unregister, CS_PM_ATOMIC, CS_REC_UNREGISTER)
CS_PM_UPDATE(blocking_notifier_chain_register, CS_PM_BLOCKING, CS_REC_REGISTER)
CS_PM_UPDATE(blocking_notifier_chain_register_unique_prio, CS_PM_BLOCKING, CS_REC_REGISTER)
CS_PM_UPDATE(blocking_notifier_chain_unregister, CS_PM_BLOCKING, CS_REC_UNREGISTER)
CS_PM_UPDATE(raw_notifier_chain_register, CS_PM_RAW, CS_REC_REGISTER)
CS_PM_UPDATE(raw_notifier_chain_unregister, CS_PM_RAW, CS_REC_UNREGISTER)
CS_PM_UPDATE(srcu_notifier_chain_register, CS_PM_SRCU, CS_REC_REGISTER)
CS_PM_UPDATE(srcu_notifier_chain_unregister, CS_PM_SRCU, CS_REC_UNREGISTER)

/*
 * register_die_notifier() calls atomic_notifier_chain_register() on
 * die_chain; if the compiler inlined that call, only the outer function
 * reports the outcome (cs_pm_die_reg: 1 = outer running, 2 = inner seen).
 */
SEC("fentry/register_die_notifier")
int BPF_PROG(pm_register_die_notifier_in, struct notifier_block *nb)
{
	__u64 task = (__u64)bpf_get_current_task();
	__u32 one = 1;

	bpf_map_update_elem(&cs_pm_die_reg, &task, &one, BPF_ANY);
	return 0;
}

SEC("fexit/register_die_notifier")
int BPF_PROG(pm_register_die_notifier_out, struct notifier_block *nb, int ret)
{
	__u64 task = (__u64)bpf_get_current_task();
	__u32 *st = bpf_map_lookup_elem(&cs_pm_die_reg, &task);
	bool inner = st && *st == 2;

	bpf_map_delete_elem(&cs_pm_die_reg, &task);
	if (!inner && cs_pm_die_chain)
		cs_pm_update(ret ? CS_REC_REGISTER_ERROR : CS_REC_REGISTER,
			     (void *)cs_pm_die_chain, CS_PM_ATOMIC, nb, ret);
	return 0;
}

SEC("fentry/unregister_die_notifier")
int BPF_PROG(pm_unregister_die_notifier_in, struct notifier_block *nb)
{
	__u64 task = (__u64)bpf_get_current_task();
	__u32 one = 1;

	bpf_map_update_elem(&cs_pm_die_reg, &task, &one, BPF_ANY);
	return 0;
}

SEC("fexit/unregister_die_notifier")
int BPF_PROG(pm_unregister_die_notifier_out, struct notifier_block *nb, int ret)
{
	__u64 task = (__u64)bpf_get_current_task();
	__u32 *st = bpf_map_lookup_elem(&cs_pm_die_reg, &task);
	bool inner = st && *st == 2;

	bpf_map_delete_elem(&cs_pm_die_reg, &task);
	if (!inner && cs_pm_die_chain)
		cs_pm_update(ret ? CS_REC_UNREGISTER_ERROR : CS_REC_UNREGISTER,
			     (void *)cs_pm_die_chain, CS_PM_ATOMIC, nb, ret);
	return 0;
}

/* --- the callbacks --------------------------------------------------------- */

/* The innermost open pass of this (task, context), if it is head's. */
static __always_inline struct cs_pm_pass *cs_pm_top_pass(struct cs_pm_key *key, __u64 head)
{
	struct cs_pm_passes *st = bpf_map_lookup_elem(&cs_pm_pass_stacks, key);
	struct cs_pm_pass *f;
	__u32 d;

	if (!st || !st->depth || st->depth > CS_MAX_DEPTH)
		return NULL;
	d = st->depth - 1;
	f = &st->frames[d & (CS_MAX_DEPTH - 1)];
	return f->head == head ? f : NULL;
}

SEC("kprobe.multi")
int BPF_KPROBE(pm_cb_entry, struct notifier_block *nb, unsigned long val)
{
	__u32 slot = (__u32)bpf_get_attach_cookie(ctx);
	__u64 key = (__u64)nb, *cb = bpf_map_lookup_elem(&cs_pm_slots, &slot);
	struct cs_pm_nb *info = bpf_map_lookup_elem(&cs_pm_nbs, &key);
	struct cs_pm_key skey;
	struct cs_pm_cb *f;
	__u32 skip = 0;
	bool deep;

	if (!cb)
		return 0;
	cs_pm_key_init(&skey);
	if (!info || info->cb != *cb) {
		/* not a block of a watched chain, or not this block's callback */
		cs_pm_stat_inc(CS_PM_STAT_UNKNOWN_NB);
		skip = 1;
	} else {
		struct cs_pm_pass *p = cs_pm_top_pass(&skey, info->head);

		if (!p)
			cs_pm_stat_inc(CS_PM_STAT_OUTSIDE);
		/* an early pass's callbacks are no events either (counted with it) */
		skip = !p || p->skip;
	}
	f = cs_cb_push(&deep);
	if (!f) {
		if (deep)
			cs_pm_stat_inc(CS_PM_STAT_CB_DEEP);
		return 0;
	}
	f->cb = *cb;
	f->skip = skip;
	if (skip)
		return 0;
	f->nb = key;
	f->head = info->head;
	f->val = val;
	f->kind = info->kind;
	f->priority = info->priority;
	cs_pm_run((void *)*cb, (void *)info->head, nb, info->kind, val, info->priority);
	f->ts = bpf_ktime_get_ns();
	return 0;
}

SEC("kretprobe.multi")
int BPF_KRETPROBE(pm_cb_exit, int ret)
{
	__u64 now = bpf_ktime_get_ns(), dur;
	__u32 slot = (__u32)bpf_get_attach_cookie(ctx);
	__u64 *cb = bpf_map_lookup_elem(&cs_pm_slots, &slot);
	struct cs_pm_key skey;
	struct cs_pm_pass *p;
	struct cs_pm_cb f;
	int ran = 0, r;

	if (!cb)
		return 0;
	cs_pm_key_init(&skey);
	r = cs_cb_pop(*cb, &f, &ran);
	if (r == CS_CB_DEEP)
		return 0;
	if (r != CS_CB_PAIRED) {
		cs_pm_unpaired();
		return 0;
	}
	ran = 0;	/* the pass's own count, below */
	if (f.skip)
		return 0;
	dur = now - f.ts;
	if (!dur)
		dur = 1;	/* as cs_cb_return(): a timed call is never 0 ns */
	p = cs_pm_top_pass(&skey, f.head);
	if (p) {
		p->nr_calls++;
		p->ret = ret;
		ran = p->nr_calls;
	}
	cs_pm_return((void *)f.cb, (void *)f.head, (void *)f.nb, f.kind, f.val,
		     f.priority, ret, dur, ran);
	if (!(ret & CS_NOTIFY_STOP_MASK))
		return 0;
	if (p && p->type == CS_CALL_ROBUST) {
		/* our core: call_end ROBUST, then the rollback pass */
		cs_pm_call_end((void *)p->head, p->kind, p->val, -1, CS_CALL_ROBUST, ret, ran);
		p->type = CS_CALL_ROLLBACK;
		p->val = p->val_down;
		p->nr_to_call = ran - 1;
		p->nr_calls = 0;
		p->ret = CS_NOTIFY_DONE;
		cs_pm_call_begin((void *)p->head, p->kind, p->val, ran - 1, CS_CALL_ROLLBACK);
	}
	return 0;
}

#endif /* CHAINSCOPE_PROBEMODE_BPF_H */
