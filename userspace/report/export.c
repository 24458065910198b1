// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope report --perfetto and --folded: the timeline (timeline.h) as
 * Chrome trace-event JSON, which the Perfetto UI and chrome://tracing
 * open, and as folded stacks, which flamegraph.pl and speedscope read.
 *
 * Perfetto. Complete events ("ph":"X", ts and dur in microseconds since
 * the trace's start, with the nanoseconds as three decimals), written per
 * track in start order, parents first. Tracks: one process "tasks" with
 * a thread per task (tid = its thread id, or a made-up one for the idle
 * tasks, which all have pid 0, and for a pid two tasks had), and one
 * process "CPU N" per CPU with a thread per interrupt context that ran
 * there (softirq, hardirq, NMI). Stops and vetoes are thread-scoped
 * instants, event loss a process-scoped instant on its CPU (global for
 * recursion misses). Every event is one line.
 *
 * Folded. One line per stack, "chain;callback[;inner_chain;inner_cb...]
 * VALUE": VALUE the stack's own ns (its slices' time less the time of the
 * slices inside them), or with calls its number of slices. Lines sorted.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#define HASH_NONFATAL_OOM 1
#include <uthash.h>

#include "callback_row.h"
#include "chainscope.h"
#include "report.h"
#include "timeline.h"
#include "trace_cli.h"
#include "trace_helpers.h"
#include "tracefile.h"

/* pid and tid spaces of the made-up tracks, above any Linux pid (2^22) */
#define PF_TASKS_PID	0x3fffffff
#define PF_CPU_PID	0x40000000	/* + the CPU's order of appearance */
#define PF_CTX_TID	0x50000000	/* + the track's index */
#define PF_TASK_TID	0x60000000	/* + the track's index */

struct pf_id {
	UT_hash_handle hh;
	__u32 key;		/* a CPU, or a tid taken */
	int pid;
	__u64 last;		/* a CPU: its latest loss instant */
};

struct pf {
	FILE *f;
	const struct cs_trace *t;
	const char *sep;
	bool tasks_named;
	struct pf_id *cpus, *tids;
	int nr_cpus;
	int *track_tid;		/* by track index, 0: not yet named */
	int *track_pid;
	size_t nr_track;
};

static void pf_put(struct pf *p, json_object *o)
{
	fputs(p->sep, p->f);
	fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE), p->f);
	json_object_put(o);
	p->sep = ",\n";
}

/* microseconds with exactly the nanoseconds as decimals */
static void pf_us(json_object *o, const char *key, __u64 ns)
{
	char s[32];

	snprintf(s, sizeof(s), "%llu.%03llu", (unsigned long long)(ns / 1000),
		 (unsigned long long)(ns % 1000));
	json_object_object_add(o, key, json_object_new_double_s(ns / 1000.0, s));
}

/* one metadata event: {"ph":"M","name":what,"pid","tid"(>= 0),"args":{key: v}} */
static void pf_meta1(struct pf *p, const char *what, int pid, int tid, const char *key,
		     json_object *v)
{
	json_object *o = json_object_new_object(), *a = json_object_new_object();

	json_object_object_add(o, "ph", json_object_new_string("M"));
	json_object_object_add(o, "name", json_object_new_string(what));
	json_object_object_add(o, "pid", json_object_new_int(pid));
	if (tid >= 0)
		json_object_object_add(o, "tid", json_object_new_int(tid));
	json_object_object_add(a, key, v);
	json_object_object_add(o, "args", a);
	pf_put(p, o);
}

/* a process (tid < 0) or thread track's name and its place in the list */
static void pf_meta(struct pf *p, int pid, int tid, const char *name, int sort)
{
	pf_meta1(p, tid >= 0 ? "thread_name" : "process_name", pid, tid, "name",
		 json_object_new_string(name));
	pf_meta1(p, tid >= 0 ? "thread_sort_index" : "process_sort_index", pid, tid,
		 "sort_index", json_object_new_int(sort));
}

/* a set of __u32 keys with a value; -ENOMEM */
static struct pf_id *id_get(struct pf_id **set, __u32 key, int *val, bool *added)
{
	struct pf_id *i;

