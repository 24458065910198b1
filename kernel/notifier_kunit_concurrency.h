/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The KUnit tests for notifier chains, part 4 of their harness: what the
 * cases of notifier_concurrency run.  Stress threads, two callers and a
 * churner that (un)registers blocks around a stable one, sized by the
 * stress_iters and stress_max_ms module parameters; callers of an atomic
 * chain in hardirq (irq_work) and softirq (timer) context; sleeping
 * callbacks; the writers run during a call; nesting callbacks.
 *
 * Included only by kernel/notifier_kunit.c, after its module parameters
 * and notifier_kunit_fixture.h.
 */

#define NT_SLEEP_MS		1
#define NT_USLEEP_MIN		200
#define NT_USLEEP_MAX		400

#define NT_STRESS_CALLERS	2
#define NT_STRESS_YIELD		64	/* callers sleep once per this many calls */
#define NT_CHURN_BLOCKS		8

/* ---------------------------------------------------------------------- */
/* Stress: two callers and a churner on one chain                         */
/* ---------------------------------------------------------------------- */

struct nt_stress;

struct nt_sblock {
	struct notifier_block nb;
	struct nt_stress *s;
	bool stable;
	bool dead;	/* set after unregister returned, cleared before register */
	bool on_chain;	/* the churner's own bookkeeping */
};

struct nt_stress {
	struct nt_chain *chain;
	struct mutex raw_lock;		/* serialises every raw chain operation */
	struct nt_sblock stable;
	struct nt_sblock churn[NT_CHURN_BLOCKS];
	unsigned long iters;
	unsigned long churn_min;
	unsigned long deadline;
	atomic_t callers_left;
	atomic_t threads_left;
	struct completion done;
	atomic_long_t calls;		/* chain calls made */
	atomic_long_t regs;		/* registrations made */
	atomic_long_t unregs;		/* unregistrations made */
	atomic_long_t stable_calls;	/* calls of the stable block */
	atomic_long_t churn_ops;	/* one unregister plus one register */
	atomic_t bad_calls;		/* stable block not run exactly once */
	atomic_t order_errors;		/* priorities out of order in a call */
	atomic_t after_unregister;	/* ran after its unregister returned */
	atomic_t op_errors;		/* a churn (un)registration failed */
	atomic_t out_of_time;
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

