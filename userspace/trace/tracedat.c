// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * trace.dat input: see tracedat.h. The libtracecmd calls are
 * tracecmd_open_fd(), tracecmd_get_tep(), tracecmd_iterate_events(),
 * tracecmd_get_trace_clock(), tracecmd_get_uname(),
 * tracecmd_get_in_file_version() and tracecmd_close(); libtraceevent's
 * tep_find_event_by_name(), tep_find_field(), tep_find_common_field(),
 * tep_data_type(), tep_read_number() and tep_find_function_info().
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

#include "symname.h"
#include "trace_conv.h"
#include "tracedat.h"
#include "tracefile.h"

/*
 * Exported by libtracecmd.so.1 but declared only in trace-cmd's private
 * header (trace-cmd-private.h), which Debian does not ship.
 */
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
const char *tracecmd_get_uname(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);

/* --- the events, by name ------------------------------------------------- */

enum { F_CB, F_HEAD, F_NB, F_PRIO, F_KIND, F_ERR, F_VAL, F_RET, F_DUR, F_NR_CALLS,
       F_NR_TO_CALL, F_TYPE, F_FLAGS, F_PID, F_PREEMPT, F_MAX };
static const char *const field_names[F_MAX] = {
	"cb", "head", "nb", "priority", "kind", "err", "val", "ret", "duration_ns",
	"nr_calls", "nr_to_call", "type", "common_flags", "common_pid",
	"common_preempt_count",
};
/* each field's size in bytes as the events declare it (x86-64) */
static const int field_sizes[F_MAX] = {
	8, 8, 8, 4, 4, 4, 8, 4, 8,
	4, 4, 4, 1, 4,
	1,
};

static const struct {
	const char *name;
	unsigned int type;
} event_names[] = {
	{ "notifier_register", CS_REC_REGISTER },
	{ "notifier_unregister", CS_REC_UNREGISTER },
	{ "notifier_register_error", CS_REC_REGISTER_ERROR },
	{ "notifier_unregister_error", CS_REC_UNREGISTER_ERROR },
	{ "notifier_run", CS_REC_RUN },
	{ "notifier_return", CS_REC_RETURN },
	{ "notifier_stop", CS_REC_STOP },
	{ "notifier_call_begin", CS_REC_CALL_BEGIN },
	{ "notifier_call_end", CS_REC_CALL_END },
};
#define NR_EVENTS (sizeof(event_names) / sizeof(event_names[0]))

struct ev {
	struct tep_event *e;
	unsigned int type;
	struct tep_format_field *f[F_MAX];
};

struct cs_tepconv {
	struct cs_conv base;
	struct tep_handle *tep;
	struct ev ev[NR_EVENTS];
	struct cs_tracedat_info *info;
};

/* the first failure, one line (trace_conv.h); returns its code */
#define fail(c, code, unused, ...) cs_conv_fail(&(c)->base, code, __VA_ARGS__)

/*
 * A field's value, sign-extended when the format says signed; a field
 * the event has not is 0. libtraceevent reads field->offset without
 * looking at the record's size: the bounds are checked here.
 */
static int field(struct cs_tepconv *c, const struct ev *v, int i, const struct tep_record *r,
		 __u64 *val)
{
	const struct tep_format_field *f = v->f[i];
	__u64 x;

	*val = 0;
	if (!f)
		return 0;
	if (f->offset < 0 || f->size <= 0 || f->size > 8 || (f->size & (f->size - 1)) ||
	    r->size < 0 || f->offset > r->size || f->size > r->size - f->offset)
		return fail(c, CS_EXIT_TRACEDAT, 0, "event %s: field %s (offset %d, size %d) "
			    "is not a number inside its %d-byte record", event_names[v - c->ev].name,
			    field_names[i], f->offset, f->size, r->size);
	x = tep_read_number(c->tep, (const char *)r->data + f->offset, f->size);
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8 &&
	    (x & (1ULL << (f->size * 8 - 1))))
		x |= ~0ULL << (f->size * 8);
	*val = x;
	return 0;
}

/* from the kernel's trace_entry flags (include/linux/trace_events.h) */
#define TRACE_FLAG_HARDIRQ 0x08
#define TRACE_FLAG_SOFTIRQ 0x10
#define TRACE_FLAG_NMI 0x40

