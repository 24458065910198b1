/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The KUnit tests for notifier chains, part 2 of their harness: the
 * blocks the cases register.  Recording callbacks and fixtures of one
 * chain and numbered blocks, expectations written as strings of block
 * ids (see kernel/notifier_kunit.c), the chain kinds the cases are
 * parameterised with, and a block on the die chain that a real int3
 * calls.
 *
 * Included only by kernel/notifier_kunit.c, after notifier_kunit_harness.h.
 */

/* ---------------------------------------------------------------------- */
/* Recording callbacks, and expectations written as strings of ids         */
/* ---------------------------------------------------------------------- */

struct nt_log {
	int n;
	int id[NT_LOG_MAX];
	unsigned long val[NT_LOG_MAX];
	void *data[NT_LOG_MAX];
};

struct nt_block {
	struct notifier_block nb;
	struct nt_log *log;
	int id;
	int ret;		/* returned, unless @fail_val is seen */
	unsigned long fail_val;
	int fail_ret;		/* if non-zero, returned for @fail_val */
	unsigned int busy_us;	/* busy-wait that long in the callback */
	int calls;
};

static int nt_block_ret(const struct nt_block *b, unsigned long val)
{
	return b->fail_ret && val == b->fail_val ? b->fail_ret : b->ret;
}

static int nt_block_cb(struct notifier_block *nb, unsigned long val,
		       void *data)
{
	struct nt_block *b = container_of(nb, struct nt_block, nb);
	struct nt_log *log = b->log;

	b->calls++;
	if (log) {
		if (log->n < NT_LOG_MAX) {
			log->id[log->n] = b->id;
			log->val[log->n] = val;
			log->data[log->n] = data;
		}
		log->n++;
	}
	if (b->busy_us) {
		/*
		 * Spin for at least busy_us on the clock that notifier_return
		 * measures with, whatever udelay() makes of it under emulation.
		 */
		u64 t0 = ktime_get_mono_fast_ns();

		udelay(b->busy_us);
		while (ktime_get_mono_fast_ns() - t0 <
		       (u64)b->busy_us * NSEC_PER_USEC)
			cpu_relax();
	}
	return nt_block_ret(b, val);
}

/* One chain, a log and blocks 0..n-1 of the given priorities. */
struct nt_fix {
	struct nt_chain *c;
	struct nt_log *log;
	struct nt_block *b;
};

