// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope report --boot: a boot-time buffer (trace_event=notifier:...
 * on the kernel command line) as an answer. Per chain: its membership
 * events in the order the kernel made them (what registered, when, at
 * what priority), the call order they built (highest priority first,
 * equal priorities in registration order), and each callback's calls and
 * time; over all chains, the slowest callbacks.
 *
 * Early history: blocks registered before tracing was up have no
 * notifier_register in the buffer. A block seen running (notifier_run,
 * notifier_return) on a chain without one marks the chain "early history
 * missing"; such blocks were registered before every traced registration,
 * so they take their place in the call order before the traced blocks of
 * their priority, among themselves in the order they were first seen run.
 *
 * Upstream's three cb-only events (stock 6.4+; the converters give them
 * head 0 and nb = cb) name no chain, block or priority: what they give is
 * the order of the registrations over all chains and each callback's run
 * count, and the report says once that times need our core.
 *
 * Added to the report (print.c) as sections of its own; the rows, the
 * exports and the SVGs are the ordinary report's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "chainscope.h"
#include "report_int.h"
#include "trace_cli.h"
#include "tracefile.h"

#define BOOT_SLOWEST 10		/* callbacks in the slowest list */

struct bkey {
	__u64 head, nb;
};

/* a block (head, nb) as the buffer tells it */
struct bblk {
	UT_hash_handle hh;
	struct bkey key;
	__u64 cb;
	int prio, kind;
	long long reg_idx;	/* its last notifier_register, -1: none */
	long long first_run;	/* its first notifier_run, -1: none */
	bool on;		/* on the chain at the end of the buffer */
	bool gone;		/* its last membership event unregistered it */
	bool ever_reg;		/* a notifier_register of it is in the buffer */
	__u64 runs, timed, total_ns, max_ns;
};

struct bchain {
	UT_hash_handle hh;
	__u64 head;
	int kind;
	struct cs_sym sym;
	size_t *mev;		/* its membership events, in order */
	size_t nr_mev, cap_mev;
	size_t regs, unregs, errors;
	size_t early;		/* blocks that ran, never registered in the buffer */
	bool snap;		/* a .cstrace's snapshot gave its membership */
	__u64 runs, total_ns;
	struct bblk **order;	/* the call order at the end */
	size_t nr_order;
	struct bblk **cbs;	/* every block that ran, by time */
	size_t nr_cbs, cap_cbs;
};

struct boot {
	const struct cs_trace *t;
	struct bblk *blks;
	struct bchain *chains;
	struct bchain **sorted;
	size_t nr_chains;
	struct bblk **slow;
	size_t nr_slow;
	size_t regs, unregs, runs, early_chains;
	bool stock;
};

size_t cs_report_boot_registrations(const struct cs_trace *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->nr_events; i++)
		n += t->events[i].type == CS_REC_REGISTER;
	return n;
}

static struct bchain *chain_get(struct boot *b, const struct cs_rec_event *e)
{
	struct bchain *c;

	HASH_FIND(hh, b->chains, &e->head, sizeof(e->head), c);
	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->head = e->head;
	c->kind = e->kind;
	cs_sym_from_trace(&c->sym, b->t, e->head);
	HASH_ADD(hh, b->chains, head, sizeof(c->head), c);
	if (!c->hh.tbl) {
		free(c);
		return NULL;
	}
	return c;
}

static struct bblk *blk_get(struct boot *b, const struct cs_rec_event *e)
{
	struct bkey k = { e->head, e->nb };
	struct bblk *x;

	HASH_FIND(hh, b->blks, &k, sizeof(k), x);
	if (x)
		return x;
	x = calloc(1, sizeof(*x));
	if (!x)
		return NULL;
	x->key = k;
	x->cb = e->cb;
	x->prio = e->priority;
	x->kind = e->kind;
	x->reg_idx = x->first_run = -1;
	HASH_ADD(hh, b->blks, key, sizeof(k), x);
	if (!x->hh.tbl) {
		free(x);
		return NULL;
	}
	return x;
}

