// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Console and tracefs text input: see console.h. Every byte is matched
 * against what the kernel prints; nothing is looked up, run or escaped
 * (the names that reach the trace are in the symbol alphabet).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <uthash.h>

#include "console.h"
#include "safestr.h"
#include "symname.h"
#include "trace_conv.h"
#include "tracedat.h"
#include "tracefile.h"

#include "console_line.h"

/* --- the log ------------------------------------------------------------- */

struct name_ent {
	const char *key;	/* the token as printed, in the log's buffer */
	size_t len, nlen;
	__u64 addr;
	char *name, *module;
	UT_hash_handle hh;
};

struct log {
	struct cs_conv c;
	struct cs_console_info *info;
	struct name_ent *names;
	__u64 last_ts, nr_stock;
	__u64 nr_ok[CL_NR_NAMES], nr_bad[CL_NR_NAMES];	/* lines per event name */
	struct cur first_bad[CL_NR_NAMES];	/* the first line of each not in format */
	bool has_ours;		/* a line of our format: the log is not stock */
	bool timed;		/* an event with a time of its own was read */
	unsigned int ev_src;	/* events timed by: 1 printk, 2 a trace file */
	char release[96];
};

static int name_addr(struct log *l, const struct cbtok *t, __u64 *addr)
{
	struct name_ent *n;

	HASH_FIND(hh, l->names, t->tok, t->len, n);
	if (!n) {
		n = calloc(1, sizeof(*n));
		if (!n || !(n->name = strndup(t->tok, t->nlen)) ||
		    (t->len > t->nlen && !(n->module = strndup(t->tok + t->nlen + 2,
							      t->len - t->nlen - 3)))) {
			if (n)
				free(n->name);
			free(n);
			return cs_conv_fail(&l->c, CS_EXIT_TRACEDAT, "out of memory");
		}
		n->key = t->tok;
		n->len = t->len;
		n->addr = CS_CONSOLE_SYM_BASE + 16 * l->info->nr_names++;
		HASH_ADD_KEYPTR(hh, l->names, n->key, n->len, n);
	}
	*addr = n->addr;
	return 0;
}

/* "Linux version 6.1.0-28-amd64 (...": the release for the header */
static void release_line(struct log *l, struct cur s)
{
	size_t n = 0;

	if (l->release[0] || !cl_lit(&s, "Linux version "))
		return;
	while (s.p + n < s.e && s.p[n] != ' ' && n + 1 < sizeof(l->release))
		n++;
	if (!n || s.p + n == s.e || s.p[n] != ' ')
		return;
	memcpy(l->release, s.p, n);
	l->release[n] = 0;
	if (cs_release_bad(l->release) >= 0)
		l->release[0] = 0;
}

static int lost_line(struct log *l, __u64 ts, __u32 cpu)
{
	l->info->nr_loss++;
	l->info->nr_lost++;
	return cs_conv_loss_drop(&l->c, ts, cpu, 1, CS_CONV_DROP_NONE);
}

/*
 * The losses before the first time of an event (a "[LOST N EVENTS]" line
 * at the top) had no time to take (0, not the boot): they take the first
 * event's, so the trace does not span from 0.
 */
static void lead_losses(struct log *l, __u64 ts)
{
	size_t i;

	l->timed = true;
	for (i = 0; i < l->c.nr_out; i++)
		if (l->c.out[i].type == CS_REC_LOSS && !l->c.out[i].ts)
			l->c.out[i].ts = ts;
}

