// SPDX-License-Identifier: GPL-2.0-only
/*
 * Notifier chains, with tracepoints.
 *
 * A notifier chain is a singly linked list of struct notifier_block,
 * linked through the RCU-protected ->next pointer and kept sorted by
 * ->priority in DESCENDING order: the block with the highest priority is
 * called first, and a newly registered block goes behind the blocks that
 * already have its priority, so equal priorities run in registration
 * order.
 *
 * A call walks the chain, passing (val, v) to each callback, until
 * nr_to_call callbacks have run (negative: no limit) or one returns a
 * value with NOTIFY_STOP_MASK set.  It returns the value of the last
 * callback that ran, or NOTIFY_DONE if none did.  The next pointer is
 * read before a callback runs, so a callback of a raw chain may unregister
 * its own block.  A robust call sends val_up down the chain and, if a callback
 * stops it, val_down to the callbacks that ran before that one; it
 * returns the NOTIFY_* value of the val_up pass, which callers convert
 * with notifier_to_errno().
 *
 * Locking, per kind of chain:
 *
 *  atomic:   writers hold ->lock (spinlock, IRQs off); unregistration
 *	      then waits for an RCU grace period.  Calls run under
 *	      rcu_read_lock() and may come from any context, NMI included
 *	      (the die chain, see notify_die()).
 *  blocking: writers take ->rwsem for writing, callers for reading.  A
 *	      call on an empty chain returns without touching the rwsem.
 *  raw:      no locking at all; the caller provides it.
 *  srcu:     writers hold ->mutex; unregistration then waits for an SRCU
 *	      grace period.  Calls run inside an SRCU read-side section.
 *
 * Blocking and SRCU chains are (un)registered without their lock while
 * system_state is SYSTEM_BOOTING: only one CPU runs then and sleeping
 * locks cannot be used yet.
 *
 * Tracing (include/trace/events/notifier.h): two static keys, private to
 * this file, are switched by the registration hooks of the events.
 * notifier_call_trace_key is on while any event about chain calls is
 * enabled, notifier_member_trace_key while any (un)registration event is.
 * Each call entry point tests the call key once and either runs the plain
 * walk, which is the same loop as without tracepoints, or the traced
 * variant.  Both are generated from one __always_inline body with a
 * constant "traced" argument, so with tracing off a chain call costs a
 * single static-branch NOP more than before (a load and a branch without
 * CONFIG_JUMP_LABEL) and nothing per callback.  (Un)registration likewise
 * tests the membership key once, on entry, and runs either the bare list
 * surgery or an out-of-line traced copy that reports to the events, so
 * that with tracing off it costs one static-branch NOP more than before.
 * Without CONFIG_TRACEPOINTS the keys, the hooks and every traced variant
 * compile away.
 *
 * The die chain is called from the int3 and other exception handlers: the
 * functions of this file on the atomic call path, traced variants
 * included, are NOKPROBE, and with them the plain walk,
 * notifier_call_chain(), inlined into each.  What they
 * call elsewhere keeps its own annotations: the code the events generate,
 * __traceiter_<event>() and trace_event_raw_event_<event>(), which runs
 * on the traced die-chain path, is not NOKPROBE; no tracepoint's
 * generated code is.
 */

#include <linux/bug.h>
#include <linux/export.h>
#include <linux/jump_label.h>
#include <linux/kdebug.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <linux/reboot.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/srcu.h>

#ifdef CONFIG_TRACEPOINTS
/*
 * The registration hooks of the notifier events (the _FN argument of
 * their definitions): each enabled event holds one reference on the key
 * of its kind.
 */
static DEFINE_STATIC_KEY_FALSE(notifier_call_trace_key);
static DEFINE_STATIC_KEY_FALSE(notifier_member_trace_key);

static int notifier_call_trace_reg(void)
{
	static_branch_inc(&notifier_call_trace_key);
	return 0;
}

static void notifier_call_trace_unreg(void)
{
	static_branch_dec(&notifier_call_trace_key);
}

static int notifier_member_trace_reg(void)
{
	static_branch_inc(&notifier_member_trace_key);
	return 0;
}

static void notifier_member_trace_unreg(void)
{
	static_branch_dec(&notifier_member_trace_key);
}

#define notifier_calls_traced() \
	static_branch_unlikely(&notifier_call_trace_key)
#define notifier_members_traced() \
	static_branch_unlikely(&notifier_member_trace_key)
#else
#define notifier_calls_traced()		false
#define notifier_members_traced()	false
#endif

#define CREATE_TRACE_POINTS
#include <trace/events/notifier.h>

/*
 * Kernel code that wants to know about shutdown, e.g. to stop DMA, hangs
 * off this chain (see register_reboot_notifier()).
 */
BLOCKING_NOTIFIER_HEAD(reboot_notifier_list);