int cs_tepconv_record(struct cs_tepconv *c, struct tep_record *r, int cpu)
{
	struct cs_rec_event e = { 0 };
	__u64 v[F_MAX];
	const struct ev *ev = NULL;
	int id, i;

	if (c->base.rc)
		return -1;
	/* -1: the page says events were lost, not how many (counted as 1) */
	if (r->missed_events &&
	    cs_conv_loss(&c->base, r->ts, cpu, r->missed_events > 0 ? (__u64)r->missed_events : 0))
		return -1;
	id = tep_data_type(c->tep, r);
	for (i = 0; i < (int)NR_EVENTS; i++)
		if (c->ev[i].e && c->ev[i].e->id == id) {
			ev = &c->ev[i];
			break;
		}
	if (!ev) {
		c->info->nr_other++;
		return 0;
	}
	for (i = 0; i < F_MAX; i++)
		if (field(c, ev, i, r, &v[i]))
			return -1;
	e.type = ev->type;
	e.ts = r->ts;
	e.cpu = cpu;
	e.pid = (__u32)v[F_PID];
	/* pid 0 is each CPU's idle task */
	e.task = e.pid ? e.pid : (1ULL << 40) | (__u32)cpu;
	e.ctx = v[F_FLAGS] & TRACE_FLAG_NMI ? CS_REC_CTX_NMI :
		v[F_FLAGS] & TRACE_FLAG_HARDIRQ ? CS_REC_CTX_HARDIRQ :
		v[F_FLAGS] & TRACE_FLAG_SOFTIRQ ? CS_REC_CTX_SOFTIRQ : CS_REC_CTX_TASK;
	e.head = v[F_HEAD];
	e.kind = (__u8)v[F_KIND];
	if (e.type == CS_REC_CALL_BEGIN || e.type == CS_REC_CALL_END) {
		e.val = v[F_VAL];
		e.nr_to_call = (__s32)v[F_NR_TO_CALL];
		e.call_type = (__u8)v[F_TYPE];
		if (e.type == CS_REC_CALL_END) {
			e.ret = (__s32)v[F_RET];
			e.nr_calls = (__s32)v[F_NR_CALLS];
		}
	} else {
		/* the events about one block: membership, run, return, stop */
		e.cb = v[F_CB];
		e.nb = v[F_NB];
		e.priority = (__s32)v[F_PRIO];
		if (e.type <= CS_REC_UNREGISTER_ERROR) {
			e.ret = (__s32)v[F_ERR];
		} else {
			e.val = v[F_VAL];
			if (e.type != CS_REC_RUN)
				e.ret = (__s32)v[F_RET];
			if (e.type == CS_REC_RETURN)
				e.duration_ns = v[F_DUR];
			if (e.type == CS_REC_STOP)
				e.nr_calls = (__s32)v[F_NR_CALLS];
		}
	}
	/* what the converted image can hold (tracefile.c checks it again) */
	if (v[F_KIND] > 3 || v[F_TYPE] > CS_CALL_ROLLBACK)
		return fail(c, CS_EXIT_TRACEDAT, 0, "event %s at %llu: kind %llu (0..3) or "
			    "type %llu (0..2) out of range", event_names[ev - c->ev].name,
			    (unsigned long long)r->ts, (unsigned long long)v[F_KIND],
			    (unsigned long long)v[F_TYPE]);
	return cs_conv_event(&c->base, &e) ? -1 : 0;
}

/* --- the image ----------------------------------------------------------- */

struct sym_out {
	__u64 addr;
	char name[CS_SYMNAME_MAX + 24];
};

struct resolve {
	struct cs_tepconv *c;
	struct sym_out *syms;
	size_t n;
};

/* the symbol of the file's kallsyms for an address the events name */
static int resolve_one(struct cs_conv *base, __u64 addr, void *arg)
{
	struct resolve *rs = arg;
	const char *name = NULL, *why = "";
	unsigned long long start = 0;
	unsigned long size = 0;
	struct sym_out *s = &rs->syms[rs->n];
	long bad;

	if (!tep_find_function_info(rs->c->tep, addr, &name, &start, &size) || !name)
		return 0;
	if (start > addr || addr - start >= (1u << 20))
		return 0;	/* as the live tools: unknown */
	bad = cs_symname_bad(name, &why);
	if (bad >= 0 || strchr(name, '+'))
		return cs_conv_fail(base, CS_EXIT_TRACEDAT_NAME, "kallsyms name of 0x%llx %s "
				    "(byte %ld: 0x%02x): refused", (unsigned long long)addr,
				    bad >= 0 ? why : "has a byte that no kernel symbol has",
				    bad >= 0 ? bad : (long)(strchr(name, '+') - name),
				    (unsigned char)name[bad >= 0 ? bad : strchr(name, '+') - name]);
	s->addr = addr;
	if (addr == start)
		snprintf(s->name, sizeof(s->name), "%s", name);
	else
		snprintf(s->name, sizeof(s->name), "%s+0x%llx", name,
			 (unsigned long long)(addr - start));
	rs->n++;
	return 0;
}