static int line(struct log *l, struct cur s)
{
	struct cs_console_info *in = l->info;
	struct cs_rec_event e = { 0 };
	struct pfx x = { 0 };
	struct cbtok cb;
	struct cur b;
	struct cur line0;
	__u64 v, n = 0;
	int kind, name;

	/* the trace file's loss line */
	b = s;
	if (cl_lit(&b, "CPU:") && cl_digits(&b, -6, &v) && cl_lit(&b, " [LOST ") &&
	    (cl_lit(&b, "EVENTS]") || (cl_dec_u64(&b, &n) && n && cl_lit(&b, " EVENTS]"))) && b.p == b.e) {
		in->nr_loss++;
		in->nr_lost += n ? n : 1;
		return cs_conv_loss(&l->c, l->last_ts, (__u32)v, n);
	}
	cl_printk_prefix(&s, &x, &in->flags);
	release_line(l, s);
	b = s;
	if (cl_lit(&b, "** ") && cl_dec_u64(&b, &n) && n && cl_lit(&b, " printk messages dropped **") &&
	    b.p == b.e) {
		in->nr_loss++;
		in->nr_lost += n;
		return cs_conv_loss_drop(&l->c, l->last_ts, 0, n, CS_CONV_DROP_ALL);
	}
	if (!x.has_ts && !x.has_task && cl_tracefs_prefix(&s, &x))
		in->flags |= CS_CONSOLE_TRACEFS;
	line0 = s;
	kind = cl_body(&s, &e, &cb, &name);
	if (kind == BODY_OTHER) {
		in->nr_other++;
		return 0;
	}
	/* "notifier_run: NAME" alone in a log of ours: one of ours, cut */
	if (kind == BODY_STOCK && l->has_ours)
		kind = BODY_BAD;
	/* an event of ours, most likely, that lost bytes: it is a loss */
	if (kind == BODY_BAD) {
		in->nr_bad++;
		if (name >= 0 && !l->nr_bad[name]++)
			l->first_bad[name] = line0;
		return lost_line(l, x.has_ts ? x.ts : l->last_ts, x.tracefs ? x.cpu : 0);
	}
	if (x.int_ts)
		return cs_conv_fail(&l->c, CS_EXIT_TRACEDAT_CLOCK, "trace file timestamps "
				    "without a decimal point (a counter or x86-tsc trace_clock): "
				    "not in nanoseconds; use trace_clock=local (or global, mono, "
				    "boot)");
	l->nr_ok[name]++;
	if (kind == BODY_STOCK) {
		in->flags |= CS_CONSOLE_STOCK;
		l->nr_stock++;
	}
	if (cb.tok && name_addr(l, &cb, &e.cb))
		return l->c.rc;
	if (!cb.tok)
		e.cb = cb.addr;
	if (kind == BODY_STOCK)
		e.nb = e.cb;	/* the callback stands for its block */
	l->ev_src |= !x.has_ts ? 0 : x.tracefs ? 2 : 1;
	if (l->ev_src == 3)
		return cs_conv_fail(&l->c, CS_EXIT_TRACEDAT, "events with printk timestamps "
				    "and events with trace file timestamps in one log (a console "
				    "mixed with a tracefs dump?): give one of them");
	l->c.untimed = !x.has_ts;
	if (x.has_ts && !l->timed)
		lead_losses(l, x.ts);
	if (x.has_ts)
		l->last_ts = x.ts;
	else
		in->nr_untimed_lines++;
	e.ts = l->last_ts;
	e.pid = x.pid;
	e.cpu = x.cpu;
	e.ctx = x.ctx;
	/* pid 0 is each CPU's idle task; no prefix: one stream */
	e.task = !x.has_task ? CS_TRACE_TASK_NONE : x.pid ? x.pid : (1ULL << 40) | x.cpu;
	if (!x.tracefs)
		e.cpu = 0;	/* a console is one stream: its CPU is not said */
	in->nr_events++;
	return cs_conv_event(&l->c, &e);
}

/* the line from p to its "\n" at nl, without "\r" ("\r\n", a doubled CR's "\r\r\n") */
static struct cur text_of(const char *p, const char *nl)
{
	while (nl > p && nl[-1] == '\r')
		nl--;
	return (struct cur){ p, nl };
}

/* what a line is, prefix (into *px, may be NULL) and all, without converting it */
static int line_kind_pfx(struct cur s, struct pfx *px)
{
	struct cs_rec_event e;
	struct pfx x = { 0 };
	struct cbtok cb;
	unsigned int flags = 0;
	int name;

	cl_printk_prefix(&s, &x, &flags);
	if (!x.has_ts && !x.has_task)
		cl_tracefs_prefix(&s, &x);
	if (px)
		*px = x;
	return cl_body(&s, &e, &cb, &name);
}