/*
 * List surgery.  Writers are serialised by the chain's lock (@lock), by
 * running alone during early boot (@lock NULL), or, on raw chains, by
 * the caller.  Under PROVE_RCU every protected dereference checks that
 * the writer holds @lock; otherwise the check compiles away.
 */
static __always_inline bool notifier_writer_holds(const void *lock,
						  enum notifier_chain_kind kind)
{
	if (!lock)
		return true;
	switch (kind) {
	case NOTIFIER_CHAIN_ATOMIC:
		return lockdep_is_held((const spinlock_t *)lock);
	case NOTIFIER_CHAIN_BLOCKING:
		return lockdep_is_held_type((const struct rw_semaphore *)lock, 0);
	case NOTIFIER_CHAIN_SRCU:
		return lockdep_is_held((const struct mutex *)lock);
	default:
		return true;	/* raw: the caller's own lock, unknown here */
	}
}

#define notifier_deref_locked(p, lock, kind) \
	rcu_dereference_protected(p, notifier_writer_holds(lock, kind))

static int notifier_link(struct notifier_block __rcu **pos,
			 struct notifier_block *nb, bool unique_prio,
			 const void *lock, enum notifier_chain_kind kind)
{
	struct notifier_block *cur;

	while ((cur = notifier_deref_locked(*pos, lock, kind))) {
		if (unlikely(cur == nb)) {
			WARN(1, "notifier callback %ps already registered",
			     nb->notifier_call);
			return -EEXIST;
		}
		/* Insert in front of the first lower-priority block. */
		if (cur->priority < nb->priority)
			break;
		if (unique_prio && cur->priority == nb->priority)
			return -EBUSY;
		pos = &cur->next;
	}

	RCU_INIT_POINTER(nb->next, cur);
	rcu_assign_pointer(*pos, nb);
	return 0;
}

static int notifier_unlink(struct notifier_block __rcu **pos,
			   struct notifier_block *nb, const void *lock,
			   enum notifier_chain_kind kind)
{
	struct notifier_block *cur;

	for (; (cur = notifier_deref_locked(*pos, lock, kind));
	     pos = &cur->next) {
		if (cur != nb)
			continue;
		/* Readers still on @nb keep following its ->next. */
		rcu_assign_pointer(*pos, notifier_deref_locked(nb->next, lock,
							       kind));
		return 0;
	}
	return -ENOENT;
}

/* What a chain's (un)registration helper is asked to do with a block. */
enum notifier_op {
	NOTIFIER_OP_ADD,
	NOTIFIER_OP_ADD_UNIQUE_PRIO,
	NOTIFIER_OP_DEL,
};

/* Report an (un)registration to its events. */
static void notifier_trace_update(void *head, enum notifier_chain_kind kind,
				  struct notifier_block *nb,
				  enum notifier_op op, int err)
{
	void *cb = (void *)nb->notifier_call;

	if (op == NOTIFIER_OP_DEL) {
		if (err)
			trace_notifier_unregister_error(cb, head, nb, nb->priority, kind, err);
		else
			trace_notifier_unregister(cb, head, nb, nb->priority, kind);
	} else {
		if (err)
			trace_notifier_register_error(cb, head, nb, nb->priority, kind, err);
		else
			trace_notifier_register(cb, head, nb, nb->priority, kind);
	}
}

/*
 * Carry out @op on the chain at @first, writers already serialised, and,
 * if @traced, report the outcome to the (un)registration events.  Always
 * inlined, so that @op and @traced are constants in every caller: a plain
 * registration then walks the chain without testing for unique
 * priorities, and the untraced one is the bare list surgery.  Like the
 * call paths, each (un)registration tests its static key once, on entry,
 * and runs either the untraced update or an out-of-line traced one.
 */
static __always_inline int
notifier_update(struct notifier_block __rcu **first, void *head,
		enum notifier_chain_kind kind, struct notifier_block *nb,
		enum notifier_op op, const void *lock, const bool traced)
{
	int err;

	if (op == NOTIFIER_OP_DEL)
		err = notifier_unlink(first, nb, lock, kind);
	else
		err = notifier_link(first, nb, op == NOTIFIER_OP_ADD_UNIQUE_PRIO,
				    lock, kind);
	if (traced)
		notifier_trace_update(head, kind, nb, op, err);
	return err;
}

/*
 * One callback, traced.  @nb may be gone once the callback returns (it
 * may unregister itself from a raw chain and free itself), so everything
 * the events need is read beforehand.  notifier_run shares its class
 * with notifier_return: it passes NOTIFY_DONE for the return value the
 * callback has not produced yet (its text leaves it out).
 */
static __always_inline int
notifier_call_one_traced(struct notifier_block *nb, void *head,
			 enum notifier_chain_kind kind, unsigned long val,
			 void *v)
{
	notifier_fn_t fn = nb->notifier_call;
	int prio = nb->priority;
	int ret;

	trace_notifier_run((void *)fn, head, nb, prio, kind, val, NOTIFY_DONE);
	ret = fn(nb, val, v);
	trace_notifier_return((void *)fn, head, nb, prio, kind, val, ret);
	return ret;
}