	*added = false;
	HASH_FIND(hh, *set, &key, sizeof(key), i);
	if (i) {
		*val = i->pid;
		return i;
	}
	i = calloc(1, sizeof(*i));
	if (!i)
		return NULL;
	i->key = key;
	i->pid = *val;
	HASH_ADD(hh, *set, key, sizeof(i->key), i);
	if (!i->hh.tbl) {
		free(i);
		return NULL;
	}
	*added = true;
	return i;
}

static void id_free(struct pf_id **set)
{
	struct pf_id *i, *tmp;

	HASH_ITER(hh, *set, i, tmp) {
		HASH_DEL(*set, i);
		free(i);
	}
}

/* the process of a CPU, named the first time; NULL: no memory */
static struct pf_id *pf_cpu(struct pf *p, __u32 cpu)
{
	int pid = PF_CPU_PID + p->nr_cpus;
	struct pf_id *c;
	char name[32];
	bool added;

	c = id_get(&p->cpus, cpu, &pid, &added);
	if (c && added) {
		p->nr_cpus++;
		snprintf(name, sizeof(name), "CPU %u", cpu);
		pf_meta(p, pid, -1, name,
			(int)(cpu < 0x7ffffff ? cpu + 1 : 0x7ffffff));
	}
	return c;
}

/* the track's pid and tid, named the first time; -1: no memory */
static int pf_track(struct pf *p, const struct cs_tl_track *tr, int *pid, int *tid)
{
	size_t cap = p->nr_track;
	char name[64];
	bool added, ok;

	/* the two arrays have nr_track elements each: grown alike */
	if (cs_grow(&p->track_tid, &cap, (size_t)tr->idx + 1, sizeof(*p->track_tid)))
		return -1;
	cap = p->nr_track;
	if (cs_grow(&p->track_pid, &cap, (size_t)tr->idx + 1, sizeof(*p->track_pid)))
		return -1;
	p->nr_track = cap;
	if (p->track_tid[tr->idx]) {
		*pid = p->track_pid[tr->idx];
		*tid = p->track_tid[tr->idx];
		return 0;
	}
	if (tr->ctx == CS_REC_CTX_TASK) {
		*pid = PF_TASKS_PID;
		if (!p->tasks_named) {
			pf_meta(p, *pid, -1, "tasks", 0);
			p->tasks_named = true;
		}
		/* a real thread id (pid_max is at most 2^22), else a made-up one */
		ok = tr->pid && tr->pid < PF_TASKS_PID;
		*tid = ok ? (int)tr->pid : PF_TASK_TID + (int)tr->idx;
		if (ok && (!id_get(&p->tids, tr->pid, tid, &added) || !added))
			*tid = PF_TASK_TID + (int)tr->idx;	/* a pid two tasks had */
		if (*tid == (int)tr->pid)
			snprintf(name, sizeof(name), "pid %u", tr->pid);
		else
			snprintf(name, sizeof(name), "pid %u (task 0x%llx)", tr->pid,
				 (unsigned long long)tr->task);
		pf_meta(p, *pid, *tid, name, (int)tr->idx);
	} else {
		struct pf_id *c = pf_cpu(p, tr->cpu);

		if (!c)
			return -1;
		*pid = c->pid;
		*tid = PF_CTX_TID + (int)tr->idx;
		snprintf(name, sizeof(name), "%s", cs_tl_ctx_name(tr->ctx));
		pf_meta(p, *pid, *tid, name, (int)tr->ctx);
	}
	p->track_pid[tr->idx] = *pid;
	p->track_tid[tr->idx] = *tid;
	return 0;
}

static void sym_arg(const struct cs_trace *t, json_object *a, const char *key, __u64 addr)
{
	struct cs_sym s;

	cs_sym_from_trace(&s, t, addr);
	cs_json_symbol(a, key, &s);
}

