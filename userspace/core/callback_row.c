// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A callback's row, shared by latency and report (see callback_row.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define HASH_NONFATAL_OOM 1	/* a failed add leaves the item's hh.tbl NULL */
#include <uthash.h>

#include "callback_row.h"
#include "chainscope.h"
#include "json_keys.h"

enum cs_ret_class cs_ret_classify(int ret)
{
	if (!(ret & CS_NOTIFY_STOP_MASK))
		return CS_RET_OK;
	if (ret == CS_NOTIFY_BAD)
		return CS_RET_BAD;
	/* notifier_to_errno(): the bits under the mask above NOTIFY_OK */
	if ((ret & ~CS_NOTIFY_STOP_MASK) > CS_NOTIFY_OK)
		return CS_RET_ERRNO;
	return CS_RET_STOP;
}

const char *cs_lock_op_name(unsigned int op)
{
	return op == 0 ? "read" : op == 1 ? "write" : "?";
}

/* --- symbols ---------------------------------------------------------------- */

void cs_sym_from_ksyms(struct cs_sym *s, const struct ksyms *ks, __u64 addr)
{
	const struct ksym *k;
	unsigned long off = 0;

	k = ks ? ksyms__map_addr(ks, addr, &off) : NULL;
	s->addr = addr;
	s->name = k ? k->name : NULL;
	s->off = k ? off : 0;
	s->module = k ? k->module : NULL;
}

/* --- addresses, shown or hidden ---------------------------------------------- */

struct addr_id {
	UT_hash_handle hh;
	__u64 addr;
	unsigned long id;
};

static bool addrs_hidden;
static struct addr_id *addr_ids;
static unsigned long addr_next_id;

void cs_addrs_hide(bool hide)
{
	addrs_hidden = hide;
}

bool cs_addrs_hidden(void)
{
	return addrs_hidden;
}

const char *cs_addr_str(__u64 addr, char *buf, size_t len)
{
	struct addr_id *a;

	if (!addrs_hidden) {
		snprintf(buf, len, "0x%llx", (unsigned long long)addr);
		return buf;
	}
	HASH_FIND(hh, addr_ids, &addr, sizeof(addr), a);
	if (!a) {
		a = calloc(1, sizeof(*a));
		if (a) {
			a->addr = addr;
			a->id = ++addr_next_id;
			HASH_ADD(hh, addr_ids, addr, sizeof(a->addr), a);
			if (!a->hh.tbl) {
				free(a);
				a = NULL;
			}
		}
	}
	/* out of memory: no number, but never the address */
	if (a)
		snprintf(buf, len, "addr#%lu", a->id);
	else
		snprintf(buf, len, "addr#?");
	return buf;
}

const char *cs_sym_str(const struct cs_sym *s, char *buf, size_t len)
{
	/* an address may be hidden (cs_addrs_hide()); a name needs no copy */
	if (!s->name)
		return cs_addr_str(s->addr, buf, len);
	if (!s->off)
		return s->name;
	return cs_symstr(s->name, s->off, s->addr, buf, len);
}