/*
 * The chain walk.  With @traced false it compiles to the bare loop of
 * notifier_call_chain(); @head and @kind are then unused.  A negative
 * @nr_to_call (the plain calls pass -1) means no limit.  The number of callbacks
 * that ran is stored in *@nr_calls if that is not NULL.
 */
static __always_inline int
notifier_walk(struct notifier_block __rcu **first, void *head,
	      enum notifier_chain_kind kind, unsigned long val, void *v,
	      int nr_to_call, int *nr_calls, const bool traced)
{
	const bool limited = nr_to_call >= 0;
	struct notifier_block *nb, *next;
	int ret = NOTIFY_DONE;
	int ran = 0;

	nb = rcu_dereference_raw(*first);
	/*
	 * An empty chain returns here; the loop then needs no jump to its
	 * condition on entry, which keeps an empty call short.
	 */
	if (!traced && !nb) {
		if (nr_calls)
			*nr_calls = 0;
		return NOTIFY_DONE;
	}

	for (; nb; nb = next) {
		if (limited && !nr_to_call)
			break;
		next = rcu_dereference_raw(nb->next);

		if (IS_ENABLED(CONFIG_DEBUG_NOTIFIERS) &&
		    unlikely(!func_ptr_is_kernel_text((void *)nb->notifier_call))) {
			WARN(1, "Invalid notifier called!");
			continue;
		}

		ran++;
		if (traced)
			ret = notifier_call_one_traced(nb, head, kind, val, v);
		else
			ret = nb->notifier_call(nb, val, v);

		if (ret & NOTIFY_STOP_MASK)
			break;
		if (limited)
			nr_to_call--;
	}

	if (nr_calls)
		*nr_calls = ran;
	return ret;
}

/* The plain walk: always inlined, each call walks with its own constants. */
static __always_inline int notifier_call_chain(struct notifier_block __rcu **first,
					       unsigned long val, void *v, int nr_to_call,
					       int *nr_calls)
{
	return notifier_walk(first, NULL, NOTIFIER_CHAIN_RAW, val, v,
			     nr_to_call, nr_calls, false);
}
NOKPROBE_SYMBOL(notifier_call_chain);

/* One pass over a chain, bracketed by notifier_call_begin/end. */
static noinline int
notifier_walk_traced(struct notifier_block __rcu **first, void *head,
		     enum notifier_chain_kind kind, unsigned long val, void *v,
		     int nr_to_call, enum notifier_call_type type,
		     int *nr_calls)
{
	int ran = 0;
	int ret;

	trace_notifier_call_begin(head, kind, val, nr_to_call, type,
				  NOTIFY_DONE, 0);
	ret = notifier_walk(first, head, kind, val, v, nr_to_call, &ran, true);
	trace_notifier_call_end(head, kind, val, nr_to_call, type, ret, ran);

	if (nr_calls)
		*nr_calls = ran;
	return ret;
}

/* Reached from the die chain; without tracepoints it compiles away. */
#ifdef CONFIG_TRACEPOINTS
NOKPROBE_SYMBOL(notifier_walk_traced);
#endif

static __always_inline int
notifier_pass(struct notifier_block __rcu **first, void *head,
	      enum notifier_chain_kind kind, unsigned long val, void *v,
	      int nr_to_call, enum notifier_call_type type, int *nr_calls,
	      const bool traced)
{
	if (traced)
		return notifier_walk_traced(first, head, kind, val, v,
					    nr_to_call, type, nr_calls);
	return notifier_call_chain(first, val, v, nr_to_call, nr_calls);
}

/*
 * Robust call: send @val_up to the whole chain; if a callback stops it,
 * send @val_down to the callbacks that ran before that one, in the same
 * order.  Returns the result of the @val_up pass (a NOTIFY_* value, which
 * the callers turn into an errno with notifier_to_errno()).
 */
static __always_inline int
notifier_pass_robust(struct notifier_block __rcu **first, void *head,
		     enum notifier_chain_kind kind, unsigned long val_up,
		     unsigned long val_down, void *v, const bool traced)
{
	int ran = 0;
	int ret;

	ret = notifier_pass(first, head, kind, val_up, v, -1,
			    NOTIFIER_CALL_ROBUST, &ran, traced);
	if (ret & NOTIFY_STOP_MASK)
		notifier_pass(first, head, kind, val_down, v, ran - 1,
			      NOTIFIER_CALL_ROLLBACK, NULL, traced);
	return ret;
}

/*
 * begin/end events for a blocking chain found empty before locking: a
 * traced pass over a local empty list, so that notifier_walk_traced()
 * stays the only caller of trace_notifier_call_begin/end().
 */