static int pf_flush(void *ctx, const struct cs_tl_track *tr, const struct cs_tl_item *items,
		    size_t n)
{
	char name[CS_SYMSTR_LEN + 32], sym[CS_SYMSTR_LEN];
	struct pf *p = ctx;
	const struct cs_trace *t = p->t;
	int pid, tid;
	size_t i;

	if (pf_track(p, tr, &pid, &tid))
		return -1;
	for (i = 0; i < n; i++) {
		const struct cs_tl_item *it = &items[i];
		const struct cs_rec_event *b = it->b, *e = it->e;
		json_object *o = json_object_new_object(), *a = json_object_new_object();
		const char *cat = "pass", *nm = name;

		switch (it->type) {
		case CS_TL_PASS:
			nm = cs_tl_sym_name(t, b->head, name, sizeof(name));
			sym_arg(t, a, "chain", b->head);
			json_object_object_add(a, "kind", json_object_new_string(cs_kind_name(b->kind)));
			json_object_object_add(a, "call", json_object_new_string(cs_tl_call_name(b->call_type)));
			json_object_object_add(a, "val", json_object_new_uint64(b->val));
			if (b->nr_to_call >= 0)
				json_object_object_add(a, "nr_to_call", json_object_new_int(b->nr_to_call));
			if (e) {
				json_object_object_add(a, "ret", json_object_new_int(e->ret));
				json_object_object_add(a, "nr_calls", json_object_new_int(e->nr_calls));
			}
			break;
		case CS_TL_CALLBACK:
			cat = "callback";
			nm = cs_tl_sym_name(t, b->cb, name, sizeof(name));
			sym_arg(t, a, "callback", b->cb);
			sym_arg(t, a, "nb", b->nb);
			json_object_object_add(a, "priority", json_object_new_int(b->priority));
			if (e) {
				json_object_object_add(a, "ret", json_object_new_int(e->ret));
				json_object_object_add(a, "result",
						       json_object_new_string(cs_tl_result_name(e->ret)));
				json_object_object_add(a, "duration_ns",
						       json_object_new_uint64(e->duration_ns));
			}
			break;
		case CS_TL_LOCK:
			cat = "lock";
			snprintf(name, sizeof(name), "lock wait (%s)", cs_lock_op_name(b->lock_op));
			sym_arg(t, a, "chain", b->head);
			sym_arg(t, a, "lock", b->lock);
			json_object_object_add(a, "op", json_object_new_string(cs_lock_op_name(b->lock_op)));
			json_object_object_add(a, "wait_ns", json_object_new_uint64(b->duration_ns));
			break;
		default:
			cat = "stop";
			snprintf(name, sizeof(name), "%s: %s",
				 cs_ret_classify(b->ret) == CS_RET_STOP ? "stop" : "veto",
				 cs_tl_sym_name(t, b->cb, sym, sizeof(sym)));
			sym_arg(t, a, "chain", b->head);
			sym_arg(t, a, "callback", b->cb);
			json_object_object_add(a, "ret", json_object_new_int(b->ret));
			json_object_object_add(a, "result", json_object_new_string(cs_tl_result_name(b->ret)));
			json_object_object_add(a, "nr_calls", json_object_new_int(b->nr_calls));
		}
		if (it->type != CS_TL_STOP && it->type != CS_TL_LOCK && !e)
			json_object_object_add(a, "unfinished", json_object_new_boolean(1));
		json_object_object_add(a, "cpu", json_object_new_uint64(b->cpu));
		json_object_object_add(o, "name", json_object_new_string(nm));
		json_object_object_add(o, "cat", json_object_new_string(cat));
		json_object_object_add(o, "ph", json_object_new_string(it->type == CS_TL_STOP ? "i" : "X"));
		pf_us(o, "ts", it->ts);
		if (it->type == CS_TL_STOP)
			json_object_object_add(o, "s", json_object_new_string("t"));
		else
			pf_us(o, "dur", it->dur);
		json_object_object_add(o, "pid", json_object_new_int(pid));
		json_object_object_add(o, "tid", json_object_new_int(tid));
		json_object_object_add(o, "args", a);
		pf_put(p, o);
	}
	return ferror(p->f) ? -1 : 0;
}