static int line_kind(struct cur s)
{
	return line_kind_pfx(s, NULL);
}

static bool has_nul(struct cur s)
{
	return s.e > s.p && memchr(s.p, 0, (size_t)(s.e - s.p));
}

/*
 * A line with a NUL byte (a serial line's noise) is never taken as an
 * event. If, its NULs left out, it looks like one of ours (an event's
 * name at the start, after a prefix: line_kind()), the event it was is
 * lost: a loss marker, as a cut line is. Else it is another message.
 */
static int nul_line(struct log *l, struct cur s)
{
	struct cs_console_info *in = l->info;
	char text[4096];	/* enough to tell an event's name and prefix */
	struct pfx x;
	size_t n = 0;
	const char *q;

	in->nr_nul++;
	for (q = s.p; q < s.e && n < sizeof(text); q++)
		if (*q)
			text[n++] = *q;
	if (line_kind_pfx((struct cur){ text, text + n }, &x) == BODY_OTHER) {
		in->nr_other++;
		return 0;
	}
	in->nr_nul_lost++;
	return lost_line(l, x.has_ts ? x.ts : l->last_ts, x.tracefs ? x.cpu : 0);
}

/* whether any line of the log is one of ours in our format (not upstream's) */
static bool has_ours(const char *p, const char *end)
{
	const char *nl;

	for (; p < end && (nl = memchr(p, '\n', end - p)); p = nl + 1)
		if (!has_nul(text_of(p, nl)) && line_kind(text_of(p, nl)) == BODY_OURS)
			return true;
	return false;
}

/*
 * An event of ours none of whose lines is in today's format (an older or
 * other kernel's notifier_return with duration_ns, say): each would be a
 * loss marker, and the passes all excused; the log is refused instead.
 * Lines of a name some of which are in the format are losses (cut lines).
 */
static int format_refused(struct log *l)
{
	char text[161], safe[CS_SAFE_STR_LEN(160)];
	const char *what;
	size_t len, n;
	int i;

	for (i = 0; i < CL_NR_NAMES; i++) {
		if (!l->nr_bad[i] || l->nr_ok[i])
			continue;
		what = cl_name(i, &len);
		n = (size_t)(l->first_bad[i].e - l->first_bad[i].p);
		if (n > sizeof(text) - 1)
			n = sizeof(text) - 1;
		memcpy(text, l->first_bad[i].p, n);
		text[n] = 0;
		cs_safe_str(text, safe, sizeof(safe));
		return cs_conv_fail(&l->c, CS_EXIT_TRACEDAT, "%llu lines of %.*s, none in "
				    "the format this chainscope reads (another kernel's events?); "
				    "the first: %s", (unsigned long long)l->nr_bad[i], (int)len,
				    what, safe);
	}
	return 0;
}

/*
 * Where the log's last boot starts, and how many it has: a boot starts
 * at a "[    0.000000] Linux version" line after other lines, or where the
 * printk time goes back by more than 1 s (CPUs' clocks may differ by less).
 */
#define BOOT_BACK_NS 1000000000ULL

static const char *last_boot(const char *p, const char *end, __u64 *nr_boots)
{
	const char *nl, *start = p, *first = p;
	__u64 prev = 0;

	*nr_boots = 1;
	for (; p < end && (nl = memchr(p, '\n', end - p)); p = nl + 1) {
		struct cur s = text_of(p, nl), v;
		struct pfx x = { 0 };
		unsigned int flags = 0;
		bool boot;

		if (has_nul(s))
			continue;	/* not text: no time of its own */
		cl_printk_prefix(&s, &x, &flags);
		v = s;
		boot = p > first && x.has_ts && !x.ts && cl_lit(&v, "Linux version ");
		if (x.has_ts) {
			boot |= x.ts + BOOT_BACK_NS < prev;
			prev = x.ts;
		}
		if (boot && p > start) {
			start = p;
			++*nr_boots;
		}
	}
	return start;
}

