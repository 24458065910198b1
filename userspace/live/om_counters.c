// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Monotonic counters from latency's samples (om_counters.h). A sample holds
 * what ran since the previous one (latency drains a map generation each
 * interval), so adding the samples up gives counters since start; rows
 * are never removed, so a chain or callback that goes away keeps its
 * last values. There are at most max_rows of them; entries for more are
 * counted (overflow), not kept.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define HASH_NONFATAL_OOM 1	/* a failed add leaves the item's hh.tbl NULL */
#include <uthash.h>

#include "callback_row.h"
#include "om_counters.h"
#include "openmetrics.h"
#include "live.h"

struct om_cb {
	UT_hash_handle hh;
	struct om_cb_key {
		__u64 head, cb, nb;	/* per-value rows (-a) are folded */
	} key;
	int kind;
	struct cs_cbstats st;
};

struct om_chain {
	UT_hash_handle hh;
	__u64 head;
	int kind;
	__u64 count, stopped, rollbacks;
};

struct om_lock {
	UT_hash_handle hh;
	struct om_lock_key {
		__u64 head;
		__u32 op, pad;
	} key;
	int kind;
	__u32 slots[CS_MAX_SLOTS];
	__u64 sum_ns;
};

struct cs_om_live {
	const struct cs_common *c;
	__u64 *heads;
	int nr_heads;
	struct om_cb *cbs;
	struct om_chain *chains;
	struct om_lock *locks;
	struct cs_health health;	/* the last sample's, cumulative */
	struct cs_health lock_health;	/* contention's, the same */
	size_t max_rows;
	__u64 overflow;		/* sample entries of rows not kept */
};

void cs_om_live_set_max_rows(struct cs_om_live *om, size_t max)
{
	om->max_rows = max;
}

/* room for one more row? if not, the entry is counted as overflow */
static bool room(struct cs_om_live *om)
{
	if (HASH_COUNT(om->cbs) + HASH_COUNT(om->chains) + HASH_COUNT(om->locks) <
	    om->max_rows)
		return true;
	om->overflow++;
	return false;
}

struct cs_om_live *cs_om_live_new(const struct cs_common *c, const __u64 *heads,
				  int nr_heads)
{
	struct cs_om_live *om = calloc(1, sizeof(*om));

	if (!om)
		return NULL;
	om->c = c;
	om->max_rows = CS_OM_LIVE_MAX_ROWS;
	if (nr_heads) {
		om->heads = calloc(nr_heads, sizeof(*heads));
		if (!om->heads) {
			free(om);
			return NULL;
		}
		memcpy(om->heads, heads, nr_heads * sizeof(*heads));
		om->nr_heads = nr_heads;
	}
	return om;
}

static bool wanted(const struct cs_om_live *om, __u64 head)
{
	int i;

	for (i = 0; i < om->nr_heads; i++)
		if (om->heads[i] == head)
			return true;
	return !om->nr_heads;
}

static int add_cb(struct cs_om_live *om, const struct cs_lat_entry *e)
{
	struct om_cb_key key = { e->key.head, e->key.cb, e->key.nb };
	const struct cs_lat_hist *h = &e->val;
	struct om_cb *c;
	int i;

	HASH_FIND(hh, om->cbs, &key, sizeof(key), c);
	if (!c) {
		if (!room(om))
			return 0;
		c = calloc(1, sizeof(*c));
		if (!c)
			return -ENOMEM;
		c->key = key;
		HASH_ADD(hh, om->cbs, key, sizeof(key), c);
		if (!c->hh.tbl) {
			free(c);
			return -ENOMEM;
		}
	}
	c->kind = h->kind;
	for (i = 0; i < CS_MAX_SLOTS; i++)
		c->st.slots[i] += h->slots[i];
	c->st.count += h->count;
	c->st.sum_ns += h->sum_ns;
	if (h->max_ns > c->st.max_ns)
		c->st.max_ns = h->max_ns;
	c->st.stop += h->stop;
	c->st.bad += h->bad;
	c->st.err += h->err;
	c->st.untimed += h->untimed;
	return 0;
}

static int add_chain(struct cs_om_live *om, const struct cs_chain_entry *e)
{
	struct om_chain *c;

	HASH_FIND(hh, om->chains, &e->key.head, sizeof(e->key.head), c);
	if (!c) {
		if (!room(om))
			return 0;
		c = calloc(1, sizeof(*c));
		if (!c)
			return -ENOMEM;
		c->head = e->key.head;
		HASH_ADD(hh, om->chains, head, sizeof(c->head), c);
		if (!c->hh.tbl) {
			free(c);
			return -ENOMEM;
		}
	}
	c->kind = e->val.kind;
	c->count += e->val.count;
	c->stopped += e->val.stopped;
	c->rollbacks += e->val.rollbacks;
	return 0;
}

int cs_om_live_add(struct cs_om_live *om, const struct cs_lat_sample *smp)
{
	int i;

	for (i = 0; i < smp->nlat; i++)
		if (wanted(om, smp->lat[i].key.head) && add_cb(om, &smp->lat[i]))
			return -ENOMEM;
	for (i = 0; i < smp->nchain; i++)
		if (wanted(om, smp->chains[i].key.head) && add_chain(om, &smp->chains[i]))
			return -ENOMEM;
	om->health = smp->health;
	return 0;
}

