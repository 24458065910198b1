/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The KUnit tests for notifier chains, part 3 of their harness: the
 * notifier events.  The probes, attached by tracepoint name so that the
 * module refers to no tracepoint symbol, the lock-free recorder they
 * feed, the check that a traced pass took the traced walk, and the
 * expectations on recorded events that notifier_tracepoints is written
 * with.
 *
 * Included only by kernel/notifier_kunit.c, after notifier_kunit_fixture.h.
 */

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
};

struct nt_event {
	int valid;
	enum nt_ev_type type;
	void *cb;
	void *head;
	struct notifier_block *nb;
	int priority;
	int kind;
	int err;
	int ret;
	int nr_calls;
	int nr_to_call;
	int call_type;
	unsigned long val;
	u64 ns;		/* duration_ns (return) */
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
				enum nt_chain_kind kind, int err)
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
			    enum nt_chain_kind kind, unsigned long val,
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
			 enum nt_chain_kind kind, unsigned long val)
{
	nt_probe_return(data, cb, head, nb, priority, kind, val, 0, 0);
}

static void nt_probe_stop(void *data, void *cb, void *head,
			  struct notifier_block *nb, int priority,
			  enum nt_chain_kind kind, unsigned long val,
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
			      enum nt_chain_kind kind, unsigned long val,
			      int nr_to_call, enum nt_call_type type,
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
				enum nt_chain_kind kind,
				unsigned long val, int nr_to_call,
				enum nt_call_type type)
{
	nt_probe_call_end(data, head, kind, val, nr_to_call, type, 0, 0);
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
 * Find the notifier tracepoints by name and attach our probes to the
 * events of @mask; skip the test on a kernel without the chainscope
 * events (a stock kernel).
 */
static void nt_tp_attach_mask(struct kunit *test, unsigned long mask)
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
	/*
	 * A stock kernel has none (6.1) or upstream's three events, whose
	 * probes take only cb (6.4+): attaching ours to those would call
	 * them with the wrong arguments.  notifier_call_begin is ours alone.
	 */
	if (!nt_tps[NT_EV_CALL_BEGIN].tp)
		kunit_skip(test, "no chainscope notifier events (stock kernel, %u upstream)",
			   found);
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
		if (!(mask & BIT(i)))
			continue;
		KUNIT_ASSERT_EQ_MSG(test,
				    tracepoint_probe_register(nt_tps[i].tp,
							      nt_tps[i].probe,
							      &nt_tps[i]),
				    0, "cannot attach to %s", nt_ev_names[i]);
		nt_tps[i].attached = true;
	}
}

static void nt_tp_attach(struct kunit *test)
{
	nt_tp_attach_mask(test, BIT(NT_EV_NR) - 1);
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
/* Expectations on the recorded events                                    */
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
				 enum nt_chain_kind kind,
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
				  enum nt_chain_kind kind,
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
					      enum nt_chain_kind kind,
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
						enum nt_chain_kind kind,
						unsigned long val,
						int nr_to_call,
						enum nt_call_type ctype)
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
	enum nt_call_type ctype = robust ? NT_CALL_ROBUST :
						 NT_CALL_PLAIN;
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
			ctype = NT_CALL_ROLLBACK;
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

/* A fixture with probes attached and its chain watched. */
static struct nt_fix nt_tp_fix_new(struct kunit *test,
				   enum nt_chain_kind kind,
				   const int *prio, unsigned int n)
{
	struct nt_fix f;

	nt_tp_attach(test);
	f = nt_fix_new(test, kind, prio, n);
	nt_rec_watch(test, f.c->head, NULL);
	return f;
}