static void notifier_trace_empty(void *head, enum notifier_chain_kind kind,
				 unsigned long val,
				 enum notifier_call_type type)
{
	struct notifier_block __rcu *none = NULL;

	notifier_walk_traced(&none, head, kind, val, NULL, -1, type, NULL);
}

/*
 *	Atomic notifier chains
 */

static __always_inline int atomic_chain_call(struct atomic_notifier_head *nh,
					     unsigned long val, void *v,
					     const bool traced)
{
	int ret;

	rcu_read_lock();
	ret = notifier_pass(&nh->head, nh, NOTIFIER_CHAIN_ATOMIC, val, v, -1,
			    NOTIFIER_CALL_PLAIN, NULL, traced);
	rcu_read_unlock();
	return ret;
}

static noinline int atomic_chain_call_traced(struct atomic_notifier_head *nh,
					     unsigned long val, void *v)
{
	return atomic_chain_call(nh, val, v, true);
}

#ifdef CONFIG_TRACEPOINTS
NOKPROBE_SYMBOL(atomic_chain_call_traced);
#endif

/*
 * Every (un)registration on an atomic chain: under ->lock with IRQs off,
 * and, for a removal, followed by an RCU grace period so that no call
 * still walks through the block when this returns.
 */
static __always_inline int
__atomic_chain_update(struct atomic_notifier_head *nh,
		      struct notifier_block *nb, enum notifier_op op,
		      const bool traced)
{
	unsigned long flags;
	int err;

	spin_lock_irqsave(&nh->lock, flags);
	err = notifier_update(&nh->head, nh, NOTIFIER_CHAIN_ATOMIC, nb, op,
			      &nh->lock, traced);
	spin_unlock_irqrestore(&nh->lock, flags);

	if (op == NOTIFIER_OP_DEL)
		synchronize_rcu();
	return err;
}

static noinline int
atomic_chain_update_traced(struct atomic_notifier_head *nh,
			   struct notifier_block *nb, enum notifier_op op)
{
	return __atomic_chain_update(nh, nb, op, true);
}

static __always_inline int
atomic_chain_update(struct atomic_notifier_head *nh, struct notifier_block *nb,
		    enum notifier_op op)
{
	if (notifier_members_traced())
		return atomic_chain_update_traced(nh, nb, op);
	return __atomic_chain_update(nh, nb, op, false);
}

/**
 * atomic_notifier_chain_register - add a block to an atomic notifier chain
 * @nh: the chain
 * @nb: the block; it is called before blocks of lower priority
 *
 * May be called from atomic context.
 *
 * Return: 0, or -EEXIST if @nb is already on the chain.
 */
int atomic_notifier_chain_register(struct atomic_notifier_head *nh, struct notifier_block *nb)
{
	return atomic_chain_update(nh, nb, NOTIFIER_OP_ADD);
}
EXPORT_SYMBOL_GPL(atomic_notifier_chain_register);

/**
 * atomic_notifier_chain_register_unique_prio - add a block, unless its
 *	priority is taken
 * @nh: the chain
 * @nb: the block
 *
 * Like atomic_notifier_chain_register(), but fails if some block on the
 * chain already has the priority of @nb.
 *
 * Return: 0, -EEXIST if @nb is already on the chain, or -EBUSY.
 */
int
atomic_notifier_chain_register_unique_prio(struct atomic_notifier_head *nh,
					   struct notifier_block *nb)
{
	return atomic_chain_update(nh, nb, NOTIFIER_OP_ADD_UNIQUE_PRIO);
}
EXPORT_SYMBOL_GPL(atomic_notifier_chain_register_unique_prio);

/**
 * atomic_notifier_chain_unregister - remove a block from an atomic chain
 * @nh: the chain
 * @nb: the block
 *
 * Waits for an RCU grace period, so that no call still uses @nb when this
 * returns.  Must not be called from atomic context or from a callback.
 *
 * Return: 0, or -ENOENT if @nb was not on the chain.
 */
int atomic_notifier_chain_unregister(struct atomic_notifier_head *nh, struct notifier_block *nb)
{
	return atomic_chain_update(nh, nb, NOTIFIER_OP_DEL);
}
EXPORT_SYMBOL_GPL(atomic_notifier_chain_unregister);

/**
 * atomic_notifier_call_chain - call the callbacks of an atomic chain
 * @nh: the chain
 * @val: passed to each callback as its action argument
 * @v: passed to each callback as its data argument
 *
 * Calls the callbacks in priority order, highest first, until one of
 * them returns a value with NOTIFY_STOP_MASK set.  Runs inside an RCU
 * read-side section, so callbacks must not sleep.  Any context.
 *
 * Return: the value returned by the last callback called, or NOTIFY_DONE
 * if there was none.
 */
int atomic_notifier_call_chain(struct atomic_notifier_head *nh, unsigned long val, void *v)
{
	if (notifier_calls_traced())
		return atomic_chain_call_traced(nh, val, v);
	return atomic_chain_call(nh, val, v, false);
}
EXPORT_SYMBOL_GPL(atomic_notifier_call_chain);
NOKPROBE_SYMBOL(atomic_notifier_call_chain);