/* loss records: an instant on their CPU's process, global for misses */
static int pf_losses(struct pf *p)
{
	const struct cs_trace *t = p->t;
	__u64 start = t->hdr.start_ns, global = 0;
	size_t i;

	for (i = 0; i < t->nr_events; i++) {
		const struct cs_rec_event *e = &t->events[i];
		__u64 ts = e->ts > start ? e->ts - start : 0, *last = &global;
		struct pf_id *c = NULL;
		json_object *o, *a;
		char name[64];

		if (e->type != CS_REC_LOSS)
			continue;
		if (e->cpu != CS_REC_CPU_ANY) {
			c = pf_cpu(p, e->cpu);
			if (!c)
				return -1;
			last = &c->last;
		}
		if (ts < *last)
			ts = *last;
		*last = ts;
		o = json_object_new_object();
		a = json_object_new_object();
		snprintf(name, sizeof(name), "lost %llu events (%s)", (unsigned long long)e->val,
			 cs_rec_loss_reason_name(e->reason));
		json_object_object_add(o, "name", json_object_new_string(name));
		json_object_object_add(o, "cat", json_object_new_string("loss"));
		json_object_object_add(o, "ph", json_object_new_string("i"));
		pf_us(o, "ts", ts);
		json_object_object_add(o, "s", json_object_new_string(c ? "p" : "g"));
		if (c)
			json_object_object_add(o, "pid", json_object_new_int(c->pid));
		json_object_object_add(a, "lost", json_object_new_uint64(e->val));
		json_object_object_add(a, "reason",
				       json_object_new_string(cs_rec_loss_reason_name(e->reason)));
		json_object_object_add(o, "args", a);
		pf_put(p, o);
	}
	return 0;
}

int cs_report_perfetto(FILE *f, const struct cs_trace *t, const char *file)
{
	struct pf p = { .f = f, .t = t, .sep = "" };
	struct cs_tl_stats st;
	json_object *o;
	const char *s;
	int rc;

	fputs("{\"traceEvents\":[\n", f);
	rc = cs_timeline_walk(t, pf_flush, &p, &st);
	if (!rc)
		rc = pf_losses(&p);
	o = json_object_new_object();
	json_object_object_add(o, "tool", json_object_new_string("chainscope report --perfetto"));
	json_object_object_add(o, "file", json_object_new_string(file));
	json_object_object_add(o, "kernel", json_object_new_string(t->hdr.release));
	json_object_object_add(o, "boot_id", json_object_new_string(t->hdr.boot_id));
	json_object_object_add(o, "start_ns", json_object_new_uint64(t->hdr.start_ns));
	json_object_object_add(o, "tracks", json_object_new_uint64(st.tracks));
	json_object_object_add(o, "unpaired", json_object_new_uint64(st.unpaired));
	json_object_object_add(o, "unfinished", json_object_new_uint64(st.unfinished));
	json_object_object_add(o, "lost", json_object_new_uint64(t->lost));
	json_object_object_add(o, "missed", json_object_new_uint64(t->missed));
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	fprintf(f, "\n],\"displayTimeUnit\":\"ns\",\"otherData\":%s}\n", s);
	json_object_put(o);
	id_free(&p.cpus);
	id_free(&p.tids);
	free(p.track_tid);
	free(p.track_pid);
	if (ferror(f))
		return -EIO;
	return rc ? -ENOMEM : 0;
}

/* --- folded stacks ---------------------------------------------------------- */

/*
 * A stack is a node: (its parent's node, its frame's name), so a slice's
 * stack costs one look-up, however deep it lies; names are interned once
 * per address. The lines are written from the tree at the end, in the
 * order of their strings, with one stack's string at a time in memory.
 */
struct fold_name {			/* by address, and by string */
	UT_hash_handle hh, hs;
	__u64 addr;
	size_t id;			/* of the first name with this string */
	char str[];
};

struct fold_key {
	long parent;			/* node index, -1: none */
	size_t name;			/* fold_name id */
};

struct fold_node {
	UT_hash_handle hh;
	struct fold_key key;
	size_t idx;
	__u64 ns, calls;
	long first, next;		/* children, sorted at the end */
};

