/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints for notifier chains (kernel/notifier.c).
 *
 * Ordering: a chain is sorted by priority, HIGHEST FIRST.  The callback
 * with the largest ->priority runs first; blocks of equal priority run
 * in registration order.
 *
 * Every event carries the chain head (field "head") and the kind of
 * chain (@kind).  Events about a single callback take that callback as
 * their first argument and field, @cb, and print its name first, as the
 * one-field notifier_register, notifier_unregister and notifier_run
 * events did: text parsers, 'cb == 0x...' filters, tp_btf programs and
 * bpftrace scripts written for those keep working; the other fields follow.
 * Heads and blocks print hashed (%p): they may be heap memory.
 *
 * Two switches, set by the registration hooks of these events in
 * kernel/notifier.c: enabling any of the four membership events
 * (notifier_register, notifier_unregister and their _error variants)
 * moves only the (un)registration paths to their traced variant; any of
 * the others, the chain calls.  So watching membership does not slow
 * down a single chain call.
 *
 * Ordering against a concurrent call: notifier_register fires after the
 * block was published on the chain, and notifier_unregister after it was
 * unlinked but before the (S)RCU grace period that unregistration waits
 * for has ended.  A call running concurrently may therefore emit its
 * notifier_run for the block before the block's notifier_register, or
 * after its notifier_unregister.  Calls that begin after
 * notifier_register returned, and after the unregistration function
 * returned, are ordered as expected.
 *
 * The head argument is spelled @nh in the prototypes: perf_trace_<event>()
 * in include/trace/perf.h has a local variable named "head" that a
 * parameter of that name would collide with.  Only the C parameter name
 * differs; its position and type, and the field name "head", are as
 * specified.
 *
 * Four classes: notifier_member (notifier_register, notifier_unregister),
 * notifier_member_error (their _error variants), notifier_callback
 * (notifier_run, notifier_return) and notifier_pass (notifier_call_begin,
 * notifier_call_end).  The first event of a shared class fires before the
 * outcome is known: notifier_run passes @ret NOTIFY_DONE, and
 * notifier_call_begin @ret NOTIFY_DONE and @nr_calls 0; neither prints
 * them.
 *
 * notifier_register / notifier_unregister
 *	@nb was linked into / unlinked from the chain.
 * notifier_register_error
 *	Registration refused (@err): -EEXIST (block already on the chain)
 *	or -EBUSY (a *_register_unique_prio() call found the priority
 *	taken).
 * notifier_unregister_error
 *	Unregistration of a block that is not on the chain (-ENOENT).
 * notifier_call_begin / notifier_call_end
 *	Bracket one pass over a chain, including passes over an empty chain.
 *	@type tells a plain *_call_chain() pass from the val_up pass of a
 *	*_call_chain_robust() call and from its val_down rollback pass.
 *	@nr_to_call is -1 for "all".  notifier_call_end carries the value
 *	returned by the pass and the number of callbacks that ran.  The
 *	rollback pass is emitted whenever the val_up pass was stopped, even
 *	when the first callback stopped it (@nr_to_call is 0 then).  A call
 *	on an empty blocking chain emits both without taking the rwsem.
 * notifier_run
 *	Just before a callback is called.
 * notifier_return
 *	Just after a callback returned @ret.  If @ret has NOTIFY_STOP_MASK
 *	set, the pass ends here.  How long the callback ran is the time
 *	between its notifier_run and this event.  By then @nb may have been
 *	freed (a callback of a raw chain may unregister and free its own
 *	block); @cb and @priority were read before the call.  Do not dereference @nb here.
 *
 * The die chain (notify_die()) is an atomic chain.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM notifier

#if !defined(_TRACE_NOTIFIER_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_NOTIFIER_H

#include <linux/notifier.h>
#include <linux/tracepoint.h>

TRACE_DEFINE_ENUM(NOTIFIER_CHAIN_RAW);
TRACE_DEFINE_ENUM(NOTIFIER_CHAIN_ATOMIC);
TRACE_DEFINE_ENUM(NOTIFIER_CHAIN_BLOCKING);
TRACE_DEFINE_ENUM(NOTIFIER_CHAIN_SRCU);

TRACE_DEFINE_ENUM(NOTIFIER_CALL_PLAIN);
TRACE_DEFINE_ENUM(NOTIFIER_CALL_ROBUST);
TRACE_DEFINE_ENUM(NOTIFIER_CALL_ROLLBACK);

#define show_notifier_kind(kind)				\
	__print_symbolic(kind,					\
			 { NOTIFIER_CHAIN_RAW, "raw" },		\
			 { NOTIFIER_CHAIN_ATOMIC, "atomic" },	\
			 { NOTIFIER_CHAIN_BLOCKING, "blocking" },	\
			 { NOTIFIER_CHAIN_SRCU, "srcu" })