/**
 * atomic_notifier_call_chain_is_empty - test for callbacks on a chain
 * @nh: the chain
 *
 * The answer is a snapshot; it may change as soon as it is returned.
 *
 * Return: true if no block is registered on @nh.
 */
bool atomic_notifier_call_chain_is_empty(struct atomic_notifier_head *nh)
{
	/* Only the pointer value is looked at: no RCU read section needed. */
	return !rcu_access_pointer(nh->head);
}

/*
 *	Blocking notifier chains
 */

/*
 * Every (un)registration on a blocking chain: under ->rwsem held for
 * writing, except during early boot, when only one CPU runs and sleeping
 * locks are not usable yet.
 */
static __always_inline int
__blocking_chain_update(struct blocking_notifier_head *nh,
			struct notifier_block *nb, enum notifier_op op,
			const bool traced)
{
	int err;

	if (unlikely(system_state == SYSTEM_BOOTING))
		return notifier_update(&nh->head, nh, NOTIFIER_CHAIN_BLOCKING,
				       nb, op, NULL, traced);

	down_write(&nh->rwsem);
	err = notifier_update(&nh->head, nh, NOTIFIER_CHAIN_BLOCKING, nb, op,
			      &nh->rwsem, traced);
	up_write(&nh->rwsem);
	return err;
}

static noinline int
blocking_chain_update_traced(struct blocking_notifier_head *nh,
			     struct notifier_block *nb, enum notifier_op op)
{
	return __blocking_chain_update(nh, nb, op, true);
}

static __always_inline int
blocking_chain_update(struct blocking_notifier_head *nh,
		      struct notifier_block *nb, enum notifier_op op)
{
	if (notifier_members_traced())
		return blocking_chain_update_traced(nh, nb, op);
	return __blocking_chain_update(nh, nb, op, false);
}

/*
 * The head is peeked at without the rwsem.  A racing (un)registration may
 * or may not be seen either way; if the chain looks non-empty, the walk
 * itself runs under the rwsem and sees a consistent list.
 */
static __always_inline int
blocking_chain_walk(struct blocking_notifier_head *nh, unsigned long val,
		    void *v, const bool traced)
{
	int ret;

	down_read(&nh->rwsem);
	ret = notifier_pass(&nh->head, nh, NOTIFIER_CHAIN_BLOCKING, val, v, -1,
			    NOTIFIER_CALL_PLAIN, NULL, traced);
	up_read(&nh->rwsem);
	return ret;
}

static __always_inline int
blocking_chain_call(struct blocking_notifier_head *nh, unsigned long val,
		    void *v, const bool traced)
{
	if (!rcu_access_pointer(nh->head)) {
		if (traced)
			notifier_trace_empty(nh, NOTIFIER_CHAIN_BLOCKING, val,
					     NOTIFIER_CALL_PLAIN);
		return NOTIFY_DONE;
	}
	return blocking_chain_walk(nh, val, v, traced);
}

/*
 * The untraced walk of a non-empty chain, out of line: the empty-chain
 * test before it then needs no stack frame.
 */
static noinline int
blocking_chain_walk_plain(struct blocking_notifier_head *nh,
			  unsigned long val, void *v)
{
	return blocking_chain_walk(nh, val, v, false);
}

static noinline int
blocking_chain_call_traced(struct blocking_notifier_head *nh,
			   unsigned long val, void *v)
{
	return blocking_chain_call(nh, val, v, true);
}

static __always_inline int
blocking_chain_call_robust(struct blocking_notifier_head *nh,
			   unsigned long val_up, unsigned long val_down,
			   void *v, const bool traced)
{
	int ret;

	if (!rcu_access_pointer(nh->head)) {
		if (traced)
			notifier_trace_empty(nh, NOTIFIER_CHAIN_BLOCKING,
					     val_up, NOTIFIER_CALL_ROBUST);
		return NOTIFY_DONE;
	}

	/* Both passes under one read hold: the chain cannot change between. */
	down_read(&nh->rwsem);
	ret = notifier_pass_robust(&nh->head, nh, NOTIFIER_CHAIN_BLOCKING,
				   val_up, val_down, v, traced);
	up_read(&nh->rwsem);
	return ret;
}

static noinline int
blocking_chain_call_robust_traced(struct blocking_notifier_head *nh,
				  unsigned long val_up, unsigned long val_down,
				  void *v)
{
	return blocking_chain_call_robust(nh, val_up, val_down, v, true);
}

/**
 * blocking_notifier_chain_register - add a block to a blocking chain
 * @nh: the chain
 * @nb: the block; it is called before blocks of lower priority
 *
 * Process context only (takes the chain's rwsem, except during boot).
 *
 * Return: 0, or -EEXIST if @nb is already on the chain.
 */
