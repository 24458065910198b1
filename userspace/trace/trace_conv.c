// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Foreign inputs as a chainscope trace: see trace_conv.h. Moved here from
 * tracedat.c, whose semantics it keeps, so that the trace.dat and the
 * console readers convert alike.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "symname.h"
#include "trace_conv.h"
#include "tracefile.h"

/* pairing: per task (pid; pid 0 per CPU) and execution context */
struct open_run {
	__u64 head, cb, nb, val, ts;
	__u32 cpu;
	bool timed;
};
struct open_pass {
	__u64 head, val;
	__u32 nr_runs;
};
struct cs_conv_task {
	__u64 key;			/* task << 2 | ctx */
	struct open_run *runs;
	size_t nr_runs, cap_runs;
	struct open_pass *passes;
	size_t nr_passes, cap_passes;
	UT_hash_handle hh;
};

struct cs_conv_addr {
	__u64 addr;
	UT_hash_handle hh;
};

void cs_conv_init(struct cs_conv *c, int oom_rc, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	c->oom_rc = oom_rc;
	c->err = err;
	c->errlen = errlen;
	if (errlen)
		err[0] = 0;
}

void cs_conv_free(struct cs_conv *c)
{
	struct cs_conv_task *s, *stmp;
	struct cs_conv_addr *a, *atmp;

	HASH_ITER(hh, c->tasks, s, stmp) {
		HASH_DEL(c->tasks, s);
		free(s->runs);
		free(s->passes);
		free(s);
	}
	HASH_ITER(hh, c->addrs, a, atmp) {
		HASH_DEL(c->addrs, a);
		free(a);
	}
	free(c->out);
	c->out = NULL;
	c->nr_out = c->cap_out = 0;
}

int cs_conv_fail(struct cs_conv *c, int code, const char *fmt, ...)
{
	va_list ap;

	if (c->rc)
		return c->rc;
	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	c->rc = code;
	return code;
}

static int oom(struct cs_conv *c)
{
	return cs_conv_fail(c, c->oom_rc, "out of memory");
}

static int push_out(struct cs_conv *c, const struct cs_rec_event *e)
{
	if (c->nr_out == c->cap_out) {
		size_t cap = c->cap_out ? c->cap_out * 2 : 1024;
		void *p = realloc(c->out, cap * sizeof(*c->out));

		if (!p)
			return oom(c);
		c->out = p;
		c->cap_out = cap;
	}
	c->out[c->nr_out++] = *e;
	return 0;
}

static int note_addr(struct cs_conv *c, __u64 addr)
{
	struct cs_conv_addr *a;

	if (!addr)
		return 0;
	HASH_FIND(hh, c->addrs, &addr, sizeof(addr), a);
	if (a)
		return 0;
	a = calloc(1, sizeof(*a));
	if (!a)
		return oom(c);
	a->addr = addr;
	HASH_ADD(hh, c->addrs, addr, sizeof(a->addr), a);
	c->nr_addrs++;
	return 0;
}

int cs_conv_each_addr(struct cs_conv *c, int (*fn)(struct cs_conv *c, __u64 addr, void *arg),
		      void *arg)
{
	struct cs_conv_addr *a, *tmp;
	int rc;

	HASH_ITER(hh, c->addrs, a, tmp) {
		rc = fn(c, a->addr, arg);
		if (rc)
			return rc;
	}
	return 0;
}

static struct cs_conv_task *task_get(struct cs_conv *c, __u64 key)
{
	struct cs_conv_task *s;

	HASH_FIND(hh, c->tasks, &key, sizeof(key), s);
	if (s)
		return s;
	s = calloc(1, sizeof(*s));
	if (!s) {
		oom(c);
		return NULL;
	}
	s->key = key;
	HASH_ADD(hh, c->tasks, key, sizeof(s->key), s);
	return s;
}