static struct nt_fix nt_fix_new(struct kunit *test,
				enum nt_chain_kind kind,
				const int *prio, unsigned int n)
{
	struct nt_fix f;
	unsigned int i;

	f.c = nt_chain_new(test, kind, false);
	f.log = kunit_kzalloc(test, sizeof(*f.log), GFP_KERNEL);
	f.b = kunit_kcalloc(test, n, sizeof(*f.b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f.log);
	KUNIT_ASSERT_NOT_NULL(test, f.b);
	for (i = 0; i < n; i++) {
		f.b[i].nb.notifier_call = nt_block_cb;
		f.b[i].nb.priority = prio[i];
		f.b[i].log = f.log;
		f.b[i].id = i;
		f.b[i].ret = NOTIFY_OK;
	}
	return f;
}

static void nt_reg_ids(struct kunit *test, struct nt_fix *f, const char *ids)
{
	for (; *ids; ids++)
		KUNIT_ASSERT_EQ_MSG(test, nt_reg(test, f->c, &f->b[*ids - '0'].nb),
				    0, "registering block %c", *ids);
}

static void nt_unreg_ids(struct kunit *test, struct nt_fix *f, const char *ids)
{
	for (; *ids; ids++)
		KUNIT_EXPECT_EQ_MSG(test,
				    nt_unreg(test, f->c, &f->b[*ids - '0'].nb),
				    0, "unregistering block %c", *ids);
}

/*
 * The log must hold exactly the callbacks @ids, in order, each with @data
 * and NT_VAL, or for a robust call ("012/01") val_up before the "/" and
 * val_down after it.
 */
static void nt_expect_log(struct kunit *test, const struct nt_log *log,
			  const char *ids, void *data, bool robust)
{
	unsigned long val = robust ? NT_VAL_UP : NT_VAL;
	int i = 0;

	for (; *ids; ids++) {
		if (*ids == '/') {
			val = NT_VAL_DOWN;
			continue;
		}
		if (i < log->n && i < NT_LOG_MAX) {
			KUNIT_EXPECT_EQ_MSG(test, log->id[i], *ids - '0',
					    "callback #%d", i);
			KUNIT_EXPECT_EQ_MSG(test, log->val[i], val,
					    "value of callback #%d", i);
			KUNIT_EXPECT_PTR_EQ_MSG(test, log->data[i], data,
						"data of callback #%d", i);
		}
		i++;
	}
	KUNIT_EXPECT_EQ_MSG(test, log->n, i, "number of callbacks run");
}

/* Call the chain; expect @ret and exactly the callbacks @ids. */
static void nt_call_expect(struct kunit *test, struct nt_fix *f, int ret,
			   const char *ids)
{
	int data;

	memset(f->log, 0, sizeof(*f->log));
	KUNIT_EXPECT_EQ_MSG(test, nt_chain_call(f->c, NT_VAL, &data), ret,
			    "return of the call running \"%s\"", ids);
	nt_expect_log(test, f->log, ids, &data, false);
}

static void nt_robust_expect(struct kunit *test, struct nt_fix *f, int ret,
			     const char *ids)
{
	int data;

	memset(f->log, 0, sizeof(*f->log));
	KUNIT_EXPECT_EQ_MSG(test, nt_chain_call_robust(f->c, &data), ret,
			    "return of the robust call running \"%s\"", ids);
	nt_expect_log(test, f->log, ids, &data, true);
}

struct nt_kind_param {
	enum nt_chain_kind kind;
	const char *name;
};

static const struct nt_kind_param nt_all_kinds[] = {
	{ NT_CHAIN_RAW, "raw" },
	{ NT_CHAIN_ATOMIC, "atomic" },
	{ NT_CHAIN_BLOCKING, "blocking" },
#if NT_HAVE_SRCU
	{ NT_CHAIN_SRCU, "srcu" },
#endif
};

static const struct nt_kind_param nt_robust_kinds[] = {
	{ NT_CHAIN_RAW, "raw" },
	{ NT_CHAIN_BLOCKING, "blocking" },
};

static const struct nt_kind_param nt_unique_kinds[] = {
	{ NT_CHAIN_ATOMIC, "atomic" },
	{ NT_CHAIN_BLOCKING, "blocking" },
};

static const struct nt_kind_param nt_sleeping_kinds[] = {
	{ NT_CHAIN_BLOCKING, "blocking" },
#if NT_HAVE_SRCU
	{ NT_CHAIN_SRCU, "srcu" },
#endif
};

static void nt_kind_desc(const struct nt_kind_param *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(nt_all_kinds, nt_all_kinds, nt_kind_desc);
KUNIT_ARRAY_PARAM(nt_robust_kinds, nt_robust_kinds, nt_kind_desc);
KUNIT_ARRAY_PARAM(nt_unique_kinds, nt_unique_kinds, nt_kind_desc);
KUNIT_ARRAY_PARAM(nt_sleeping_kinds, nt_sleeping_kinds, nt_kind_desc);

static enum nt_chain_kind nt_kind(struct kunit *test)
{
	return ((const struct nt_kind_param *)test->param_value)->kind;
}

/* ---------------------------------------------------------------------- */
/* The die chain, called for real: an int3 that our notifier claims        */
/* ---------------------------------------------------------------------- */

/*
 * exc_int3() calls notify_die(DIE_INT3, "int3", regs, 0, X86_TRAP_BP,
 * SIGTRAP) for an int3 in kernel mode that is neither a text-patching site
 * nor a kprobe, and resumes after it if a notifier returns NOTIFY_STOP, as
 * the kernel's own int3_selftest() does at boot.  Our notifier (priority
 * INT_MAX: after kprobes', which passes, before uprobes', which ignores
 * kernel mode) claims only the int3 at nt_int3_ip.  It runs in NMI
 * context: it only copies what it saw.
 */
struct nt_die_block {
	struct notifier_block nb;
	int hits;
	unsigned long val;
	unsigned long ip;
	struct die_args args;
};

#ifdef CONFIG_X86_64
#define NT_DIE_VAL	DIE_INT3

/* The address of the int3 in nt_die_trap(), a label of this object. */
static unsigned long nt_int3_addr(void)
{
	unsigned long ip;

	asm("lea nt_int3_ip(%%rip), %0" : "=r" (ip));
	return ip;
}

static int nt_die_cb(struct notifier_block *nb, unsigned long val,
		     void *data)
{
	struct nt_die_block *d = container_of(nb, struct nt_die_block, nb);
	struct die_args *args = data;

	if (val != DIE_INT3 || !args->regs || user_mode(args->regs) ||
	    args->regs->ip - INT3_INSN_SIZE != nt_int3_addr())
		return NOTIFY_DONE;
	d->hits++;
	d->val = val;
	d->ip = args->regs->ip;
	d->args = *args;
	return NOTIFY_STOP;
}

/* Must be noinline, so that the label is defined once. */
static noinline void nt_die_trap(void)
{
	asm volatile("nt_int3_ip:\n\t"
		     ANNOTATE_NOENDBR
		     "int3\n\t" : : : "memory");
}
#else
#define NT_DIE_VAL	0
#endif

/* Registers a block on the die chain. */
static struct nt_die_block *nt_die_block_new(struct kunit *test)
{
	struct nt_test_ctx *ctx = test->priv;
	struct nt_die_block *d;

	if (!IS_ENABLED(CONFIG_X86_64))
		kunit_skip(test, "the die chain is called through an x86-64 int3");
	d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d);
#ifdef CONFIG_X86_64
	d->nb.notifier_call = nt_die_cb;
#endif
	d->nb.priority = INT_MAX;
	KUNIT_ASSERT_EQ(test, register_die_notifier(&d->nb), 0);
	ctx->die_nb = &d->nb;
	return d;
}

/* Traps once, and expects our notifier to have seen exactly that. */
static void nt_die_expect_trap(struct kunit *test, struct nt_die_block *d)
{
#ifdef CONFIG_X86_64
	nt_die_trap();
	KUNIT_EXPECT_EQ(test, d->hits, 1);
	KUNIT_EXPECT_EQ(test, d->val, (unsigned long)NT_DIE_VAL);
	KUNIT_EXPECT_EQ(test, d->ip, nt_int3_addr() + INT3_INSN_SIZE);
	KUNIT_EXPECT_NOT_NULL(test, d->args.regs);
	KUNIT_EXPECT_STREQ(test, d->args.str, "int3");
	KUNIT_EXPECT_EQ(test, d->args.err, 0L);
	KUNIT_EXPECT_EQ(test, d->args.trapnr, X86_TRAP_BP);
	KUNIT_EXPECT_EQ(test, d->args.signr, SIGTRAP);
#endif
}

static void nt_die_unregister(struct kunit *test, struct nt_die_block *d)
{
	struct nt_test_ctx *ctx = test->priv;

	KUNIT_EXPECT_EQ(test, unregister_die_notifier(&d->nb), 0);
	ctx->die_nb = NULL;
	KUNIT_EXPECT_EQ(test, unregister_die_notifier(&d->nb), -ENOENT);
}