struct fold {
	const struct cs_trace *t;
	struct fold_name *by_addr, *by_str;
	const char **names;		/* by id */
	size_t nr_names, names_cap;
	struct fold_node *nodes_h;
	struct fold_node **nodes;	/* by index */
	size_t nr_nodes, nodes_cap;
	__u64 *child_ns;		/* per item of a flush: time of the slices inside */
	long *node_of;			/* per item of a flush: its node */
	size_t cap;
	bool calls;
	FILE *out;
	char *path;			/* the stack being written */
	size_t path_cap;
};

static bool folded_type(int type)
{
	return type == CS_TL_PASS || type == CS_TL_CALLBACK;
}

/* the id of addr's name; -1: no memory */
static long fold_name_id(struct fold *f, __u64 addr)
{
	struct fold_name *n, *same;
	char buf[CS_SYMSTR_LEN];
	const char *s;

	HASH_FIND(hh, f->by_addr, &addr, sizeof(addr), n);
	if (n)
		return n->id;
	if (cs_grow(&f->names, &f->names_cap, f->nr_names + 1, sizeof(*f->names)))
		return -1;
	s = cs_tl_sym_name(f->t, addr, buf, sizeof(buf));
	n = calloc(1, sizeof(*n) + strlen(s) + 1);
	if (!n)
		return -1;
	n->addr = addr;
	strcpy(n->str, s);
	HASH_ADD(hh, f->by_addr, addr, sizeof(n->addr), n);
	if (!n->hh.tbl) {
		free(n);
		return -1;
	}
	/* from here on n is freed with by_addr */
	HASH_FIND(hs, f->by_str, n->str, strlen(n->str), same);
	if (same) {
		n->id = same->id;
		return n->id;
	}
	n->id = f->nr_names;
	HASH_ADD_KEYPTR(hs, f->by_str, n->str, strlen(n->str), n);
	if (!n->hs.tbl)
		return -1;
	f->names[f->nr_names++] = n->str;
	return n->id;
}

/* the node of (parent, the frame of it); -1: no memory */
static long fold_node(struct fold *f, long parent, const struct cs_tl_item *it)
{
	struct fold_key k = { .parent = parent };
	struct fold_node *n;
	long name = fold_name_id(f, it->type == CS_TL_PASS ? it->b->head : it->b->cb);

	if (name < 0)
		return -1;
	k.name = name;
	HASH_FIND(hh, f->nodes_h, &k, sizeof(k), n);
	if (n)
		return n->idx;
	if (cs_grow(&f->nodes, &f->nodes_cap, f->nr_nodes + 1, sizeof(*f->nodes)))
		return -1;
	n = calloc(1, sizeof(*n));
	if (!n)
		return -1;
	n->key = k;
	n->idx = f->nr_nodes;
	n->first = n->next = -1;
	HASH_ADD(hh, f->nodes_h, key, sizeof(k), n);
	if (!n->hh.tbl) {
		free(n);
		return -1;
	}
	f->nodes[f->nr_nodes++] = n;
	return n->idx;
}

static int fold_flush(void *ctx, const struct cs_tl_track *tr, const struct cs_tl_item *items,
		      size_t n)
{
	struct fold *f = ctx;
	size_t i, cap = f->cap;

	(void)tr;
	if (n > f->cap) {
		if (cs_grow(&f->child_ns, &cap, n, sizeof(*f->child_ns)))
			return -1;
		cap = f->cap;
		if (cs_grow(&f->node_of, &cap, n, sizeof(*f->node_of)))
			return -1;
		f->cap = cap;
	}
	memset(f->child_ns, 0, n * sizeof(*f->child_ns));
	for (i = 0; i < n; i++)
		if (folded_type(items[i].type) && items[i].parent >= 0)
			f->child_ns[items[i].parent] += items[i].dur;
	/* parents come before their children */
	for (i = 0; i < n; i++) {
		const struct cs_tl_item *it = &items[i];
		struct fold_node *e;
		long nd;

		f->node_of[i] = -1;
		if (!folded_type(it->type))
			continue;
		nd = fold_node(f, it->parent >= 0 ? f->node_of[it->parent] : -1, it);
		if (nd < 0)
			return -1;
		f->node_of[i] = nd;
		e = f->nodes[nd];
		/* children lie within their parent: never more than its time */
		e->ns += it->dur > f->child_ns[i] ? it->dur - f->child_ns[i] : 0;
		e->calls++;
	}
	return 0;
}