/* the release from the file's uname ("Linux host 6.1.0 #1 ..."), if it is one */
static void release_of(const char *uname, char *out, size_t len)
{
	const char *p = uname;
	size_t i, n = 0;

	out[0] = 0;
	for (i = 0; p && i < 2; i++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (!p)
		return;
	while (p[n] && p[n] != ' ' && n + 1 < len) {
		if (p[n] <= 0x20 || p[n] >= 0x7f) {
			out[0] = 0;
			return;
		}
		out[n] = p[n];
		n++;
	}
	out[n] = 0;
}

static int build_image(struct cs_tepconv *c, const char *release, void **img, size_t *len)
{
	struct resolve rs = { .c = c };
	struct cs_conv_sym *syms = NULL;
	size_t nr = c->base.nr_addrs, i;

	rs.syms = calloc(nr + 1, sizeof(*rs.syms));
	syms = calloc(nr + 1, sizeof(*syms));
	if (!rs.syms || !syms)
		cs_conv_fail(&c->base, CS_EXIT_TRACEDAT, "out of memory");
	else if (!cs_conv_each_addr(&c->base, resolve_one, &rs)) {
		for (i = 0; i < rs.n; i++)
			syms[i] = (struct cs_conv_sym){ rs.syms[i].addr, rs.syms[i].name, NULL };
		cs_conv_image(&c->base, syms, rs.n, release, CS_EXIT_TRACEDAT_NAME, img, len);
	}
	free(rs.syms);
	free(syms);
	return c->base.rc;
}

/* --- conversion ---------------------------------------------------------- */

/*
 * Clocks in nanoseconds that order and subtract (trace_clocks[] in the
 * kernel), and "tsc2nsec": what trace-cmd record -C tsc2nsec stores for
 * x86-tsc with its TSC2NSEC option, which libtracecmd applies (the
 * timestamps it hands out are nanoseconds).
 */
static const char *const ns_clocks[] = {
	"local", "global", "perf", "mono", "mono_raw", "boot", "tai", "tsc2nsec",
};

static int check_clock(struct cs_tepconv *c, const char *clock)
{
	size_t i;

	if (!clock || !*clock) {
		c->info->flags |= CS_TRACEDAT_NO_CLOCK;
		clock = "local";
	}
	snprintf(c->info->clock, sizeof(c->info->clock), "%s", clock);
	for (i = 0; i < sizeof(ns_clocks) / sizeof(ns_clocks[0]); i++)
		if (!strcmp(clock, ns_clocks[i]))
			return 0;
	for (i = 0; c->info->clock[i]; i++)
		if (c->info->clock[i] < 0x21 || c->info->clock[i] > 0x7e)
			c->info->clock[i] = '?';
	return fail(c, CS_EXIT_TRACEDAT_CLOCK, 0, "trace clock \"%s\" is not in nanoseconds "
		    "and the file holds no conversion (counter, uptime, x86-tsc); record with "
		    "trace-cmd record -C local (or global, mono, boot, tsc2nsec)", c->info->clock);
}

struct cs_tepconv *cs_tepconv_new(struct cs_tracedat_info *info, char *err, size_t errlen)
{
	struct cs_tepconv *c = calloc(1, sizeof(*c));

	memset(info, 0, sizeof(*info));
	err[0] = 0;
	if (!c) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	cs_conv_init(&c->base, CS_EXIT_TRACEDAT, err, errlen);
	c->info = info;
	return c;
}

void cs_tepconv_free(struct cs_tepconv *c)
{
	if (!c)
		return;
	cs_conv_free(&c->base);
	free(c);
}

int cs_tepconv_rc(const struct cs_tepconv *c)
{
	return c->base.rc;
}

int cs_tepconv_setup(struct cs_tepconv *c, struct tep_handle *tep, const char *clock,
		     const char *none)
{
	struct cs_tracedat_info *info = c->info;
	size_t i, j;

	c->tep = tep;
	if (tep_get_long_size(tep) != 8 || tep_is_file_bigendian(tep))
		return fail(c, CS_EXIT_TRACEDAT, 0, "trace of a %d-byte-long %s-endian kernel: "
			    "only x86-64's layout is read", tep_get_long_size(tep),
			    tep_is_file_bigendian(tep) ? "big" : "little");
	if (check_clock(c, clock))
		return c->base.rc;
	for (i = 0; i < NR_EVENTS; i++) {
		struct ev *v = &c->ev[i];

		v->type = event_names[i].type;
		v->e = tep_find_event_by_name(tep, "notifier", event_names[i].name);
		if (!v->e)
			continue;
		info->nr_formats++;
		for (j = 0; j < F_MAX; j++) {
			v->f[j] = tep_find_field(v->e, field_names[j]);
			if (!v->f[j])
				v->f[j] = tep_find_common_field(v->e, field_names[j]);
			/* another width is another event: never read as this one */
			if (v->f[j] && v->f[j]->size != field_sizes[j])
				return fail(c, CS_EXIT_TRACEDAT, 0, "event notifier:%s: field %s "
					    "is %d bytes, want %d", event_names[i].name,
					    field_names[j], v->f[j]->size, field_sizes[j]);
		}
		if (v->type == CS_REC_STOP)
			info->flags |= CS_TRACEDAT_HAS_STOP;
		if (v->type == CS_REC_RETURN && v->f[F_DUR])
			info->flags |= CS_TRACEDAT_HAS_DURATION;
		if (!v->f[F_PID] || !v->f[F_FLAGS])
			return fail(c, CS_EXIT_TRACEDAT, 0, "event notifier:%s has no common_pid "
				    "or common_flags in its format", event_names[i].name);
	}
	if (!info->nr_formats)
		return fail(c, CS_EXIT_TRACEDAT, 0, "%s", none);
	/*
	 * Upstream's events (6.4+) carry cb alone; every event of ours has
	 * head. A file with both kinds of format mixes two kernels' events.
	 */
	for (i = 0, j = 0; i < NR_EVENTS; i++)
		if (c->ev[i].e && !c->ev[i].f[F_HEAD])
			j++;
	if (j && j != info->nr_formats)
		return fail(c, CS_EXIT_TRACEDAT, 0, "%zu of the file's %u notifier event formats "
			    "have no head field: upstream's and ours mixed", j, info->nr_formats);
	if (j)
		info->flags |= CS_TRACEDAT_STOCK;
	c->base.flags = (info->flags & CS_TRACEDAT_STOCK ? CS_CONV_STOCK : 0) |
			(info->flags & CS_TRACEDAT_HAS_DURATION ? CS_CONV_HAS_DURATION : 0) |
			(info->flags & CS_TRACEDAT_HAS_STOP ? CS_CONV_HAS_STOP : 0);
	return 0;
}

int cs_tepconv_image(struct cs_tepconv *c, const char *release, void **img, size_t *len)
{
	struct cs_tracedat_info *info = c->info;

	*img = NULL;
	*len = 0;
	info->nr_events = c->base.nr_events;
	info->nr_loss = c->base.nr_loss;
	info->nr_timed = c->base.nr_timed;
	info->nr_untimed = c->base.nr_untimed;
	info->nr_stops = c->base.nr_stops;
	if (c->base.rc)
		return c->base.rc;
	return build_image(c, release, img, len);
}

static int on_record(struct tracecmd_input *h, struct tep_record *r, int cpu, void *data)
{
	(void)h;
	return cs_tepconv_record(data, r, cpu);
}

#define NONE_MSG "no notifier:* event format in the file (was it recorded with trace-cmd " \
	"record -e notifier?)"

/* one buffer's records through its own decoder (set up on the shared formats) */
static int read_buffer(struct cs_tepconv *c, struct tracecmd_input *h, struct tep_handle *tep,
		       const char *clock)
{
	if (!cs_tepconv_setup(c, tep, clock, NONE_MSG) &&
	    tracecmd_iterate_events(h, NULL, 0, on_record, c) < 0 && !c->base.rc)
		fail(c, CS_EXIT_TRACEDAT, 0, "libtracecmd failed reading the records");
	return c->base.rc;
}

/* a name for the one line: printable ASCII, cut */
static void buffer_name(char *out, size_t len, const char *name)
{
	size_t i;

	snprintf(out, len, "%s", name ? name : "?");
	for (i = 0; out[i]; i++)
		if (out[i] < 0x21 || out[i] > 0x7e || out[i] == '"')
			out[i] = '?';
}

/*
 * The buffer instances (trace-cmd record -B NAME): each one's records
 * through a decoder of its own. The file's events are those of the one
 * buffer that has notifier events (the top buffer's when none has): two
 * would be the same calls traced twice, or two traces in one, and are
 * refused. c, the top buffer's decoder, is replaced by the one chosen.
 */
static int read_instances(struct cs_tepconv **cp, struct tracecmd_input *h, struct tep_handle *tep,
			  const char *clock, struct cs_tracedat_info *info, char *err,
			  size_t errlen)
{
	struct cs_tepconv *c = *cp, *best = c->base.nr_events ? c : NULL;
	int nb = tracecmd_buffer_instances(h), i, with = best ? 1 : 0, rc = 0;
	char names[160] = "", one[40];
	size_t used = 0;

	if (best)
		used = snprintf(names, sizeof(names), "the top buffer (%llu)",
				(unsigned long long)c->base.nr_events);
	info->nr_buffers = nb;
	for (i = 0; i < nb && !rc; i++) {
		struct cs_tracedat_info bi;
		char berr[512];
		struct cs_tepconv *b = cs_tepconv_new(&bi, berr, sizeof(berr));
		struct tracecmd_input *ih;

		buffer_name(one, sizeof(one), tracecmd_buffer_instance_name(h, i));
		if (!b)
			return fail(c, CS_EXIT_TRACEDAT, 0, "out of memory");
		ih = tracecmd_buffer_instance_handle(h, i);
		if (!ih) {
			cs_tepconv_free(b);
			return fail(c, CS_EXIT_TRACEDAT, 0, "buffer instance \"%s\": libtracecmd "
				    "cannot read it", one);
		}
		rc = read_buffer(b, ih, tep, clock);
		tracecmd_close(ih);
		if (rc) {
			snprintf(err, errlen, "buffer instance \"%s\": %s", one, berr);
			c->base.rc = rc;
			cs_tepconv_free(b);
			return rc;
		}
		info->nr_other += bi.nr_other;
		if (!b->base.nr_events) {
			cs_tepconv_free(b);
			continue;
		}
		with++;
		if (used < sizeof(names))
			used += snprintf(names + used, sizeof(names) - used, "%s\"%s\" (%llu)",
					 used ? ", " : "", one,
					 (unsigned long long)b->base.nr_events);
		if (best && best != c)
			cs_tepconv_free(best);
		best = b;
		snprintf(info->buffer, sizeof(info->buffer), "%s", one);
		info->buffer_index = i + 1;
	}
	if (with > 1) {
		if (best != c)
			cs_tepconv_free(best);
		return fail(c, CS_EXIT_TRACEDAT, 0, "notifier events in %d buffers: %s; the "
			    "same calls traced into each, or two traces in one: record them "
			    "into one buffer", with, names);
	}
	if (best && best != c) {
		/*
		 * the chosen instance's decoder; info keeps the file's facts
		 * (the same formats and clock gave the same flags)
		 */
		cs_tepconv_free(c);
		best->info = info;
		best->base.err = err;
		best->base.errlen = errlen;
		*cp = best;
	}
	return 0;
}

int cs_tracedat_convert(int fd, const char *clock, void **img, size_t *len,
			struct cs_tracedat_info *info, char *err, size_t errlen)
{
	struct cs_tepconv *c = cs_tepconv_new(info, err, errlen);
	struct tracecmd_input *h;
	struct tep_handle *tep;
	char release[96];
	int rc;

	*img = NULL;
	*len = 0;
	if (!c) {
		close(fd);
		return CS_EXIT_TRACEDAT;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open_fd(fd, TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!h) {
		close(fd);
		rc = fail(c, CS_EXIT_TRACEDAT, 0, "libtracecmd cannot read this trace.dat "
			  "(tracecmd_open_fd failed)");
		cs_tepconv_free(c);
		return rc;
	}
	tep = tracecmd_get_tep(h);
	if (!clock)
		clock = tracecmd_get_trace_clock(h);
	info->file_version = tracecmd_get_in_file_version(h);
	if (!tep)
		fail(c, CS_EXIT_TRACEDAT, 0, "trace.dat without event formats");
	else if (!read_buffer(c, h, tep, clock) && tracecmd_buffer_instances(h) > 0)
		read_instances(&c, h, tep, clock, info, err, errlen);
	if (!c->base.rc) {
		release_of(tracecmd_get_uname(h), release, sizeof(release));
		cs_tepconv_image(c, release, img, len);
	}
	rc = c->base.rc;
	tracecmd_close(h);
	cs_tepconv_free(c);
	return rc;
}