static int grow(void *pp, size_t *cap, size_t want, size_t size)
{
	void **p = pp, *q;
	size_t n;

	if (want <= *cap)
		return 0;
	n = *cap ? *cap * 2 : 8;
	while (n < want)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

/* call order: priority down; before tracing (by first run) ahead of traced (by registration) */
static int cmp_order(const void *a, const void *b)
{
	const struct bblk *x = *(struct bblk *const *)a, *y = *(struct bblk *const *)b;
	bool ex = x->reg_idx < 0, ey = y->reg_idx < 0;

	if (x->prio != y->prio)
		return x->prio > y->prio ? -1 : 1;
	if (ex != ey)
		return ex ? -1 : 1;
	if (ex)
		return x->first_run < y->first_run ? -1 : x->first_run > y->first_run;
	return x->reg_idx < y->reg_idx ? -1 : x->reg_idx > y->reg_idx;
}

static int cmp_first_run(const void *a, const void *b)
{
	const struct bblk *x = *(struct bblk *const *)a, *y = *(struct bblk *const *)b;

	return x->first_run < y->first_run ? -1 : x->first_run > y->first_run;
}

static int cmp_slow(const void *a, const void *b)
{
	const struct bblk *x = *(struct bblk *const *)a, *y = *(struct bblk *const *)b;

	if (x->max_ns != y->max_ns)
		return x->max_ns > y->max_ns ? -1 : 1;
	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	return x->first_run < y->first_run ? -1 : x->first_run > y->first_run;
}

static int cmp_chain(const void *a, const void *b)
{
	const struct bchain *x = *(struct bchain *const *)a, *y = *(struct bchain *const *)b;

	return cs_sym_cmp(&x->sym, &y->sym);
}

static int collect(struct boot *b)
{
	const struct cs_trace *t = b->t;
	struct bchain *c, *ctmp;
	struct bblk *x, *xtmp;
	size_t i;

	for (i = 0; i < t->nr_events; i++) {
		const struct cs_rec_event *e = &t->events[i];

		switch (e->type) {
		case CS_REC_REGISTER:
		case CS_REC_UNREGISTER:
		case CS_REC_REGISTER_ERROR:
		case CS_REC_UNREGISTER_ERROR:
		case CS_REC_RUN:
		case CS_REC_RETURN:
			break;
		case CS_REC_SNAPSHOT:
			c = chain_get(b, e);
			if (!c)
				return -ENOMEM;
			c->snap = true;
			continue;
		default:
			continue;
		}
		c = chain_get(b, e);
		x = c ? blk_get(b, e) : NULL;
		if (!x)
			return -ENOMEM;
		switch (e->type) {
		case CS_REC_REGISTER:
			x->reg_idx = i;
			x->ever_reg = true;
			x->prio = e->priority;
			x->on = true;
			x->gone = false;
			c->regs++;
			b->regs++;
			break;
		case CS_REC_UNREGISTER:
			x->on = false;
			x->gone = true;
			c->unregs++;
			b->unregs++;
			break;
		case CS_REC_RUN:
			if (x->first_run < 0) {
				x->first_run = i;
				if (grow(&c->cbs, &c->cap_cbs, c->nr_cbs + 1, sizeof(*c->cbs)))
					return -ENOMEM;
				c->cbs[c->nr_cbs++] = x;
			}
			x->runs++;
			c->runs++;
			b->runs++;
			continue;	/* not a membership event */
		case CS_REC_RETURN:
			if (e->duration_ns) {
				x->timed++;
				x->total_ns += e->duration_ns;
				c->total_ns += e->duration_ns;
				if (e->duration_ns > x->max_ns)
					x->max_ns = e->duration_ns;
			}
			continue;
		default:
			c->errors++;
			break;
		}
		if (grow(&c->mev, &c->cap_mev, c->nr_mev + 1, sizeof(*c->mev)))
			return -ENOMEM;
		c->mev[c->nr_mev++] = i;
	}
	/*
	 * Ran, and no notifier_register of it anywhere in the buffer: it was
	 * registered before tracing was up (a run may also come just before
	 * its register event, ordering in notifier.h: that is no early block)
	 */
	HASH_ITER(hh, b->blks, x, xtmp) {
		if (x->ever_reg || x->first_run < 0)
			continue;
		HASH_FIND(hh, b->chains, &x->key.head, sizeof(x->key.head), c);
		if (c && !c->snap)
			c->early++;
		x->on = !x->gone;
	}
	HASH_ITER(hh, b->chains, c, ctmp) {
		b->nr_chains++;
		b->early_chains += c->early > 0;
		c->order = calloc(HASH_COUNT(b->blks) + 1, sizeof(*c->order));
		if (!c->order)
			return -ENOMEM;
	}
	b->sorted = calloc(b->nr_chains + 1, sizeof(*b->sorted));
	b->slow = calloc(HASH_COUNT(b->blks) + 1, sizeof(*b->slow));
	if (!b->sorted || !b->slow)
		return -ENOMEM;
	i = 0;
	HASH_ITER(hh, b->chains, c, ctmp)
		b->sorted[i++] = c;
	qsort(b->sorted, b->nr_chains, sizeof(*b->sorted), cmp_chain);
	HASH_ITER(hh, b->blks, x, xtmp) {
		HASH_FIND(hh, b->chains, &x->key.head, sizeof(x->key.head), c);
		if (x->on && c)
			c->order[c->nr_order++] = x;
		if (x->timed)
			b->slow[b->nr_slow++] = x;
	}
	for (i = 0; i < b->nr_chains; i++) {
		c = b->sorted[i];
		qsort(c->order, c->nr_order, sizeof(*c->order), cmp_order);
		if (c->nr_cbs)	/* (cbs is NULL then) */
			qsort(c->cbs, c->nr_cbs, sizeof(*c->cbs), cmp_first_run);
	}
	qsort(b->slow, b->nr_slow, sizeof(*b->slow), cmp_slow);
	if (b->nr_slow > BOOT_SLOWEST)
		b->nr_slow = BOOT_SLOWEST;
	return 0;
}

static void boot_free(struct boot *b)
{
	struct bchain *c, *ctmp;
	struct bblk *x, *xtmp;

	HASH_ITER(hh, b->chains, c, ctmp) {
		HASH_DEL(b->chains, c);
		free(c->mev);
		free(c->order);
		free(c->cbs);
		free(c);
	}
	HASH_ITER(hh, b->blks, x, xtmp) {
		HASH_DEL(b->blks, x);
		free(x);
	}
	free(b->sorted);
	free(b->slow);
}

/* --- text ------------------------------------------------------------------ */

static const char *sym(const struct cs_trace *t, __u64 addr, char *buf, size_t len)
{
	struct cs_sym s;

	cs_sym_from_trace(&s, t, addr);
	return cs_sym_str(&s, buf, len);
}

static const char *mev_name(unsigned int type)
{
	switch (type) {
	case CS_REC_REGISTER:
		return "register";
	case CS_REC_UNREGISTER:
		return "unregister";
	case CS_REC_REGISTER_ERROR:
		return "register_error";
	default:
		return "unregister_error";
	}
}

#define EARLY_TEXT "early history missing"
#define EARLY_WHY "ran whose notifier_register is not in the buffer " \
		  "(registered before tracing was up)"
#define STOCK_TIMES "times need chainscope's notifier core: upstream's events have " \
		    "no notifier_return (run counts only)"
#define STOCK_ORDER "upstream's events name no chain, block or priority: the " \
		    "registration order is over all chains, the call order unknown"

static void text_stock(FILE *out, const struct boot *b, int units)
{
	const struct cs_trace *t = b->t;
	char n[CS_SYMSTR_LEN];
	size_t i, k = 0;
	struct bchain *c = b->nr_chains ? b->sorted[0] : NULL;

	(void)units;
	fprintf(out, "boot: %zu registrations, %zu unregistrations, %zu runs; %s\n",
		b->regs, b->unregs, b->runs, STOCK_ORDER);
	fprintf(out, "boot: NOTE: %s\n", STOCK_TIMES);
	fprintf(out, "\nregistration order (all chains):\n");
	for (i = 0; c && i < c->nr_mev; i++) {
		const struct cs_rec_event *e = &t->events[c->mev[i]];

		if (e->type == CS_REC_REGISTER)
			fprintf(out, "  %4zu  at %.6f s  cb=%s\n", ++k, e->ts / 1e9,
				sym(t, e->cb, n, sizeof(n)));
		else
			fprintf(out, "     -  at %.6f s  cb=%s (%s)\n", e->ts / 1e9,
				sym(t, e->cb, n, sizeof(n)), mev_name(e->type));
	}
	fprintf(out, "\nruns (by first run):\n");
	for (i = 0; c && i < c->nr_cbs; i++)
		fprintf(out, "  cb=%s count=%llu%s\n", sym(t, c->cbs[i]->cb, n, sizeof(n)),
			(unsigned long long)c->cbs[i]->runs,
			c->cbs[i]->reg_idx < 0 ? " (registration not in the buffer)" : "");
}

int cs_report_boot_text(FILE *out, const struct cs_trace *t, const struct cs_report_opts *o)
{
	struct boot b = { .t = t, .stock = o->stock };
	const char *u = cs_units_suffix(o->units);
	char n[CS_SYMSTR_LEN], m[CS_SYMSTR_LEN];
	size_t i, j, k;

	if (collect(&b)) {
		boot_free(&b);
		return -ENOMEM;
	}
	fputc('\n', out);
	if (b.stock) {
		text_stock(out, &b, o->units);
		boot_free(&b);
		return 0;
	}
	fprintf(out, "boot: %zu chains, %zu registrations, %zu unregistrations, %zu runs; "
		"%s on %zu chain%s\n", b.nr_chains, b.regs, b.unregs, b.runs, EARLY_TEXT,
		b.early_chains, b.early_chains == 1 ? "" : "s");
	fprintf(out, "\nslowest callbacks (longest call; total and count over the buffer):\n");
	if (!b.nr_slow)
		fprintf(out, "  none timed (no notifier_return in the buffer)\n");
	for (i = 0; i < b.nr_slow; i++) {
		const struct bblk *x = b.slow[i];

		fprintf(out, "  %2zu  max=%llu%s total=%llu%s count=%llu  cb=%s chain=%s (%s)\n",
			i + 1, cs_ns_to_units(x->max_ns, o->units), u,
			cs_ns_to_units(x->total_ns, o->units), u, (unsigned long long)x->runs,
			sym(t, x->cb, n, sizeof(n)), sym(t, x->key.head, m, sizeof(m)),
			cs_kind_name(x->kind));
	}
	for (i = 0; i < b.nr_chains; i++) {
		const struct bchain *c = b.sorted[i];

		fprintf(out, "\nchain: %s (%s) registrations=%zu unregistrations=%zu "
			"runs=%llu total=%llu%s%s\n", cs_sym_str(&c->sym, n, sizeof(n)),
			cs_kind_name(c->kind), c->regs, c->unregs, (unsigned long long)c->runs,
			cs_ns_to_units(c->total_ns, o->units), u,
			c->early ? "  [" EARLY_TEXT "]" : "");
		if (c->early)
			fprintf(out, "  %s: %zu block%s %s\n", EARLY_TEXT, c->early,
				c->early == 1 ? "" : "s", EARLY_WHY);
		fprintf(out, "  registered, in order:\n");
		if (!c->nr_mev)
			fprintf(out, "    none in the buffer\n");
		for (j = 0, k = 0; j < c->nr_mev; j++) {
			const struct cs_rec_event *e = &t->events[c->mev[j]];

			if (e->type == CS_REC_REGISTER)
				fprintf(out, "    %3zu  at %.6f s  prio=%-6d cb=%s nb=%s\n", ++k,
					e->ts / 1e9, e->priority, sym(t, e->cb, n, sizeof(n)),
					sym(t, e->nb, m, sizeof(m)));
			else if (e->type == CS_REC_UNREGISTER)
				fprintf(out, "      -  at %.6f s  prio=%-6d cb=%s nb=%s (unregister)\n",
					e->ts / 1e9, e->priority, sym(t, e->cb, n, sizeof(n)),
					sym(t, e->nb, m, sizeof(m)));
			else
				fprintf(out, "      -  at %.6f s  prio=%-6d cb=%s nb=%s (%s err=%d)\n",
					e->ts / 1e9, e->priority, sym(t, e->cb, n, sizeof(n)),
					sym(t, e->nb, m, sizeof(m)), mev_name(e->type), e->ret);
		}
		fprintf(out, "  call order at the end (highest priority first, equal "
			"priorities in registration order):\n");
		if (!c->nr_order)
			fprintf(out, "    empty\n");
		for (j = 0; j < c->nr_order; j++) {
			const struct bblk *x = c->order[j];

			fprintf(out, "    %3zu  prio=%-6d cb=%s nb=%s%s\n", j + 1, x->prio,
				sym(t, x->cb, n, sizeof(n)), sym(t, x->key.nb, m, sizeof(m)),
				x->reg_idx < 0 ? "  (registered before tracing)" : "");
		}
		if (!c->nr_cbs)
			continue;
		fprintf(out, "  callbacks (by first run):\n");
		for (j = 0; j < c->nr_cbs; j++) {
			const struct bblk *x = c->cbs[j];

			fprintf(out, "    cb=%s count=%llu total=%llu%s max=%llu%s%s\n",
				sym(t, x->cb, n, sizeof(n)), (unsigned long long)x->runs,
				cs_ns_to_units(x->total_ns, o->units), u,
				cs_ns_to_units(x->max_ns, o->units), u,
				x->timed < x->runs ? "  (some calls untimed)" : "");
		}
	}
	boot_free(&b);
	return 0;
}

/* --- JSON ------------------------------------------------------------------ */

static void jsym(json_object *o, const char *field, const struct cs_trace *t, __u64 addr)
{
	struct cs_sym s;

	cs_sym_from_trace(&s, t, addr);
	cs_json_symbol(o, field, &s);
}

static json_object *jblk(const struct cs_trace *t, const struct bblk *x, bool stock)
{
	json_object *o = json_object_new_object();

	jsym(o, "callback", t, x->cb);
	if (!stock) {
		jsym(o, "nb", t, x->key.nb);
		json_object_object_add(o, "priority", json_object_new_int(x->prio));
	}
	json_object_object_add(o, "registered_in_buffer", json_object_new_boolean(x->reg_idx >= 0));
	json_object_object_add(o, "count", json_object_new_uint64(x->runs));
	if (!stock) {
		json_object_object_add(o, "timed", json_object_new_uint64(x->timed));
		json_object_object_add(o, "total_ns", json_object_new_uint64(x->total_ns));
		json_object_object_add(o, "max_ns", json_object_new_uint64(x->max_ns));
	}
	return o;
}

static json_object *jmev(const struct cs_trace *t, const struct cs_rec_event *e, size_t seq,
			 bool stock)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "event", json_object_new_string(mev_name(e->type)));
	if (e->type == CS_REC_REGISTER)
		json_object_object_add(o, "seq", json_object_new_uint64(seq));
	json_object_object_add(o, "ts_ns", json_object_new_uint64(e->ts));
	jsym(o, "callback", t, e->cb);
	if (!stock) {
		jsym(o, "nb", t, e->nb);
		json_object_object_add(o, "priority", json_object_new_int(e->priority));
	}
	if (e->type == CS_REC_REGISTER_ERROR || e->type == CS_REC_UNREGISTER_ERROR)
		json_object_object_add(o, "err", json_object_new_int(e->ret));
	return o;
}