/*
 * The order of strcmp() on whole lines: a's name then ta against b's name
 * then tb, where t is '\0' for the stack itself and ';' for the stacks
 * below it.
 */
static int cmp_frame(const char *a, char ta, const char *b, char tb)
{
	unsigned char ca, cb;
	size_t i = 0;

	while (a[i] && a[i] == b[i])
		i++;
	/* names hold no ';' (symname.h): equal here means both ended */
	ca = a[i] ? a[i] : ta;
	cb = b[i] ? b[i] : tb;
	return ca - cb;
}

struct fold_ent {
	const char *name;
	long node;
	char t;		/* '\0': the node's line, ';': its children */
};

static int cmp_ent(const void *x, const void *y)
{
	const struct fold_ent *a = x, *b = y;

	return cmp_frame(a->name, a->t, b->name, b->t);
}

/* the lines of the siblings from first on, below the stack path[0..len) */
static int fold_write(struct fold *f, long first, size_t len)
{
	struct fold_ent *v;
	size_t n = 0, i;
	long c;
	int rc = 0;

	for (c = first; c >= 0; c = f->nodes[c]->next)
		n += 1 + (f->nodes[c]->first >= 0);
	v = calloc(n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	n = 0;
	for (c = first; c >= 0; c = f->nodes[c]->next) {
		const char *name = f->names[f->nodes[c]->key.name];

		v[n++] = (struct fold_ent){ name, c, '\0' };
		if (f->nodes[c]->first >= 0)
			v[n++] = (struct fold_ent){ name, c, ';' };
	}
	qsort(v, n, sizeof(*v), cmp_ent);
	for (i = 0; i < n && !rc; i++) {
		const struct fold_node *nd = f->nodes[v[i].node];
		size_t l = strlen(v[i].name), at = len ? len + 1 : 0;

		if (cs_grow(&f->path, &f->path_cap, at + l + 1, 1)) {
			rc = -ENOMEM;
			break;
		}
		if (len)
			f->path[len] = ';';
		memcpy(f->path + at, v[i].name, l + 1);
		if (v[i].t == ';')
			rc = fold_write(f, nd->first, at + l);
		else if (f->calls || nd->ns)	/* a stack with no time of its own adds nothing */
			fprintf(f->out, "%s %llu\n", f->path,
				(unsigned long long)(f->calls ? nd->calls : nd->ns));
	}
	free(v);
	return rc;
}

int cs_report_folded(FILE *out, const struct cs_trace *t, bool calls)
{
	struct fold f = { .t = t, .calls = calls, .out = out };
	struct fold_name *n, *tmp;
	struct fold_node *nd, *ntmp;
	struct cs_tl_stats st;
	long roots = -1;
	size_t i;
	int rc;

	rc = cs_timeline_walk(t, fold_flush, &f, &st);
	/* children lists, by links: a node's index is above its parent's */
	for (i = f.nr_nodes; !rc && i-- > 0;) {
		long p = f.nodes[i]->key.parent;
		long *head = p >= 0 ? &f.nodes[p]->first : &roots;

		f.nodes[i]->next = *head;
		*head = i;
	}
	if (!rc && roots >= 0)
		rc = fold_write(&f, roots, 0);
	HASH_ITER(hh, f.nodes_h, nd, ntmp) {
		HASH_DEL(f.nodes_h, nd);
		free(nd);
	}
	HASH_CLEAR(hs, f.by_str);
	HASH_ITER(hh, f.by_addr, n, tmp) {
		HASH_DEL(f.by_addr, n);
		free(n);
	}
	free(f.names);
	free(f.nodes);
	free(f.child_ns);
	free(f.node_of);
	free(f.path);
	if (ferror(out))
		return -EIO;
	return rc ? -ENOMEM : 0;
}