#define show_notifier_call_type(type)				\
	__print_symbolic(type,					\
			 { NOTIFIER_CALL_PLAIN, "plain" },	\
			 { NOTIFIER_CALL_ROBUST, "robust" },	\
			 { NOTIFIER_CALL_ROLLBACK, "rollback" })

/* Other values (errno encoded by notifier_from_errno()) print as hex. */
#define show_notifier_ret(ret)					\
	__print_symbolic(ret,					\
			 { NOTIFY_DONE, "DONE" },		\
			 { NOTIFY_OK, "OK" },			\
			 { NOTIFY_STOP, "STOP" },		\
			 { NOTIFY_BAD, "BAD" })

/*
 * Output prefix of the events about one callback: the callback's name
 * first, as the one-field notifier_register, notifier_unregister and
 * notifier_run events printed it, then the other fields.  Head and block
 * may live on the heap: they print as hashed pointers (%p), never raw.
 */
#define NOTIFIER_CB_FMT	"%ps head=%p nb=%p priority=%d kind=%s"
#define NOTIFIER_CALL_FMT "head=%p kind=%s val=%lu nr_to_call=%d type=%s"

/*
 * An event about chain calls with a text of its own: DEFINE_EVENT_PRINT
 * of @template, with the call key's registration hooks as DEFINE_EVENT_FN
 * would pass them; no macro of <linux/tracepoint.h> does both.  The hooks
 * matter only where define_trace.h defines the tracepoint, the text only
 * in the stages of trace_events.h, which alone see TRACE_SYSTEM_VAR
 * defined (perf.h and bpf_probe.h undefine it, and the two macros are
 * equivalent there): each stage gets the one it needs.
 */
#undef NOTIFIER_CALL_EVENT_PRINT
#ifdef TRACE_SYSTEM_VAR
#define NOTIFIER_CALL_EVENT_PRINT(template, name, proto, args, print)	\
	DEFINE_EVENT_PRINT(template, name, PARAMS(proto), PARAMS(args),	\
			   PARAMS(print))
#else
#define NOTIFIER_CALL_EVENT_PRINT(template, name, proto, args, ...)	\
	DEFINE_EVENT_FN(template, name, PARAMS(proto), PARAMS(args),	\
			notifier_call_trace_reg, notifier_call_trace_unreg)
#endif

DECLARE_EVENT_CLASS(notifier_member,
		    TP_PROTO(void *cb, void *nh, struct notifier_block *nb,
			     int priority, enum notifier_chain_kind kind),
		    TP_ARGS(cb, nh, nb, priority, kind),
		    TP_STRUCT__entry(__field(void *, cb)
				     __field(void *, head)
				     __field(struct notifier_block *, nb)
				     __field(int, priority)
				     __field(enum notifier_chain_kind, kind)
		    ),
		    TP_fast_assign(__entry->cb = cb;
				   __entry->head = nh;
				   __entry->nb = nb;
				   __entry->priority = priority;
				   __entry->kind = kind;
		    ),
		    TP_printk(NOTIFIER_CB_FMT,
			      __entry->cb, __entry->head, __entry->nb,
			      __entry->priority,
			      show_notifier_kind(__entry->kind)));

DEFINE_EVENT_FN(notifier_member, notifier_register,
		TP_PROTO(void *cb, void *nh, struct notifier_block *nb,
			 int priority, enum notifier_chain_kind kind),
		TP_ARGS(cb, nh, nb, priority, kind),
		notifier_member_trace_reg, notifier_member_trace_unreg);

DEFINE_EVENT_FN(notifier_member, notifier_unregister,
		TP_PROTO(void *cb, void *nh, struct notifier_block *nb,
			 int priority, enum notifier_chain_kind kind),
		TP_ARGS(cb, nh, nb, priority, kind),
		notifier_member_trace_reg, notifier_member_trace_unreg);

DECLARE_EVENT_CLASS(notifier_member_error,
		    TP_PROTO(void *cb, void *nh, struct notifier_block *nb,
			     int priority, enum notifier_chain_kind kind,
			     int err),
		    TP_ARGS(cb, nh, nb, priority, kind, err),
		    TP_STRUCT__entry(__field(void *, cb)
				     __field(void *, head)
				     __field(struct notifier_block *, nb)
				     __field(int, priority)
				     __field(enum notifier_chain_kind, kind)
				     __field(int, err)
		    ),
		    TP_fast_assign(__entry->cb = cb;
				   __entry->head = nh;
				   __entry->nb = nb;
				   __entry->priority = priority;
				   __entry->kind = kind;
				   __entry->err = err;
		    ),
		    TP_printk(NOTIFIER_CB_FMT " err=%d",
			      __entry->cb, __entry->head, __entry->nb,
			      __entry->priority,
			      show_notifier_kind(__entry->kind), __entry->err));

DEFINE_EVENT_FN(notifier_member_error, notifier_register_error,
		TP_PROTO(void *cb, void *nh, struct notifier_block *nb,
			 int priority, enum notifier_chain_kind kind, int err),
		TP_ARGS(cb, nh, nb, priority, kind, err),
		notifier_member_trace_reg, notifier_member_trace_unreg);