static int grow(void **p, size_t *cap, size_t need, size_t sz)
{
	void *n;

	if (need <= *cap)
		return 0;
	n = realloc(*p, (*cap ? *cap * 2 : 8) * sz);
	if (!n)
		return -1;
	*p = n;
	*cap = *cap ? *cap * 2 : 8;
	return 0;
}

/*
 * A loss: the returns of the runs open where it struck may be among what
 * was lost, and a later return of the same (head, cb, nb) would be timed
 * from the wrong run (8 s, say). Those runs are dropped: their returns,
 * if they come, are untimed.
 */
static void drop_runs(struct cs_conv *c, __u32 cpu, int drop)
{
	struct cs_conv_task *s, *tmp;
	size_t i, n;

	if (drop == CS_CONV_DROP_NONE)
		return;
	HASH_ITER(hh, c->tasks, s, tmp) {
		for (i = n = 0; i < s->nr_runs; i++)
			if (drop == CS_CONV_DROP_CPU && s->runs[i].cpu != cpu)
				s->runs[n++] = s->runs[i];
		s->nr_runs = n;
	}
}

int cs_conv_loss(struct cs_conv *c, __u64 ts, __u32 cpu, __u64 count)
{
	return cs_conv_loss_drop(c, ts, cpu, count, CS_CONV_DROP_CPU);
}

int cs_conv_loss_drop(struct cs_conv *c, __u64 ts, __u32 cpu, __u64 count, int drop)
{
	struct cs_rec_event l = { 0 };

	drop_runs(c, cpu, drop);
	l.type = CS_REC_LOSS;
	l.ts = ts;
	l.cpu = cpu;
	l.val = count ? count : 1;
	l.reason = CS_REC_LOSS_RING_FULL;
	if (c->lost + l.val < c->lost)
		return cs_conv_fail(c, c->oom_rc, "missed-event counts overflow");
	c->lost += l.val;
	c->nr_loss++;
	return push_out(c, &l);
}

/*
 * The open pass of s that e (a run, stop or call_end) belongs to: the
 * innermost of its chain and val; else, where the task is known, the
 * innermost (a pass whose call_begin is not in the input nests in it, as
 * before). With no task (CS_TRACE_TASK_NONE: one stream of every CPU's
 * passes) nothing else: another CPU's pass is no pass of e's. Its index
 * + 1, or 0.
 */
static size_t pass_of(const struct cs_conv_task *s, const struct cs_rec_event *e)
{
	size_t i;

	for (i = s->nr_passes; i > 0; i--)
		if (s->passes[i - 1].head == e->head && s->passes[i - 1].val == e->val)
			return i;
	return e->task == CS_TRACE_TASK_NONE ? 0 : s->nr_passes;
}

/*
 * Pairing for inputs whose notifier_return has no duration_ns (the
 * 8-event set): a return's time minus its run's, the runs of one task
 * and context on a stack (nested chains run inside a callback), as
 * bpf/probemode.bpf.h pairs in probes mode, by (head, cb, nb, val): a
 * run and its return carry the pass's val, so where one stream holds
 * several CPUs' passes of a chain (a console without caller ids) each
 * return still finds its own run when their vals differ. (A CPU, where a
 * line says one, is in the task's key already: printk's C<n>, a trace
 * file's idle task; a task's own run and return may be on two CPUs.)
 * Also the pass a stop belongs to, for the stops made from
 * NOTIFY_STOP_MASK returns.
 */