int blocking_notifier_chain_register(struct blocking_notifier_head *nh, struct notifier_block *nb)
{
	return blocking_chain_update(nh, nb, NOTIFIER_OP_ADD);
}
EXPORT_SYMBOL_GPL(blocking_notifier_chain_register);

/**
 * blocking_notifier_chain_register_unique_prio - add a block, unless its
 *	priority is taken
 * @nh: the chain
 * @nb: the block
 *
 * Like blocking_notifier_chain_register(), but fails if some block on the
 * chain already has the priority of @nb.
 *
 * Return: 0, -EEXIST if @nb is already on the chain, or -EBUSY.
 */
int
blocking_notifier_chain_register_unique_prio(struct blocking_notifier_head *nh,
					     struct notifier_block *nb)
{
	return blocking_chain_update(nh, nb, NOTIFIER_OP_ADD_UNIQUE_PRIO);
}
EXPORT_SYMBOL_GPL(blocking_notifier_chain_register_unique_prio);

/**
 * blocking_notifier_chain_unregister - remove a block from a blocking chain
 * @nh: the chain
 * @nb: the block
 *
 * Process context only; must not be called from one of the chain's
 * callbacks.  No call uses @nb any more once this returns.
 *
 * Return: 0, or -ENOENT if @nb was not on the chain.
 */
int blocking_notifier_chain_unregister(struct blocking_notifier_head *nh, struct notifier_block *nb)
{
	return blocking_chain_update(nh, nb, NOTIFIER_OP_DEL);
}
EXPORT_SYMBOL_GPL(blocking_notifier_chain_unregister);

/**
 * blocking_notifier_call_chain_robust - call a blocking chain, undoing
 *	the callbacks that ran if one of them fails
 * @nh: the chain
 * @val_up: action passed to every callback
 * @val_down: action passed, on failure, to the callbacks that had run
 * @v: data argument for the callbacks
 *
 * Calls the callbacks with @val_up, highest priority first.  If one of
 * them returns a value with NOTIFY_STOP_MASK set, the callbacks that ran
 * before it are called again, in the same order, with @val_down.  Process
 * context only.
 *
 * Return: the value returned by the last callback of the @val_up pass, or
 * NOTIFY_DONE; use notifier_to_errno() on it.
 */
int blocking_notifier_call_chain_robust(struct blocking_notifier_head *nh,
					unsigned long val_up,
					unsigned long val_down, void *v)
{
	if (notifier_calls_traced())
		return blocking_chain_call_robust_traced(nh, val_up, val_down,
							 v);
	return blocking_chain_call_robust(nh, val_up, val_down, v, false);
}
EXPORT_SYMBOL_GPL(blocking_notifier_call_chain_robust);

/**
 * blocking_notifier_call_chain - call the callbacks of a blocking chain
 * @nh: the chain
 * @val: passed to each callback as its action argument
 * @v: passed to each callback as its data argument
 *
 * Calls the callbacks in priority order, highest first, until one of
 * them returns a value with NOTIFY_STOP_MASK set.  Callbacks run in
 * process context with the chain's rwsem held for reading.
 *
 * Return: the value returned by the last callback called, or NOTIFY_DONE
 * if there was none.
 */
int blocking_notifier_call_chain(struct blocking_notifier_head *nh, unsigned long val, void *v)
{
	if (notifier_calls_traced())
		return blocking_chain_call_traced(nh, val, v);
	if (!rcu_access_pointer(nh->head))
		return NOTIFY_DONE;
	return blocking_chain_walk_plain(nh, val, v);
}
EXPORT_SYMBOL_GPL(blocking_notifier_call_chain);

/*
 *	Raw notifier chains: all locking is up to the caller.
 */

static noinline int raw_chain_update_traced(struct raw_notifier_head *nh,
					    struct notifier_block *nb,
					    enum notifier_op op)
{
	return notifier_update(&nh->head, nh, NOTIFIER_CHAIN_RAW, nb, op, NULL,
			       true);
}

static __always_inline int raw_chain_update(struct raw_notifier_head *nh,
					    struct notifier_block *nb,
					    enum notifier_op op)
{
	if (notifier_members_traced())
		return raw_chain_update_traced(nh, nb, op);
	return notifier_update(&nh->head, nh, NOTIFIER_CHAIN_RAW, nb, op, NULL,
			       false);
}

static noinline int raw_chain_call_traced(struct raw_notifier_head *nh,
					  unsigned long val, void *v)
{
	return notifier_walk_traced(&nh->head, nh, NOTIFIER_CHAIN_RAW, val, v,
				    -1, NOTIFIER_CALL_PLAIN, NULL);
}

static noinline int
raw_chain_call_robust_traced(struct raw_notifier_head *nh,
			     unsigned long val_up, unsigned long val_down,
			     void *v)
{
	return notifier_pass_robust(&nh->head, nh, NOTIFIER_CHAIN_RAW, val_up,
				    val_down, v, true);
}