static void free_names(struct log *l)
{
	struct name_ent *n, *tmp;

	HASH_ITER(hh, l->names, n, tmp) {
		HASH_DEL(l->names, n);
		free(n->name);
		free(n->module);
		free(n);
	}
}

/*
 * What tells a text log from binary bytes, counted as they come (the
 * whole log for cs_console_convert(), each read for slurp()): NUL bytes,
 * lines without one, the bytes since the last newline.
 */
struct textscan {
	size_t len, nuls, first_nul, line_start;
	long long long_at;	/* the start of a line longer than CS_CONSOLE_MAX_LINE, -1 */
	__u64 text_lines;	/* lines without a NUL byte */
	bool line_nul;		/* the line being read has one */
};

static void scan_more(struct textscan *ts, const char *p, size_t n)
{
	const char *end = p + n, *q;

	for (q = p; q < end; q++) {
		if (!*q) {
			if (!ts->nuls++)
				ts->first_nul = ts->len + (size_t)(q - p);
			ts->line_nul = true;
		} else if (*q == '\n') {
			if (ts->long_at < 0 &&
			    ts->len + (size_t)(q - p) - ts->line_start > CS_CONSOLE_MAX_LINE)
				ts->long_at = (long long)ts->line_start;
			ts->text_lines += !ts->line_nul;
			ts->line_nul = false;
			ts->line_start = ts->len + (size_t)(q - p) + 1;
		}
	}
	ts->len += n;
}

/*
 * Not text, so far (all of it: whole): a line longer than
 * CS_CONSOLE_MAX_LINE, more NULs than CS_CONSOLE_NUL_SHARE allows (in a
 * stream, once CS_CONSOLE_MAX_LINE bytes are in), or, whole, NULs and no
 * line without one. 0, or -1 with err set to one line.
 */
static int scan_refused(const struct textscan *ts, bool whole, char *err, size_t errlen)
{
	long long at = ts->long_at;

	if (ts->nuls && (whole || ts->len >= CS_CONSOLE_MAX_LINE) &&
	    (ts->nuls > ts->len / CS_CONSOLE_NUL_SHARE ||
	     (whole && !ts->text_lines && !(ts->len > ts->line_start && !ts->line_nul)))) {
		snprintf(err, errlen, "not a text log: %zu NUL bytes in %s%zu (the first at "
			 "offset %zu)%s", ts->nuls, whole ? "" : "the first ", ts->len,
			 ts->first_nul, ts->nuls > ts->len / CS_CONSOLE_NUL_SHARE ? "" :
			 ", in every line");
		return -1;
	}
	if (at < 0 && ts->len - ts->line_start > CS_CONSOLE_MAX_LINE)
		at = (long long)ts->line_start;
	if (at >= 0) {
		snprintf(err, errlen, "not a text log: no newline in the %u KiB from offset %lld "
			 "(a line is at most %u KiB)", CS_CONSOLE_MAX_LINE >> 10, at,
			 CS_CONSOLE_MAX_LINE >> 10);
		return -1;
	}
	return 0;
}

static int not_text(const char *buf, size_t len, char *err, size_t errlen)
{
	struct textscan ts = { .long_at = -1 };

	scan_more(&ts, buf, len);
	return scan_refused(&ts, true, err, errlen);
}

int cs_console_convert(const char *buf, size_t len, void **img, size_t *imglen,
		       struct cs_console_info *info, char *err, size_t errlen)
{
	struct log l = { .info = info };
	struct cs_conv_sym *syms = NULL;
	struct name_ent *n, *tmp;
	const char *p = buf, *end = buf + len, *nl;
	size_t i = 0;