static int pair(struct cs_conv *c, struct cs_rec_event *e)
{
	struct cs_conv_task *s = task_get(c, e->task << 2 | e->ctx);
	size_t i;

	if (!s)
		return c->rc;
	switch (e->type) {
	case CS_REC_CALL_BEGIN:
		if (grow((void **)&s->passes, &s->cap_passes, s->nr_passes + 1,
			 sizeof(*s->passes)))
			return oom(c);
		s->passes[s->nr_passes++] = (struct open_pass){ e->head, e->val, 0 };
		break;
	case CS_REC_CALL_END:
		i = pass_of(s, e);
		if (i) {
			memmove(&s->passes[i - 1], &s->passes[i],
				(s->nr_passes - i) * sizeof(*s->passes));
			s->nr_passes--;
		}
		break;
	case CS_REC_RUN:
		if (grow((void **)&s->runs, &s->cap_runs, s->nr_runs + 1, sizeof(*s->runs)))
			return oom(c);
		s->runs[s->nr_runs++] = (struct open_run){ e->head, e->cb, e->nb, e->val, e->ts,
							   e->cpu, !c->untimed };
		i = pass_of(s, e);
		if (i)
			s->passes[i - 1].nr_runs++;
		break;
	case CS_REC_RETURN:
		for (i = s->nr_runs; i > 0; i--) {
			const struct open_run *r = &s->runs[i - 1];

			if (r->head == e->head && r->cb == e->cb && r->nb == e->nb &&
			    r->val == e->val)
				break;
		}
		if (!(c->flags & CS_CONV_HAS_DURATION)) {
			if (i && e->ts >= s->runs[i - 1].ts && s->runs[i - 1].timed &&
			    !c->untimed) {
				e->duration_ns = e->ts - s->runs[i - 1].ts;
				/* within one tick of a coarse clock: under its resolution */
				if (!e->duration_ns && (c->flags & CS_CONV_COARSE))
					e->duration_ns = 1;
				c->nr_timed++;
			} else {
				c->nr_untimed++;
			}
		}
		if (i && e->task == CS_TRACE_TASK_NONE) {
			/* one stream: the runs above it are other CPUs', still open */
			memmove(&s->runs[i - 1], &s->runs[i], (s->nr_runs - i) * sizeof(*s->runs));
			s->nr_runs--;
		} else if (i) {
			s->nr_runs = i - 1;	/* runs above it lost their return */
		}
		break;
	}
	return 0;
}

int cs_conv_event(struct cs_conv *c, struct cs_rec_event *e)
{
	/* upstream's events name no block: the callback stands for it */
	if (c->flags & CS_CONV_STOCK)
		e->nb = e->cb;
	if (note_addr(c, e->head) || note_addr(c, e->cb) || note_addr(c, e->nb) ||
	    pair(c, e) || push_out(c, e))
		return c->rc;
	c->nr_events++;
	/* the 8-event set has no notifier_stop: a stop is such a return */
	if (e->type == CS_REC_RETURN && (e->ret & CS_NOTIFY_STOP_MASK) &&
	    !(c->flags & CS_CONV_HAS_STOP)) {
		struct cs_conv_task *s = task_get(c, e->task << 2 | e->ctx);
		struct cs_rec_event st = *e;
		size_t i;

		if (!s)
			return c->rc;
		st.type = CS_REC_STOP;
		st.duration_ns = 0;
		i = pass_of(s, e);
		st.nr_calls = i ? (__s32)s->passes[i - 1].nr_runs : 1;
		if (push_out(c, &st))
			return c->rc;
		c->nr_stops++;
	}
	return 0;
}

/* --- the image ----------------------------------------------------------- */