/**
 * raw_notifier_chain_register - add a block to a raw notifier chain
 * @nh: the chain
 * @nb: the block; it is called before blocks of lower priority
 *
 * The caller serialises this against every other use of the chain.
 *
 * Return: 0, or -EEXIST if @nb is already on the chain.
 */
int raw_notifier_chain_register(struct raw_notifier_head *nh, struct notifier_block *nb)
{
	return raw_chain_update(nh, nb, NOTIFIER_OP_ADD);
}
EXPORT_SYMBOL_GPL(raw_notifier_chain_register);

/**
 * raw_notifier_chain_unregister - remove a block from a raw notifier chain
 * @nh: the chain
 * @nb: the block
 *
 * The caller serialises this against every other use of the chain.
 *
 * Return: 0, or -ENOENT if @nb was not on the chain.
 */
int raw_notifier_chain_unregister(struct raw_notifier_head *nh, struct notifier_block *nb)
{
	return raw_chain_update(nh, nb, NOTIFIER_OP_DEL);
}
EXPORT_SYMBOL_GPL(raw_notifier_chain_unregister);

/**
 * raw_notifier_call_chain_robust - call a raw chain, undoing the
 *	callbacks that ran if one of them fails
 * @nh: the chain
 * @val_up: action passed to every callback
 * @val_down: action passed, on failure, to the callbacks that had run
 * @v: data argument for the callbacks
 *
 * As blocking_notifier_call_chain_robust(), with the caller providing
 * all locking.
 *
 * Return: the value returned by the last callback of the @val_up pass, or
 * NOTIFY_DONE; use notifier_to_errno() on it.
 */
int raw_notifier_call_chain_robust(struct raw_notifier_head *nh,
				   unsigned long val_up,
				   unsigned long val_down, void *v)
{
	if (notifier_calls_traced())
		return raw_chain_call_robust_traced(nh, val_up, val_down, v);
	return notifier_pass_robust(&nh->head, nh, NOTIFIER_CHAIN_RAW, val_up,
				    val_down, v, false);
}
EXPORT_SYMBOL_GPL(raw_notifier_call_chain_robust);

/**
 * raw_notifier_call_chain - call the callbacks of a raw notifier chain
 * @nh: the chain
 * @val: passed to each callback as its action argument
 * @v: passed to each callback as its data argument
 *
 * Calls the callbacks in priority order, highest first, until one of
 * them returns a value with NOTIFY_STOP_MASK set.  No locking is done;
 * the caller provides it.
 *
 * Return: the value returned by the last callback called, or NOTIFY_DONE
 * if there was none.
 */
int raw_notifier_call_chain(struct raw_notifier_head *nh, unsigned long val, void *v)
{
	if (notifier_calls_traced())
		return raw_chain_call_traced(nh, val, v);
	return notifier_call_chain(&nh->head, val, v, -1, NULL);
}
EXPORT_SYMBOL_GPL(raw_notifier_call_chain);

#ifdef CONFIG_SRCU
/*
 *	SRCU notifier chains
 */

static __always_inline int srcu_chain_call(struct srcu_notifier_head *nh,
					   unsigned long val, void *v,
					   const bool traced)
{
	int idx, ret;

	idx = srcu_read_lock(&nh->srcu);
	ret = notifier_pass(&nh->head, nh, NOTIFIER_CHAIN_SRCU, val, v, -1,
			    NOTIFIER_CALL_PLAIN, NULL, traced);
	srcu_read_unlock(&nh->srcu, idx);
	return ret;
}

static noinline int srcu_chain_call_traced(struct srcu_notifier_head *nh,
					   unsigned long val, void *v)
{
	return srcu_chain_call(nh, val, v, true);
}

/*
 * Every (un)registration on an SRCU chain: under ->mutex and, for a
 * removal, followed by an SRCU grace period.  During early boot only one
 * CPU runs, the mutex is not usable yet and there are no readers to wait
 * for, so both are skipped.
 */
static __always_inline int
__srcu_chain_update(struct srcu_notifier_head *nh, struct notifier_block *nb,
		    enum notifier_op op, const bool traced)
{
	int err;

	if (unlikely(system_state == SYSTEM_BOOTING))
		return notifier_update(&nh->head, nh, NOTIFIER_CHAIN_SRCU, nb,
				       op, NULL, traced);

	mutex_lock(&nh->mutex);
	err = notifier_update(&nh->head, nh, NOTIFIER_CHAIN_SRCU, nb, op,
			      &nh->mutex, traced);
	mutex_unlock(&nh->mutex);

	if (op == NOTIFIER_OP_DEL)
		synchronize_srcu(&nh->srcu);
	return err;
}

static noinline int
srcu_chain_update_traced(struct srcu_notifier_head *nh,
			 struct notifier_block *nb, enum notifier_op op)
{
	return __srcu_chain_update(nh, nb, op, true);
}