int cs_report_boot_json(FILE *out, const struct cs_trace *t, const struct cs_report_opts *o)
{
	struct boot b = { .t = t, .stock = o->stock };
	json_object *root, *arr, *ch, *a2;
	size_t i, j, k;

	if (collect(&b)) {
		boot_free(&b);
		return -ENOMEM;
	}
	root = json_object_new_object();
	json_object_object_add(root, "format", json_object_new_string(b.stock ? "stock" : "ours"));
	json_object_object_add(root, "registrations", json_object_new_uint64(b.regs));
	json_object_object_add(root, "unregistrations", json_object_new_uint64(b.unregs));
	json_object_object_add(root, "runs", json_object_new_uint64(b.runs));
	if (b.stock) {
		const struct bchain *c = b.nr_chains ? b.sorted[0] : NULL;

		json_object_object_add(root, "times", json_object_new_boolean(false));
		json_object_object_add(root, "note", json_object_new_string(STOCK_TIMES));
		json_object_object_add(root, "order_note", json_object_new_string(STOCK_ORDER));
		arr = json_object_new_array();
		for (i = 0, k = 0; c && i < c->nr_mev; i++) {
			const struct cs_rec_event *e = &t->events[c->mev[i]];

			json_object_array_add(arr, jmev(t, e, e->type == CS_REC_REGISTER ? ++k : 0,
							true));
		}
		json_object_object_add(root, "registration_order", arr);
		arr = json_object_new_array();
		for (i = 0; c && i < c->nr_cbs; i++)
			json_object_array_add(arr, jblk(t, c->cbs[i], true));
		json_object_object_add(root, "callbacks", arr);
		goto out;
	}
	json_object_object_add(root, "times", json_object_new_boolean(true));
	json_object_object_add(root, "early_history_missing_chains",
			       json_object_new_uint64(b.early_chains));
	arr = json_object_new_array();
	for (i = 0; i < b.nr_slow; i++) {
		ch = jblk(t, b.slow[i], false);
		jsym(ch, "chain", t, b.slow[i]->key.head);
		json_object_object_add(ch, "kind", json_object_new_string(
					       cs_kind_name(b.slow[i]->kind)));
		json_object_array_add(arr, ch);
	}
	json_object_object_add(root, "slowest", arr);
	arr = json_object_new_array();
	for (i = 0; i < b.nr_chains; i++) {
		const struct bchain *c = b.sorted[i];

		ch = json_object_new_object();
		cs_json_symbol(ch, "chain", &c->sym);
		json_object_object_add(ch, "kind", json_object_new_string(cs_kind_name(c->kind)));
		json_object_object_add(ch, "early_history_missing", json_object_new_boolean(c->early));
		json_object_object_add(ch, "early_blocks", json_object_new_uint64(c->early));
		json_object_object_add(ch, "registrations_count", json_object_new_uint64(c->regs));
		json_object_object_add(ch, "unregistrations_count",
				       json_object_new_uint64(c->unregs));
		json_object_object_add(ch, "runs", json_object_new_uint64(c->runs));
		json_object_object_add(ch, "total_ns", json_object_new_uint64(c->total_ns));
		a2 = json_object_new_array();
		for (j = 0, k = 0; j < c->nr_mev; j++) {
			const struct cs_rec_event *e = &t->events[c->mev[j]];

			json_object_array_add(a2, jmev(t, e, e->type == CS_REC_REGISTER ? ++k : 0,
						       false));
		}
		json_object_object_add(ch, "registrations", a2);
		a2 = json_object_new_array();
		for (j = 0; j < c->nr_order; j++) {
			json_object *x = jblk(t, c->order[j], false);

			json_object_object_add(x, "position", json_object_new_uint64(j + 1));
			json_object_array_add(a2, x);
		}
		json_object_object_add(ch, "call_order", a2);
		a2 = json_object_new_array();
		for (j = 0; j < c->nr_cbs; j++)
			json_object_array_add(a2, jblk(t, c->cbs[j], false));
		json_object_object_add(ch, "callbacks", a2);
		json_object_array_add(arr, ch);
	}
	json_object_object_add(root, "chains", arr);
out:
	fputs(",\"boot\":", out);
	fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN), out);
	json_object_put(root);
	boot_free(&b);
	return 0;
}