	if (val != NT_VAL_STRESS || !sc) {
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
		/* One call at least: the time budget never decides a verdict. */
		if (i && nt_stress_out_of_time(s))
			break;
		nt_chain_call(s->chain, NT_VAL_STRESS, &sc);
		atomic_long_inc(&s->calls);
		if (sc.stable_seen != 1)
			atomic_inc(&s->bad_calls);
		/*
		 * A short sleep now and then is a quiescent state, so that the
		 * grace periods the churner waits for end quickly.
		 */
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

static void nt_churn_add(struct nt_stress *s, struct nt_sblock *b)
{
	WRITE_ONCE(b->dead, false);
	atomic_long_inc(&s->regs);
	if (nt_chain_register(s->chain, &b->nb))
		atomic_inc(&s->op_errors);
	else
		b->on_chain = true;
}

static void nt_churn_del(struct nt_stress *s, struct nt_sblock *b)
{
	atomic_long_inc(&s->unregs);
	if (nt_chain_unregister(s->chain, &b->nb))
		atomic_inc(&s->op_errors);
	b->on_chain = false;
	/* From here on, no call may run this block any more. */
	WRITE_ONCE(b->dead, true);
}

/*
 * Keeps half of the churn blocks registered, a sliding window: every
 * iteration unregisters the oldest and registers the one unregistered
 * longest ago, so each block stays dead (and checked) for a while.
 */
static int nt_stress_churner(void *arg)
{
	struct nt_stress *s = arg;
	const unsigned int half = NT_CHURN_BLOCKS / 2;
	unsigned long j;
	unsigned int i;

	for (i = 0; i < half; i++)
		nt_churn_add(s, &s->churn[i]);
	for (j = 0; !kthread_should_stop(); j++) {
		if (j >= s->churn_min && !atomic_read(&s->callers_left))
			break;
		if (j && nt_stress_out_of_time(s))
			break;
		nt_churn_del(s, &s->churn[j % NT_CHURN_BLOCKS]);
		nt_churn_add(s, &s->churn[(j + half) % NT_CHURN_BLOCKS]);
		atomic_long_inc(&s->churn_ops);
		cond_resched();
	}
	for (i = 0; i < NT_CHURN_BLOCKS; i++)
		if (s->churn[i].on_chain)
			nt_churn_del(s, &s->churn[i]);
	nt_stress_thread_done(s);
	nt_wait_for_stop();
	return 0;
}

/* What the stress cases of one suite did, for its suite_exit. */
static atomic_long_t nt_stress_total_ops;
static atomic_t nt_stress_cases;
static atomic_t nt_stress_cases_out_of_time;

static void nt_stress_setup(struct nt_stress *s, enum nt_chain_kind kind)
{
	unsigned int i;

	mutex_init(&s->raw_lock);
	if (kind == NT_CHAIN_RAW)
		s->chain->raw_lock = &s->raw_lock;
	s->iters = max(stress_iters, 1U);
	s->churn_min = max(stress_iters / 128, 8U);
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

/* ---------------------------------------------------------------------- */
/* Callers in hardirq and softirq context                                 */
/* ---------------------------------------------------------------------- */

/* Counts the contexts an atomic chain callback runs in. */
struct nt_ctxblock {
	struct notifier_block nb;
	atomic_t calls;
	atomic_t hardirq;
	atomic_t softirq;
	atomic_t task;
	atomic_t irqs_off;
};

static int nt_ctx_cb(struct notifier_block *nb, unsigned long val,
		     void *data)
{
	struct nt_ctxblock *b = container_of(nb, struct nt_ctxblock, nb);

	if (val != NT_VAL_IRQ)
		return NOTIFY_DONE;
	atomic_inc(&b->calls);
	if (in_hardirq())
		atomic_inc(&b->hardirq);
	if (in_serving_softirq())
		atomic_inc(&b->softirq);
	if (in_task())
		atomic_inc(&b->task);
	if (irqs_disabled())
		atomic_inc(&b->irqs_off);
	return NOTIFY_OK;
}

struct nt_irqtest {
	struct nt_chain *chain;
	struct nt_ctxblock blk[2];
	struct irq_work work;
	struct timer_list timer;
	struct completion timer_done;
	atomic_t runs;
	atomic_t ok;		/* the call returned NOTIFY_OK */
};

static void nt_irqtest_call(struct nt_irqtest *it)
{
	if (nt_chain_call(it->chain, NT_VAL_IRQ, it) == NOTIFY_OK)
		atomic_inc(&it->ok);
	atomic_inc(&it->runs);
}

static void nt_irq_work_fn(struct irq_work *work)
{
	nt_irqtest_call(container_of(work, struct nt_irqtest, work));
}

static void nt_timer_fn(struct timer_list *t)
{
	struct nt_irqtest *it = from_timer(it, t, timer);

	nt_irqtest_call(it);
	complete(&it->timer_done);
}

static struct nt_irqtest *nt_irqtest_new(struct kunit *test)
{
	struct nt_irqtest *it = kunit_kzalloc(test, sizeof(*it), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, it);
	it->chain = nt_chain_new(test, NT_CHAIN_ATOMIC, false);
	for (i = 0; i < ARRAY_SIZE(it->blk); i++) {
		it->blk[i].nb.notifier_call = nt_ctx_cb;
		it->blk[i].nb.priority = i;
		KUNIT_ASSERT_EQ(test, nt_reg(test, it->chain, &it->blk[i].nb),
				0);
	}
	return it;
}

/*
 * @rounds calls, each running both callbacks in hardirq or in softirq;
 * then unregisters them.
 */
static void nt_irqtest_finish(struct kunit *test, struct nt_irqtest *it,
			      int rounds, bool hard)
{
	unsigned int i;

	KUNIT_EXPECT_EQ(test, atomic_read(&it->runs), rounds);
	KUNIT_EXPECT_EQ(test, atomic_read(&it->ok), rounds);
	for (i = 0; i < ARRAY_SIZE(it->blk); i++) {
		struct nt_ctxblock *b = &it->blk[i];

		KUNIT_EXPECT_EQ(test, atomic_read(&b->calls), rounds);
		KUNIT_EXPECT_EQ(test, atomic_read(&b->hardirq), hard ? rounds : 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&b->softirq), hard ? 0 : rounds);
		KUNIT_EXPECT_EQ(test, atomic_read(&b->task), 0);
		if (hard)
			KUNIT_EXPECT_EQ(test, atomic_read(&b->irqs_off), rounds);
		KUNIT_EXPECT_EQ(test, nt_unreg(test, it->chain, &b->nb), 0);
	}
}

/* ---------------------------------------------------------------------- */
/* Sleeping callbacks, writers during a call, nested chains               */
/* ---------------------------------------------------------------------- */

/*
 * Sleeping callbacks: the first of a call sleeps in msleep(), the second
 * in usleep_range(), the third in schedule_timeout(); each notes its
 * place in the call, its context and task, and how long it slept.
 */
struct nt_sleeper {
	struct notifier_block nb;
	int *seq;
	int order;
	int calls;
	bool in_task;
	struct task_struct *task;
	u64 slept_ns;
};

enum { NT_SLEEP_MSLEEP, NT_SLEEP_USLEEP, NT_SLEEP_SCHEDULE, NT_SLEEPERS };

static int nt_sleeper_cb(struct notifier_block *nb, unsigned long val,
			 void *data)
{
	struct nt_sleeper *s = container_of(nb, struct nt_sleeper, nb);
	u64 t0 = ktime_get_ns();

	s->calls++;
	s->order = (*s->seq)++;
	s->in_task = in_task();
	s->task = current;
	if (s->order == NT_SLEEP_MSLEEP)
		msleep(NT_SLEEP_MS);
	else if (s->order == NT_SLEEP_USLEEP)
		usleep_range(NT_USLEEP_MIN, NT_USLEEP_MAX);
	else
		schedule_timeout_uninterruptible(1);
	s->slept_ns = ktime_get_ns() - t0;
	return NOTIFY_OK;
}

/* A chain kind, the writer's operation, and whether it waits. */
struct nt_writer_param {
	const char *name;
	enum nt_chain_kind kind;
	enum nt_op_type op;	/* REGISTER: a new block; UNREGISTER: the gate */
	bool waits;
};

static const struct nt_writer_param nt_writer_params[] = {
	{ "blocking-register-waits", NT_CHAIN_BLOCKING, NT_OP_REGISTER, true },
	{ "blocking-unregister-waits", NT_CHAIN_BLOCKING, NT_OP_UNREGISTER, true },
#if NT_HAVE_SRCU
	{ "srcu-register-proceeds", NT_CHAIN_SRCU, NT_OP_REGISTER, false },
	{ "srcu-unregister-waits", NT_CHAIN_SRCU, NT_OP_UNREGISTER, true },
#endif
	{ "atomic-register-proceeds", NT_CHAIN_ATOMIC, NT_OP_REGISTER, false },
	{ "atomic-unregister-waits", NT_CHAIN_ATOMIC, NT_OP_UNREGISTER, true },
};

static void nt_writer_desc(const struct nt_writer_param *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(nt_writer, nt_writer_params, nt_writer_desc);

/* A callback of an outer chain calls an inner chain. */
struct nt_nest_block {
	struct notifier_block nb;
	struct nt_log *log;
	int code;
	struct nt_chain *inner;	/* called from the callback if set */
	int inner_ret;
};

static void nt_nest_record(struct nt_log *log, int code, unsigned long val,
			   void *data)
{
	if (log->n < NT_LOG_MAX) {
		log->id[log->n] = code;
		log->val[log->n] = val;
		log->data[log->n] = data;
	}
	log->n++;
}

static int nt_nest_cb(struct notifier_block *nb, unsigned long val,
		      void *data)
{
	struct nt_nest_block *b = container_of(nb, struct nt_nest_block, nb);

	nt_nest_record(b->log, b->code, val, data);
	if (b->inner) {
		b->inner_ret = nt_chain_call(b->inner, val + 1, data);
		nt_nest_record(b->log, b->code + 1, val, data);
	}
	return NOTIFY_OK;
}

struct nt_nest_param {
	enum nt_chain_kind outer;
	enum nt_chain_kind inner;
	const char *name;
};

static const struct nt_nest_param nt_nest_params[] = {
	{ NT_CHAIN_BLOCKING, NT_CHAIN_ATOMIC, "blocking>atomic" },
	{ NT_CHAIN_ATOMIC, NT_CHAIN_RAW, "atomic>raw" },
#if NT_HAVE_SRCU
	{ NT_CHAIN_SRCU, NT_CHAIN_BLOCKING, "srcu>blocking" },
	{ NT_CHAIN_RAW, NT_CHAIN_SRCU, "raw>srcu" },
#endif
};

static void nt_nest_desc(const struct nt_nest_param *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(nt_nest, nt_nest_params, nt_nest_desc);