DEFINE_EVENT_FN(notifier_member_error, notifier_unregister_error,
		TP_PROTO(void *cb, void *nh, struct notifier_block *nb,
			 int priority, enum notifier_chain_kind kind, int err),
		TP_ARGS(cb, nh, nb, priority, kind, err),
		notifier_member_trace_reg, notifier_member_trace_unreg);

DECLARE_EVENT_CLASS(notifier_callback,
		    TP_PROTO(void *cb, void *nh, struct notifier_block *nb,
			     int priority, enum notifier_chain_kind kind,
			     unsigned long val, int ret),
		    TP_ARGS(cb, nh, nb, priority, kind, val, ret),
		    TP_STRUCT__entry(__field(void *, cb)
				     __field(void *, head)
				     __field(struct notifier_block *, nb)
				     __field(int, priority)
				     __field(enum notifier_chain_kind, kind)
				     __field(unsigned long, val)
				     __field(int, ret)
		    ),
		    TP_fast_assign(__entry->cb = cb;
				   __entry->head = nh;
				   __entry->nb = nb;
				   __entry->priority = priority;
				   __entry->kind = kind;
				   __entry->val = val;
				   __entry->ret = ret;
		    ),
		    TP_printk(NOTIFIER_CB_FMT " val=%lu ret=%s",
			      __entry->cb, __entry->head, __entry->nb,
			      __entry->priority,
			      show_notifier_kind(__entry->kind), __entry->val,
			      show_notifier_ret(__entry->ret)));

NOTIFIER_CALL_EVENT_PRINT(notifier_callback, notifier_run,
			  TP_PROTO(void *cb, void *nh,
				   struct notifier_block *nb, int priority,
				   enum notifier_chain_kind kind,
				   unsigned long val, int ret),
			  TP_ARGS(cb, nh, nb, priority, kind, val, ret),
			  TP_printk(NOTIFIER_CB_FMT " val=%lu",
				    __entry->cb, __entry->head, __entry->nb,
				    __entry->priority,
				    show_notifier_kind(__entry->kind),
				    __entry->val));

DEFINE_EVENT_FN(notifier_callback, notifier_return,
		TP_PROTO(void *cb, void *nh, struct notifier_block *nb,
			 int priority, enum notifier_chain_kind kind,
			 unsigned long val, int ret),
		TP_ARGS(cb, nh, nb, priority, kind, val, ret),
		notifier_call_trace_reg, notifier_call_trace_unreg);

DECLARE_EVENT_CLASS(notifier_pass,
		    TP_PROTO(void *nh, enum notifier_chain_kind kind,
			     unsigned long val, int nr_to_call,
			     enum notifier_call_type type, int ret,
			     int nr_calls),
		    TP_ARGS(nh, kind, val, nr_to_call, type, ret, nr_calls),
		    TP_STRUCT__entry(__field(void *, head)
				     __field(unsigned long, val)
				     __field(enum notifier_chain_kind, kind)
				     __field(int, nr_to_call)
				     __field(enum notifier_call_type, type)
				     __field(int, ret)
				     __field(int, nr_calls)
		    ),
		    TP_fast_assign(__entry->head = nh;
				   __entry->kind = kind;
				   __entry->val = val;
				   __entry->nr_to_call = nr_to_call;
				   __entry->type = type;
				   __entry->ret = ret;
				   __entry->nr_calls = nr_calls;
		    ),
		    TP_printk(NOTIFIER_CALL_FMT " ret=%s nr_calls=%d",
			      __entry->head, show_notifier_kind(__entry->kind),
			      __entry->val, __entry->nr_to_call,
			      show_notifier_call_type(__entry->type),
			      show_notifier_ret(__entry->ret),
			      __entry->nr_calls));

NOTIFIER_CALL_EVENT_PRINT(notifier_pass, notifier_call_begin,
			  TP_PROTO(void *nh, enum notifier_chain_kind kind,
				   unsigned long val, int nr_to_call,
				   enum notifier_call_type type, int ret,
				   int nr_calls),
			  TP_ARGS(nh, kind, val, nr_to_call, type, ret,
				  nr_calls),
			  TP_printk(NOTIFIER_CALL_FMT,
				    __entry->head,
				    show_notifier_kind(__entry->kind),
				    __entry->val, __entry->nr_to_call,
				    show_notifier_call_type(__entry->type)));

DEFINE_EVENT_FN(notifier_pass, notifier_call_end,
		TP_PROTO(void *nh, enum notifier_chain_kind kind,
			 unsigned long val, int nr_to_call,
			 enum notifier_call_type type, int ret, int nr_calls),
		TP_ARGS(nh, kind, val, nr_to_call, type, ret, nr_calls),
		notifier_call_trace_reg, notifier_call_trace_unreg);

#endif /* _TRACE_NOTIFIER_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