static int cmp_sym(const void *a, const void *b)
{
	const struct cs_conv_sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static size_t put_str(char *p, const char *s)
{
	size_t n = strlen(s) + 1;

	if (p)
		memcpy(p, s, n);
	return n;
}

int cs_conv_image(struct cs_conv *c, const struct cs_conv_sym *in, size_t nr_syms,
		  const char *release, int name_rc, void **img, size_t *len)
{
	struct cs_trace_header hdr = { 0 };
	struct cs_trace_trailer tr = { 0 };
	struct cs_trace_footer ft = { 0 };
	struct cs_conv_sym *syms = NULL;
	size_t strtab = 0, i, off, total;
	__u64 start = c->nr_out ? c->out[0].ts : 0, end = start;
	const char *why;
	char *p;

	*img = NULL;
	*len = 0;
	if (c->rc)
		return c->rc;
	syms = calloc(nr_syms + 1, sizeof(*syms));
	if (!syms)
		return oom(c);
	if (nr_syms)
		memcpy(syms, in, nr_syms * sizeof(*syms));
	qsort(syms, nr_syms, sizeof(*syms), cmp_sym);
	for (i = 0; i < nr_syms; i++) {
		long at = cs_symname_bad(syms[i].name, &why);
		const char *what = "name";

		if (at < 0 && syms[i].module) {
			at = cs_modname_bad(syms[i].module, &why);
			what = "module name";
		}
		if (at >= 0) {
			cs_conv_fail(c, name_rc, "%s of 0x%llx %s (byte %ld): refused", what,
				     (unsigned long long)syms[i].addr, why, at);
			goto out;
		}
		if (i && syms[i].addr == syms[i - 1].addr) {
			cs_conv_fail(c, name_rc, "two names for 0x%llx",
				     (unsigned long long)syms[i].addr);
			goto out;
		}
		strtab += put_str(NULL, syms[i].name);
		if (syms[i].module)
			strtab += put_str(NULL, syms[i].module);
	}
	for (i = 0; i < c->nr_out; i++) {
		if (c->out[i].ts < start)
			start = c->out[i].ts;
		if (c->out[i].ts > end)
			end = c->out[i].ts;
	}
	memcpy(hdr.magic, CS_TRACE_MAGIC, sizeof(hdr.magic));
	hdr.version = CS_TRACE_VERSION;
	hdr.header_size = CS_TRACE_HEADER_SIZE;
	hdr.record_size = sizeof(struct cs_rec_event);
	hdr.clock = CS_TRACE_CLOCK_MONOTONIC;
	hdr.start_ns = start;
	snprintf(hdr.release, sizeof(hdr.release), "%s", release);
	hdr.source = CS_TRACE_SOURCE_TRACEPOINTS;
	memcpy(tr.magic, CS_TRACE_TRAILER_MAGIC, sizeof(tr.magic));
	tr.trailer_size = sizeof(tr) + nr_syms * sizeof(struct cs_trace_fsym) + strtab;
	tr.nr_syms = nr_syms;
	tr.nr_records = c->nr_out;
	tr.lost = c->lost;
	tr.end_ns = end;
	tr.strtab_size = strtab;
	off = CS_TRACE_HEADER_SIZE + c->nr_out * sizeof(struct cs_rec_event);
	total = off + tr.trailer_size + sizeof(ft);
	ft.trailer_off = off;
	memcpy(ft.magic, CS_TRACE_END_MAGIC, sizeof(ft.magic));
	p = aligned_alloc(8, (total + 7) & ~(size_t)7);
	if (!p) {
		oom(c);
		goto out;
	}
	memcpy(p, &hdr, sizeof(hdr));
	memset(p + sizeof(hdr), 0, CS_TRACE_HEADER_SIZE - sizeof(hdr));
	if (c->nr_out)
		memcpy(p + CS_TRACE_HEADER_SIZE, c->out, c->nr_out * sizeof(*c->out));
	memcpy(p + off, &tr, sizeof(tr));
	off += sizeof(tr);
	strtab = 0;
	for (i = 0; i < nr_syms; i++) {
		struct cs_trace_fsym fs = { syms[i].addr, strtab, CS_TRACE_NO_MODULE };

		strtab += strlen(syms[i].name) + 1;
		if (syms[i].module) {
			fs.module_off = strtab;
			strtab += strlen(syms[i].module) + 1;
		}
		memcpy(p + off, &fs, sizeof(fs));
		off += sizeof(fs);
	}
	for (i = 0; i < nr_syms; i++) {
		off += put_str(p + off, syms[i].name);
		if (syms[i].module)
			off += put_str(p + off, syms[i].module);
	}
	memcpy(p + off, &ft, sizeof(ft));
	*img = p;
	*len = total;
out:
	free(syms);
	return c->rc;
}