static __always_inline int
srcu_chain_update(struct srcu_notifier_head *nh, struct notifier_block *nb,
		  enum notifier_op op)
{
	if (notifier_members_traced())
		return srcu_chain_update_traced(nh, nb, op);
	return __srcu_chain_update(nh, nb, op, false);
}

/**
 * srcu_notifier_chain_register - add a block to an SRCU notifier chain
 * @nh: the chain
 * @nb: the block; it is called before blocks of lower priority
 *
 * Process context only (takes the chain's mutex, except during boot).
 *
 * Return: 0, or -EEXIST if @nb is already on the chain.
 */
int srcu_notifier_chain_register(struct srcu_notifier_head *nh, struct notifier_block *nb)
{
	return srcu_chain_update(nh, nb, NOTIFIER_OP_ADD);
}
EXPORT_SYMBOL_GPL(srcu_notifier_chain_register);

/**
 * srcu_notifier_chain_unregister - remove a block from an SRCU chain
 * @nh: the chain
 * @nb: the block
 *
 * Waits for an SRCU grace period, so that no call still uses @nb when
 * this returns.  Process context only; never from one of the chain's
 * callbacks.
 *
 * Return: 0, or -ENOENT if @nb was not on the chain.
 */
int srcu_notifier_chain_unregister(struct srcu_notifier_head *nh, struct notifier_block *nb)
{
	return srcu_chain_update(nh, nb, NOTIFIER_OP_DEL);
}
EXPORT_SYMBOL_GPL(srcu_notifier_chain_unregister);

/**
 * srcu_notifier_call_chain - call the callbacks of an SRCU notifier chain
 * @nh: the chain
 * @val: passed to each callback as its action argument
 * @v: passed to each callback as its data argument
 *
 * Calls the callbacks in priority order, highest first, until one of
 * them returns a value with NOTIFY_STOP_MASK set.  Callbacks run in
 * process context inside an SRCU read-side section and may sleep.
 *
 * Return: the value returned by the last callback called, or NOTIFY_DONE
 * if there was none.
 */
int srcu_notifier_call_chain(struct srcu_notifier_head *nh, unsigned long val, void *v)
{
	if (notifier_calls_traced())
		return srcu_chain_call_traced(nh, val, v);
	return srcu_chain_call(nh, val, v, false);
}
EXPORT_SYMBOL_GPL(srcu_notifier_call_chain);

/**
 * srcu_init_notifier_head - set up a dynamically allocated SRCU chain head
 * @nh: the head
 *
 * Heads set up this way must be torn down with srcu_cleanup_notifier_head()
 * before their memory is freed.  Statically defined heads
 * (SRCU_NOTIFIER_HEAD()) come set up; one in a module must still be torn
 * down before the module is unloaded, so that no SRCU work is left
 * pending on it.
 */
void srcu_init_notifier_head(struct srcu_notifier_head *nh)
{
	RCU_INIT_POINTER(nh->head, NULL);
	mutex_init(&nh->mutex);
	/* Without its srcu_struct the head cannot be used at all. */
	if (init_srcu_struct(&nh->srcu))
		BUG();
}
EXPORT_SYMBOL_GPL(srcu_init_notifier_head);

#endif /* CONFIG_SRCU */

/*
 *	The die chain: told about oopses, traps and debug exceptions.
 */

static ATOMIC_NOTIFIER_HEAD(die_chain);

/*
 * Called from exception handlers, possibly in NMI context: notrace, and
 * kept away from kprobes together with everything it calls here.
 */
int notrace notify_die(enum die_val val, const char *str, struct pt_regs *regs,
		       long err, int trap, int sig)
{
	struct die_args args = {
		.regs = regs, .str = str, .err = err,
		.trapnr = trap, .signr = sig,
	};

	RCU_LOCKDEP_WARN(!rcu_is_watching(),
			   "notify_die called but RCU thinks we're quiescent");
	return atomic_notifier_call_chain(&die_chain, val, &args);
}
NOKPROBE_SYMBOL(notify_die);

/**
 * register_die_notifier - get told about oopses, traps and debug exceptions
 * @block: the notifier block; its callback gets a struct die_args as its
 *	data argument
 *
 * Return: 0, or -EEXIST if @block is already registered.
 */
int register_die_notifier(struct notifier_block *block)
{
	return atomic_chain_update(&die_chain, block, NOTIFIER_OP_ADD);
}
EXPORT_SYMBOL_GPL(register_die_notifier);

/**
 * unregister_die_notifier - undo register_die_notifier()
 * @block: the notifier block
 *
 * Return: 0, or -ENOENT if @block was not registered.
 */
int unregister_die_notifier(struct notifier_block *block)
{
	return atomic_chain_update(&die_chain, block, NOTIFIER_OP_DEL);
}
EXPORT_SYMBOL_GPL(unregister_die_notifier);