	memset(info, 0, sizeof(*info));
	*img = NULL;
	*imglen = 0;
	cs_conv_init(&l.c, CS_EXIT_TRACEDAT, err, errlen);
	l.c.flags = CS_CONV_COARSE;
	if (not_text(buf, len, err, errlen)) {
		l.c.rc = CS_EXIT_TRACEDAT;
		goto out;
	}
	if (len > CS_CONSOLE_MAX_SIZE) {
		cs_conv_fail(&l.c, CS_EXIT_TRACEDAT, "%zu bytes: larger than the %llu MiB read",
			     len, CS_CONSOLE_MAX_SIZE >> 20);
		goto out;
	}
	p = last_boot(buf, end, &info->nr_boots);
	l.has_ours = has_ours(p, end);
	for (; p < end && !l.c.rc; p = nl + 1) {
		info->nr_lines++;
		nl = memchr(p, '\n', end - p);
		if (!nl) {
			/* what the log stops in is not a line; if it names one of ours, a loss */
			info->nr_cut_end = 1;
			if (has_nul((struct cur){ p, end })) {
				nul_line(&l, (struct cur){ p, end });
			} else if (line_kind((struct cur){ p, end }) != BODY_OTHER) {
				lost_line(&l, l.last_ts, 0);
			}
			break;
		}
		if (has_nul(text_of(p, nl)))
			nul_line(&l, text_of(p, nl));
		else
			line(&l, text_of(p, nl));
	}
	if (l.c.rc)
		goto out;
	if (!info->nr_events) {
		cs_conv_fail(&l.c, CS_EXIT_TRACEDAT, "no notifier event of ours in %llu lines "
			     "(%llu lines of our events not in their format); boot with "
			     "trace_event=notifier:* tp_printk", (unsigned long long)info->nr_lines,
			     (unsigned long long)info->nr_bad);
		goto out;
	}
	if (format_refused(&l))
		goto out;
	info->nr_timed = l.c.nr_timed;
	info->nr_untimed = l.c.nr_untimed;
	info->nr_stops = l.c.nr_stops;
	syms = calloc(info->nr_names + 1, sizeof(*syms));
	if (!syms) {
		cs_conv_fail(&l.c, CS_EXIT_TRACEDAT, "out of memory");
		goto out;
	}
	HASH_ITER(hh, l.names, n, tmp)
		syms[i++] = (struct cs_conv_sym){ n->addr, n->name, n->module };
	cs_conv_image(&l.c, syms, i, l.release, CS_EXIT_TRACEDAT_NAME, img, imglen);
out:
	free(syms);
	free_names(&l);
	cs_conv_free(&l.c);
	return l.c.rc;
}

/* --- the file ------------------------------------------------------------ */

/*
 * all of fd (up to CS_CONSOLE_MAX_SIZE) into *buf; 0, or -1 with err set,
 * as soon as what was read is not text (scan_refused())
 */
static int slurp(int fd, size_t hint, char **buf, size_t *len, char *err, size_t errlen)
{
	struct textscan scan = { .long_at = -1 }, *ts = &scan;
	size_t cap = hint < (1u << 16) ? (1u << 16) : hint + 1;
	char *p;

	*len = 0;
	*buf = NULL;
	for (;;) {
		ssize_t r;

		if (*len == cap || !*buf) {
			cap = *buf ? cap * 2 : cap;
			p = cap <= CS_CONSOLE_MAX_SIZE + 1 ? realloc(*buf, cap) : NULL;
			if (!p) {
				snprintf(err, errlen, cap > CS_CONSOLE_MAX_SIZE + 1 ?
					 "larger than the %llu MiB read" : "out of memory",
					 CS_CONSOLE_MAX_SIZE >> 20);
				return -1;
			}
			*buf = p;
		}
		r = read(fd, *buf + *len, cap - *len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "cannot read: %s", strerror(errno));
			return -1;
		}
		if (!r)
			return 0;
		/* binary bytes are refused as they come, not after 1 GiB */
		scan_more(ts, *buf + *len, (size_t)r);
		*len += r;
		if (scan_refused(ts, false, err, errlen))
			return -1;
	}
}