int cs_om_live_add_locks(struct cs_om_live *om, const struct cs_cont_sample *smp)
{
	struct om_lock *l;
	int i, k;

	for (i = 0; i < smp->nc; i++) {
		const struct cs_cont_entry *e = &smp->ce[i];
		struct om_lock_key key = { .head = e->key.head, .op = e->key.op };

		if (!wanted(om, key.head))
			continue;
		HASH_FIND(hh, om->locks, &key, sizeof(key), l);
		if (!l) {
			if (!room(om))
				continue;
			l = calloc(1, sizeof(*l));
			if (!l)
				return -ENOMEM;
			l->key = key;
			HASH_ADD(hh, om->locks, key, sizeof(key), l);
			if (!l->hh.tbl) {
				free(l);
				return -ENOMEM;
			}
		}
		l->kind = e->val.kind;
		for (k = 0; k < CS_MAX_SLOTS; k++)
			l->slots[k] += e->val.slots[k];
		l->sum_ns += e->val.sum_ns;
	}
	om->lock_health = smp->health;
	return 0;
}

static int cmp_lock(const void *a, const void *b)
{
	const struct cs_om_lock *x = a, *y = b;
	int r = cs_sym_cmp(&x->chain, &y->chain);

	return r ? r : (x->op > y->op) - (x->op < y->op);
}

static int cmp_pass(const void *a, const void *b)
{
	return cs_sym_cmp(&((const struct cs_om_pass *)a)->chain,
			  &((const struct cs_om_pass *)b)->chain);
}

int cs_om_live_write(struct cs_om_live *om, FILE *f, const struct ksyms *ks)
{
	size_t ncb = HASH_COUNT(om->cbs), nch = HASH_COUNT(om->chains), i = 0;
	size_t nlk = HASH_COUNT(om->locks);
	struct cs_cbrow *rows = calloc(ncb + 1, sizeof(*rows));
	struct cs_om_pass *passes = calloc(nch + 1, sizeof(*passes));
	struct cs_om_lock *locks = calloc(nlk + 1, sizeof(*locks));
	struct cs_om_set set = {
		.units = om->c->units,
		.lost = om->health.failed + om->lock_health.failed,
		.missed = om->health.missed + om->lock_health.missed,
		.dropped = om->health.dropped + om->lock_health.dropped,
		.overflow = om->overflow,
		.mode = cs_mode_name(om->c->mode),
	};
	struct om_chain *ch, *chtmp;
	struct om_lock *l, *ltmp;
	struct om_cb *c, *ctmp;
	int err = 0;

	if (!rows || !passes || !locks) {
		err = -ENOMEM;
		goto out;
	}
	HASH_ITER(hh, om->cbs, c, ctmp) {
		struct cs_cbrow *r = &rows[i++];

		cs_sym_from_ksyms(&r->chain, ks, c->key.head);
		cs_sym_from_ksyms(&r->cb, ks, c->key.cb);
		cs_sym_from_ksyms(&r->nb, ks, c->key.nb);
		r->kind = c->kind;
		r->st = c->st;
	}
	/* rows that would read alike get a block label: no two series alike */
	if (cs_cbrows_disambiguate(rows, ncb)) {
		err = -ENOMEM;
		goto out;
	}
	qsort(rows, ncb, sizeof(*rows), cs_cbrow_cmp);
	i = 0;
	HASH_ITER(hh, om->chains, ch, chtmp) {
		struct cs_om_pass *p = &passes[i++];

		cs_sym_from_ksyms(&p->chain, ks, ch->head);
		p->kind = ch->kind;
		p->passes = ch->count - ch->rollbacks;
		p->stopped = ch->stopped;
		p->rollbacks = ch->rollbacks;
	}
	qsort(passes, nch, sizeof(*passes), cmp_pass);
	i = 0;
	HASH_ITER(hh, om->locks, l, ltmp) {
		struct cs_om_lock *o = &locks[i++];

		cs_sym_from_ksyms(&o->chain, ks, l->key.head);
		o->kind = l->kind;
		o->op = l->key.op;
		memcpy(o->slots, l->slots, sizeof(o->slots));
		o->sum_ns = l->sum_ns;
	}
	qsort(locks, nlk, sizeof(*locks), cmp_lock);
	set.locks = locks;
	set.nr_locks = nlk;
	set.cbs = rows;
	set.nr_cbs = ncb;
	set.passes = passes;
	set.nr_passes = nch;
	if (cs_om_write(f, &set))
		err = -EIO;
out:
	free(rows);
	free(passes);
	free(locks);
	return err;
}

void cs_om_live_free(struct cs_om_live *om)
{
	struct om_lock *l, *ltmp;
	struct om_chain *ch, *chtmp;
	struct om_cb *c, *ctmp;

	if (!om)
		return;
	HASH_ITER(hh, om->cbs, c, ctmp) {
		HASH_DEL(om->cbs, c);
		free(c);
	}
	HASH_ITER(hh, om->chains, ch, chtmp) {
		HASH_DEL(om->chains, ch);
		free(ch);
	}
	HASH_ITER(hh, om->locks, l, ltmp) {
		HASH_DEL(om->locks, l);
		free(l);
	}
	free(om->heads);
	free(om);
}