int cs_sym_cmp(const struct cs_sym *a, const struct cs_sym *b)
{
	char x[CS_SYMSTR_LEN], y[CS_SYMSTR_LEN];
	int r;

	r = strcmp(cs_sym_str(a, x, sizeof(x)), cs_sym_str(b, y, sizeof(y)));
	if (r)
		return r;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

void cs_json_symbol(json_object *o, const char *field, const struct cs_sym *s)
{
	char name[CS_SYMSTR_LEN], key[64];

	json_object_object_add(o, field, json_object_new_string(
		cs_sym_str(s, name, sizeof(name))));
	snprintf(key, sizeof(key), "%s" CS_JK_ADDR_SUFFIX, field);
	json_object_object_add(o, key, cs_json_addr(s->addr));
	if (s->module) {
		snprintf(key, sizeof(key), "%s_module", field);
		json_object_object_add(o, key, json_object_new_string(s->module));
	}
}

/* --- statistics ------------------------------------------------------------- */

void cs_cbstats_add(struct cs_cbstats *st, __u64 ns, int ret, int units)
{
	st->count++;
	if (ns) {
		log2_hist_add(st->slots, CS_MAX_SLOTS, cs_ns_to_units(ns, units));
		st->sum_ns += ns;
		if (ns > st->max_ns)
			st->max_ns = ns;
	} else {
		st->untimed++;
	}
	switch (cs_ret_classify(ret)) {
	case CS_RET_STOP:
		st->stop++;
		break;
	case CS_RET_BAD:
		st->bad++;
		break;
	case CS_RET_ERRNO:
		st->err++;
		break;
	case CS_RET_OK:
		break;
	}
}

/* --- telling rows apart ----------------------------------------------------- */

const char *cs_cbrow_label_str(const struct cs_cbrow *r, char *buf, size_t len)
{
	char nb[CS_SYMSTR_LEN], a[CS_SYMSTR_LEN];
	size_t n;

	buf[0] = '\0';
	switch (r->label) {
	case CS_LABEL_NONE:
		break;
	case CS_LABEL_NB:
		if (r->nb.addr)
			snprintf(buf, len, "nb=%s", cs_sym_str(&r->nb, nb, sizeof(nb)));
		break;
	case CS_LABEL_FULL:
	case CS_LABEL_ADDR:
		if (r->label == CS_LABEL_FULL)
			snprintf(buf, len, "chain=%s ", cs_addr_str(r->chain.addr, a, sizeof(a)));
		n = strlen(buf);
		snprintf(buf + n, len - n, "cb=%s", cs_addr_str(r->cb.addr, a, sizeof(a)));
		n = strlen(buf);
		if (r->nb.addr)
			snprintf(buf + n, len - n, " nb=%s", cs_addr_str(r->nb.addr, a, sizeof(a)));
		break;
	}
	return buf;
}

/*
 * A row's printed identity (chain, kind, callback, val) and, with
 * with_label, its label after a NUL: the bytes a hash key is made of.
 */
static size_t row_key(const struct cs_cbrow *r, bool with_label, char *buf, size_t len)
{
	char c[CS_SYMSTR_LEN], f[CS_SYMSTR_LEN];
	int n;

	n = snprintf(buf, len, "%s%c%d%c%s%c%d:%llu", cs_sym_str(&r->chain, c, sizeof(c)),
		     0, r->kind, 0, cs_sym_str(&r->cb, f, sizeof(f)), 0, r->has_val,
		     (unsigned long long)r->val);
	if (n < 0)
		return 0;
	if ((size_t)n >= len)
		return len - 1;
	if (with_label && (size_t)n + 1 < len) {
		buf[n++] = '\0';
		cs_cbrow_label_str(r, buf + n, len - n);
		n += strlen(buf + n);
	}
	return n;
}

struct row_key {
	UT_hash_handle hh;
	size_t n;		/* rows with this key */
	bool clash;		/* the label being tried leaves two rows alike */
	char key[];
};

/* Count one more row with this key; NULL if out of memory. */
static struct row_key *count_key(struct row_key **tab, const char *key, size_t len)
{
	struct row_key *k;

	HASH_FIND(hh, *tab, key, len, k);
	if (!k) {
		k = calloc(1, sizeof(*k) + len);
		if (!k)
			return NULL;
		memcpy(k->key, key, len);
		HASH_ADD_KEYPTR(hh, *tab, k->key, len, k);
		if (!k->hh.tbl) {
			free(k);
			return NULL;
		}
	}
	k->n++;
	return k;
}

static void free_keys(struct row_key **tab)
{
	struct row_key *k, *tmp;

	HASH_ITER(hh, *tab, k, tmp) {
		HASH_DEL(*tab, k);
		free(k);
	}
}

int cs_cbrows_disambiguate(struct cs_cbrow *rows, size_t n)
{
	static const enum cs_cbrow_label tries[] = { CS_LABEL_NB, CS_LABEL_ADDR };
	struct row_key *names = NULL, *labels = NULL, **grp, *k;
	char key[4 * CS_SYMSTR_LEN];
	size_t i, t;

	grp = calloc(n ? n : 1, sizeof(*grp));
	if (!grp)
		goto nomem;
	for (i = 0; i < n; i++) {
		rows[i].label = CS_LABEL_NONE;
		grp[i] = count_key(&names, key, row_key(&rows[i], false, key, sizeof(key)));
		if (!grp[i])
			goto nomem;
	}
	/* per group of alike rows: the first label that tells them apart */
	for (t = 0; t < sizeof(tries) / sizeof(tries[0]); t++) {
		for (i = 0; i < n; i++) {
			if (grp[i]->n < 2 || rows[i].label != CS_LABEL_NONE)
				continue;
			grp[i]->clash = false;
			rows[i].label = tries[t];
			k = count_key(&labels, key, row_key(&rows[i], true, key, sizeof(key)));
			rows[i].label = CS_LABEL_NONE;
			if (!k)
				goto nomem;
		}
		for (i = 0; i < n; i++) {
			if (grp[i]->n < 2 || rows[i].label != CS_LABEL_NONE)
				continue;
			rows[i].label = tries[t];
			HASH_FIND(hh, labels, key, row_key(&rows[i], true, key, sizeof(key)), k);
			rows[i].label = CS_LABEL_NONE;
			if (k->n > 1)
				grp[i]->clash = true;
		}
		for (i = 0; i < n; i++)
			if (grp[i]->n >= 2 && rows[i].label == CS_LABEL_NONE && !grp[i]->clash)
				rows[i].label = tries[t];
		free_keys(&labels);
	}
	/* rows are unique by address, so this one always works */
	for (i = 0; i < n; i++)
		if (grp[i]->n >= 2 && rows[i].label == CS_LABEL_NONE)
			rows[i].label = CS_LABEL_FULL;
	free_keys(&names);
	free(grp);
	return 0;
nomem:
	for (i = 0; i < n; i++)
		rows[i].label = CS_LABEL_FULL;
	free_keys(&labels);
	free_keys(&names);
	free(grp);
	return -ENOMEM;
}

int cs_cbrow_cmp(const void *a, const void *b)
{
	const struct cs_cbrow *x = a, *y = b;
	char lx[CS_SYMSTR_LEN + 64], ly[CS_SYMSTR_LEN + 64];
	int r;

	r = cs_sym_cmp(&x->chain, &y->chain);
	if (r)
		return r;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	r = cs_sym_cmp(&x->cb, &y->cb);	/* name, then address */
	if (r)
		return r;
	if (x->label != CS_LABEL_NONE || y->label != CS_LABEL_NONE) {
		r = strcmp(cs_cbrow_label_str(x, lx, sizeof(lx)),
			   cs_cbrow_label_str(y, ly, sizeof(ly)));
		if (r)
			return r;
	}
	if (x->val != y->val)
		return x->val < y->val ? -1 : 1;
	return x->nb.addr < y->nb.addr ? -1 : x->nb.addr > y->nb.addr;
}

/* --- printing --------------------------------------------------------------- */

void cs_cbrow_print(FILE *f, const struct cs_cbrow *r, int units)
{
	const char *unit = cs_units_suffix(units);
	char chain[CS_SYMSTR_LEN], cb[CS_SYMSTR_LEN], label[CS_SYMSTR_LEN + 64];
	struct cs_summary s;

	fprintf(f, "\nchain: %s (%s) callback: %s", cs_sym_str(&r->chain, chain, sizeof(chain)),
		cs_kind_name(r->kind), cs_sym_str(&r->cb, cb, sizeof(cb)));
	if (r->label != CS_LABEL_NONE)
		fprintf(f, " [%s]", cs_cbrow_label_str(r, label, sizeof(label)));
	if (r->has_val)
		fprintf(f, " val=%llu", (unsigned long long)r->val);
	cs_summarize(r->st.slots, r->st.count, r->st.max_ns, units, &s);
	fprintf(f, "  count=%llu max=%llu%s p50~%llu%s p99~%llu%s stop=%llu bad=%llu errno=%llu\n",
		s.count, s.max, unit, s.p50, unit, s.p99, unit,
		(unsigned long long)r->st.stop, (unsigned long long)r->st.bad,
		(unsigned long long)r->st.err);
	if (r->st.untimed)
		fprintf(f, "  (%llu calls untimed: notifier_return was enabled while they ran)\n",
			(unsigned long long)r->st.untimed);
	fprint_log2_hist(f, r->st.slots, CS_MAX_SLOTS, cs_units_name(units));
}

json_object *cs_cbrow_json(const struct cs_cbrow *r, int units)
{
	json_object *o = json_object_new_object();
	struct cs_summary s;

	cs_json_symbol(o, CS_JK_CHAIN, &r->chain);
	json_object_object_add(o, "kind", json_object_new_string(cs_kind_name(r->kind)));
	cs_json_symbol(o, CS_JK_CALLBACK, &r->cb);
	if (r->has_val)
		json_object_object_add(o, CS_JK_VAL, json_object_new_uint64(r->val));
	cs_summarize(r->st.slots, r->st.count, r->st.max_ns, units, &s);
	cs_json_summary(o, &s, r->st.sum_ns, r->st.max_ns, units);
	json_object_object_add(o, CS_JK_STOP, json_object_new_uint64(r->st.stop));
	json_object_object_add(o, CS_JK_BAD, json_object_new_uint64(r->st.bad));
	json_object_object_add(o, CS_JK_ERRNO, json_object_new_uint64(r->st.err));
	json_object_object_add(o, CS_JK_UNTIMED, json_object_new_uint64(r->st.untimed));
	json_object_object_add(o, CS_JK_HISTOGRAM, cs_json_hist(r->st.slots, CS_MAX_SLOTS));
	if (r->nb.addr)
		cs_json_symbol(o, CS_JK_NB, &r->nb);
	return o;
}