int cs_console_read(const char *path, struct cs_trace *t, struct cs_console_info *info,
		    char *err, size_t errlen)
{
	bool in = !strcmp(path, "-");
	int fd = in ? STDIN_FILENO : open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	char *buf = NULL;
	void *img = NULL;
	size_t len = 0, imglen;
	struct stat st;
	int rc = CS_EXIT_TRACEDAT;

	memset(t, 0, sizeof(*t));
	memset(info, 0, sizeof(*info));
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(err, errlen, "cannot read: %s", strerror(errno));
		goto out;
	}
	/* a path: a regular file (never a FIFO to wait on); "-": stdin, whatever it is */
	if (!in && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "not a regular file");
		goto out;
	}
	if (slurp(fd, S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size : 0, &buf, &len,
		  err, errlen))
		goto out;
	rc = cs_console_convert(buf, len, &img, &imglen, info, err, errlen);
	if (rc)
		goto out;
	if (cs_trace_parse(img, imglen, t, err, errlen)) {
		rc = CS_EXIT_TRACEDAT;
		goto out;
	}
	t->buf = img;
	t->len = imglen;
	img = NULL;
out:
	if (fd >= 0 && !in)
		close(fd);
	free(buf);
	free(img);
	return rc;
}

void cs_console_note(FILE *f, const char *cmd, const char *path,
		     const struct cs_console_info *in)
{
	char name[CS_SAFE_STR_LEN(1024)];
	const char *src;

	cs_safe_str(path, name, sizeof(name));
	src = (in->flags & CS_CONSOLE_PRINTK) && (in->flags & CS_CONSOLE_TRACEFS) ?
	      "printk and trace file timestamps" : in->flags & CS_CONSOLE_TRACEFS ?
	      "trace file timestamps" : "printk timestamps";
	fprintf(f, "%s: %s: text log of %llu lines: %llu notifier events (%s), %llu loss "
		"markers (%llu events), skipped: %llu other lines, %llu lines of our events "
		"not in their format (a loss marker each)%s\n", cmd, name, (unsigned long long)in->nr_lines,
		(unsigned long long)in->nr_events,
		in->flags & CS_CONSOLE_STOCK ? "upstream's cb-only events" :
		"latency = notifier_return - notifier_run",
		(unsigned long long)in->nr_loss, (unsigned long long)in->nr_lost,
		(unsigned long long)in->nr_other, (unsigned long long)in->nr_bad,
		in->nr_cut_end ? ", the cut last line" : "");
	if (in->nr_nul)
		fprintf(f, "%s: %s: %llu lines with NUL bytes (line noise): never events; %llu "
			"of them lines of our events (a loss marker each, counted above), %llu "
			"other lines\n", cmd, name, (unsigned long long)in->nr_nul,
			(unsigned long long)in->nr_nul_lost,
			(unsigned long long)(in->nr_nul - in->nr_nul_lost));
	if (in->nr_boots > 1)
		fprintf(f, "%s: %s: %llu boots in this log: the last one read\n", cmd, name,
			(unsigned long long)in->nr_boots);
	if (in->nr_untimed_lines == in->nr_events)
		fprintf(f, "%s: %s: no timestamps: every event untimed (boot with printk.time=1)\n",
			cmd, name);
	else
		fprintf(f, "%s: %s: times from %s: microsecond resolution (a return in the "
			"same microsecond as its run counts 1 ns); %llu events without a time "
			"(untimed)\n", cmd, name, src, (unsigned long long)in->nr_untimed_lines);
	if (in->nr_stops || in->nr_untimed)
		fprintf(f, "%s: %s: %llu stops made from NOTIFY_STOP_MASK returns, "
			"%llu returns without their run or time (untimed)\n",
			cmd, name, (unsigned long long)in->nr_stops,
			(unsigned long long)in->nr_untimed);
	if (in->nr_names)
		fprintf(f, "%s: %s: %llu callbacks by name: their addresses are stand-ins "
			"(0x0c5c...), the text prints names\n", cmd, name,
			(unsigned long long)in->nr_names);
	if (in->flags & CS_CONSOLE_STOCK)
		fprintf(f, "%s: %s: upstream's notifier events carry only cb: "
			"registration order and run counts, no latency, chains or return values\n",
			cmd, name);
}
