// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * cs-gentracedat: trace-cmd trace.dat files for the host tests of
 * report's and check's trace.dat input (tests/sh/tracedat.sh), written
 * with libtracecmd's own writer (tracecmd_output_*, as trace-cmd record
 * does) from a tracefs directory made up here: header_page,
 * header_event, the notifier events' `format` files, saved_cmdlines, a
 * kallsyms file and one raw ring-buffer file per CPU (pages as the
 * kernel's ring buffer writes them). Nothing is read from this machine's
 * tracefs, nothing is traced.
 *
 * The format files are written out by hand, in the kernel's format
 * syntax, from include-trace/trace/events/notifier.h (the generated
 * format depends only on the TRACE_EVENT definitions), for three event
 * sets: ours of today (9 events, notifier_return's duration_ns,
 * notifier_stop), the 8-event set of 4 classes that replaces it
 * (membership, run/return with ret, call_begin/end; no notifier_stop, no
 * duration_ns) and upstream's three cb-only events (Linux 6.4+).
 *
 *   cs-gentracedat SCENARIO FILE
 *   cs-gentracedat --tracefs SCENARIO DIR   the made-up tracefs itself, its
 *                                   pages as per_cpu/cpuN/trace_pipe_raw
 *                                   (report --tracefs DIR reads it: tracefs.sh)
 *   cs-gentracedat --list
 *   cs-gentracedat --seeds DIR      every scenario into DIR (fuzz seeds)
 *   cs-gentracedat --cuts FILE      FILE cut at every byte offset 1..size-1, each
 *                                   cut through the commands' pre-check
 *                                   (cs_tracedat_extents(), in process): one
 *                                   line per cut it does not refuse as
 *                                   "truncated", then "cuts N truncated M"
 *
 * The writer's kallsyms step resets /proc/sys/kernel/kptr_restrict when
 * it can; it runs in a child that has dropped root, so it cannot.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <sys/mman.h>

#include <trace-cmd/trace-cmd.h>

#include "tracedat.h"

/* libtracecmd's writer: exported, declared in trace-cmd-private.h only */
struct tracecmd_output;
struct tracecmd_event_list {
	struct tracecmd_event_list *next;
	const char *glob;
};
struct tracecmd_output *tracecmd_output_create_fd(int fd);
int tracecmd_output_set_trace_dir(struct tracecmd_output *h, const char *dir);
int tracecmd_output_set_kallsyms(struct tracecmd_output *h, const char *kallsyms);
int tracecmd_output_set_version(struct tracecmd_output *h, int file_version);
int tracecmd_output_set_compression(struct tracecmd_output *h, const char *compression);
int tracecmd_output_write_headers(struct tracecmd_output *h, struct tracecmd_event_list *list);
int tracecmd_write_cmdlines(struct tracecmd_output *h);
int tracecmd_write_cpus(struct tracecmd_output *h, int cpus);
int tracecmd_write_options(struct tracecmd_output *h);
int tracecmd_write_cpu_data(struct tracecmd_output *h, int cpus, char * const *files,
			    const char *buff_name);
void tracecmd_set_out_clock(struct tracecmd_output *h, const char *clock);
void tracecmd_set_quiet(struct tracecmd_output *h, bool quiet);
void tracecmd_output_close(struct tracecmd_output *h);
struct tracecmd_option *tracecmd_add_option(struct tracecmd_output *h, unsigned short id,
					    int size, const void *data);
#define TRACECMD_OPTION_TRACECLOCK 4
#define TRACECMD_OPTION_UNAME 5
#define TRACECMD_OPTION_TSC2NSEC 14

#define HEAD 0xffffffff82000000ULL	/* cs_test_chain */
#define HEAD2 0xffffffff82000100ULL	/* cs_inner_chain */
#define HEAD3 0xffffffff82000200ULL	/* cs_irq_chain */
#define CB_FAST 0xffffffff81000000ULL
#define CB_BUSY 0xffffffff81000100ULL
#define CB_VETO 0xffffffff81000200ULL
#define CB_INNER 0xffffffff81000300ULL
#define CB_IRQ 0xffffffff81000400ULL
#define NB_FAST 0xffffffff82001000ULL
#define NB_BUSY 0xffffffff82001040ULL
#define NB_VETO 0xffffffff82001080ULL
#define NB_INNER 0xffffffff820010c0ULL
#define NB_IRQ 0xffffffff82001100ULL

enum { RAW, ATOMIC, BLOCKING, SRCU };
#define NOTIFY_DONE 0
#define NOTIFY_OK 1
#define NOTIFY_STOP 0x8001
#define PAGE 4096
#define NCPU 2

/* --- event formats -------------------------------------------------------- */

struct fdef {
	const char *type, *name;
	int size, sign;
};
struct edef {
	const char *name;
	const struct fdef *f;
	int nf, id, off[16], size;
};

#define F_CB { "void *", "cb", 8, 0 }
#define F_HEAD { "void *", "head", 8, 0 }
#define F_NB { "struct notifier_block *", "nb", 8, 0 }
#define F_PRIO { "int", "priority", 4, 1 }
#define F_KIND { "enum notifier_chain_kind", "kind", 4, 0 }
#define F_ERR { "int", "err", 4, 1 }
#define F_VAL { "unsigned long", "val", 8, 0 }
#define F_DUR { "u64", "duration_ns", 8, 0 }
#define F_RET { "int", "ret", 4, 1 }
#define F_NRC { "int", "nr_calls", 4, 1 }
#define F_NTC { "int", "nr_to_call", 4, 1 }
#define F_TYPE { "enum notifier_call_type", "type", 4, 0 }
#define N(a) (int)(sizeof(a) / sizeof(a[0]))

/* ours, 9 events (include-trace/trace/events/notifier.h of today) */
static const struct fdef m9[] = { F_CB, F_HEAD, F_NB, F_PRIO, F_KIND, F_ERR };
static const struct fdef run9[] = { F_CB, F_HEAD, F_NB, F_PRIO, F_KIND, F_VAL };
static const struct fdef ret9[] = { F_CB, F_HEAD, F_NB, F_PRIO, F_KIND, F_VAL, F_DUR, F_RET };
static const struct fdef stop9[] = { F_CB, F_HEAD, F_NB, F_PRIO, F_KIND, F_VAL, F_RET, F_NRC };
static const struct fdef begin9[] = { F_HEAD, F_VAL, F_KIND, F_NTC, F_TYPE };
static const struct fdef end9[] = { F_HEAD, F_VAL, F_KIND, F_NTC, F_TYPE, F_RET, F_NRC };
/* the 8-event set: 4 classes, fields in the order the rework lists them */
static const struct fdef runret8[] = { F_CB, F_HEAD, F_NB, F_PRIO, F_KIND, F_VAL, F_RET };
static const struct fdef call8[] = { F_HEAD, F_KIND, F_VAL, F_NTC, F_TYPE, F_RET, F_NRC };
/* upstream's (include/trace/events/notifier.h, 6.4+) */
static const struct fdef stock[] = { F_CB };

#define E(n, f) { n, f, N(f), 0, { 0 }, 0 }
static struct edef set9[] = {
	E("notifier_register", m9), E("notifier_unregister", m9),
	E("notifier_register_error", m9), E("notifier_unregister_error", m9),
	E("notifier_run", run9), E("notifier_return", ret9), E("notifier_stop", stop9),
	E("notifier_call_begin", begin9), E("notifier_call_end", end9),
};
static struct edef set8[] = {
	E("notifier_register", m9), E("notifier_unregister", m9),
	E("notifier_register_error", m9), E("notifier_unregister_error", m9),
	E("notifier_run", runret8), E("notifier_return", runret8),
	E("notifier_call_begin", call8), E("notifier_call_end", call8),
};
static struct edef set3[] = {
	E("notifier_register", stock), E("notifier_unregister", stock),
	E("notifier_run", stock),
};
/* headsz4: notifier_run's head 4 bytes wide; mixed: notifier_run upstream's */
static const struct fdef runret8_h4[] = {
	F_CB, { "int", "head", 4, 0 }, F_NB, F_PRIO, F_KIND, F_VAL, F_RET
};
static struct edef set8_h4[] = {
	E("notifier_register", m9), E("notifier_unregister", m9),
	E("notifier_run", runret8_h4), E("notifier_return", runret8),
	E("notifier_call_begin", call8), E("notifier_call_end", call8),
};
static struct edef set8_mixed[] = {
	E("notifier_register", m9), E("notifier_unregister", m9),
	E("notifier_run", stock), E("notifier_return", runret8),
	E("notifier_call_begin", call8), E("notifier_call_end", call8),
};

static struct edef *set;
static int nset;

static void layout(void)
{
	int i, j, off;

	for (i = 0; i < nset; i++) {
		off = 8;	/* struct trace_entry */
		for (j = 0; j < set[i].nf; j++) {
			int sz = set[i].f[j].size;

			off = (off + sz - 1) / sz * sz;
			set[i].off[j] = off;
			off += sz;
		}
		set[i].size = (off + 7) / 8 * 8;
		set[i].id = 1500 + i;
	}
}

static const struct edef *find(const char *name)
{
	int i;

	for (i = 0; i < nset; i++)
		if (!strcmp(set[i].name, name))
			return &set[i];
	return NULL;
}

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "cs-gentracedat: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void put_file(const char *dir, const char *name, const char *text, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f))
		die("cannot write %s: %s", path, strerror(errno));
	chmod(path, 0644);
}

static void mkdir_p(const char *dir, const char *sub)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	if (mkdir(path, 0755) && errno != EEXIST)
		die("mkdir %s: %s", path, strerror(errno));
	chmod(path, 0755);
}

/* field names that a bad scenario puts into a format */
static const char *bad_field;
static bool bad_kind;		/* badkind: the first registration says kind 9 */
static int bad_offset = -1;

static void write_formats(const char *dir)
{
	static char text[8192];
	int i, j, n;

	mkdir_p(dir, "events");
	mkdir_p(dir, "events/ftrace");
	mkdir_p(dir, "events/notifier");
	n = snprintf(text, sizeof(text),
		     "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		     "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		     "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		     "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n");
	put_file(dir, "events/header_page", text, n);
	n = snprintf(text, sizeof(text),
		     "# compressed entry header\n"
		     "\ttype_len    :    5 bits\n"
		     "\ttime_delta  :   27 bits\n"
		     "\tarray       :   32 bits\n\n"
		     "\tpadding     : type == 29\n"
		     "\ttime_extend : type == 30\n"
		     "\ttime_stamp : type == 31\n"
		     "\tdata max type_len  == 28\n");
	put_file(dir, "events/header_event", text, n);
	/* at least one ftrace event: the 3.1.6 writer crashes on none */
	mkdir_p(dir, "events/ftrace/function");
	n = snprintf(text, sizeof(text),
		     "name: function\nID: 1\nformat:\n"
		     "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		     "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		     "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		     "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		     "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
		     "\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n\n"
		     "print fmt: \" %%ps <-- %%ps\", (void *)REC->ip, (void *)REC->parent_ip\n");
	put_file(dir, "events/ftrace/function/format", text, n);
	for (i = 0; i < nset; i++) {
		const struct edef *e = &set[i];
		char sub[256];

		snprintf(sub, sizeof(sub), "events/notifier/%s", e->name);
		mkdir_p(dir, sub);
		n = snprintf(text, sizeof(text),
			     "name: %s\nID: %d\nformat:\n"
			     "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
			     "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
			     "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
			     "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n",
			     e->name, e->id);
		for (j = 0; j < e->nf; j++)
			n += snprintf(text + n, sizeof(text) - n,
				      "\tfield:%s %s;\toffset:%d;\tsize:%d;\tsigned:%d;\n",
				      e->f[j].type, e->f[j].name,
				      bad_field && !strcmp(bad_field, e->f[j].name) ?
				      bad_offset : e->off[j], e->f[j].size, e->f[j].sign);
		if (e->nf == 1)
			n += snprintf(text + n, sizeof(text) - n,
				      "\nprint fmt: \"%%ps\", REC->cb\n");
		else if (!strcmp(e->f[0].name, "cb"))
			n += snprintf(text + n, sizeof(text) - n,
				      "\nprint fmt: \"%%ps head=%%p nb=%%p priority=%%d\", "
				      "REC->cb, REC->head, REC->nb, REC->priority\n");
		else
			n += snprintf(text + n, sizeof(text) - n,
				      "\nprint fmt: \"head=%%p val=%%lu nr_to_call=%%d\", "
				      "REC->head, REC->val, REC->nr_to_call\n");
		snprintf(sub, sizeof(sub), "events/notifier/%s/format", e->name);
		put_file(dir, sub, text, n);
	}
}

/* --- the ring buffer -------------------------------------------------------- */

struct val {
	const char *name;
	unsigned long long v;
};

struct cpubuf {
	unsigned char page[PAGE];
	size_t used;		/* bytes of events in page */
	unsigned long long base, last;	/* page timestamp, last event's */
	unsigned long long missed;	/* for the page being filled */
	bool missed_unknown;
	FILE *f;
	int pages;
};
static struct cpubuf cpus[NCPU];

static void flush_page(struct cpubuf *c)
{
	unsigned long long commit = c->used;

	if (!c->used)
		return;
	memset(c->page + 16 + c->used, 0, PAGE - 16 - c->used);
	if (c->missed || c->missed_unknown) {
		commit |= 1ULL << 31;			/* RB_MISSED_EVENTS */
		if (!c->missed_unknown) {
			commit |= 1ULL << 30;		/* RB_MISSED_STORED */
			memcpy(c->page + 16 + c->used, &c->missed, 8);
		}
	}
	memcpy(c->page, &c->base, 8);
	memcpy(c->page + 8, &commit, 8);
	if (fwrite(c->page, 1, PAGE, c->f) != PAGE)
		die("write: %s", strerror(errno));
	c->used = 0;
	c->missed = 0;
	c->missed_unknown = false;
	c->pages++;
}

/* start the next event on a new page that says `missed` were lost (-1: unknown) */
static bool mark_loss;

static void lose(int cpu, long long missed)
{
	if (!mark_loss)
		return;		/* events gone, and the buffer does not say so */
	flush_page(&cpus[cpu]);
	if (missed < 0)
		cpus[cpu].missed_unknown = true;
	else
		cpus[cpu].missed = missed;
}

static void put_u32(struct cpubuf *c, unsigned int x)
{
	memcpy(c->page + 16 + c->used, &x, 4);
	c->used += 4;
}

/* tsc2nsec: the clock counts 2 cycles a ns, the file says how to convert */
static unsigned int ts_scale = 1;

static void emit(int cpu, unsigned long long ts, const char *name, int flags, int pid,
		 const struct val *vals, int nvals)
{
	const struct edef *e = find(name);
	struct cpubuf *c = &cpus[cpu];
	unsigned char rec[128] = { 0 };
	unsigned long long delta;
	unsigned short type;
	int i, j, words;

	if (!e)
		return;		/* not in this event set */
	ts *= ts_scale;
	words = (e->size + 3) / 4;
	if (c->used + 8 + 4 + words * 4 + 8 > PAGE - 16)
		flush_page(c);
	if (!c->used) {
		c->base = ts;
		c->last = ts;
	}
	if (ts < c->last)
		die("time goes back on CPU %d", cpu);
	delta = ts - c->last;
	if (delta >= (1ULL << 27)) {
		put_u32(c, 30 | (unsigned int)(delta & ((1u << 27) - 1)) << 5);
		put_u32(c, (unsigned int)(delta >> 27));
		delta = 0;
	}
	c->last = ts;
	type = e->id;
	memcpy(rec, &type, 2);
	rec[2] = flags;
	rec[3] = 0;
	memcpy(rec + 4, &pid, 4);
	for (i = 0; i < nvals; i++)
		for (j = 0; j < e->nf; j++)
			if (!strcmp(e->f[j].name, vals[i].name))
				memcpy(rec + e->off[j], &vals[i].v, e->f[j].size);
	put_u32(c, words | (unsigned int)delta << 5);
	memcpy(c->page + 16 + c->used, rec, words * 4);
	c->used += words * 4;
}

/* --- the scenario ---------------------------------------------------------- */

#define V(...) (struct val[]){ __VA_ARGS__ }, (int)(sizeof((struct val[]){ __VA_ARGS__ }) / sizeof(struct val))

static bool with_loss;
static int version;
/*
 * inst8: the events in a buffer instance "cs" (trace-cmd record -B cs),
 * the top buffer's CPUs empty; twobuf8: the same events in both (one
 * trace recorded twice); instempty8: the events in the top buffer, the
 * instance's CPUs empty; -v7: the version-7 file
 */
static int instance_mode;
int tracecmd_add_buffer_info(struct tracecmd_output *h, const char *name, int cpus);
int tracecmd_write_buffer_info(struct tracecmd_output *h);

static void reg(int cpu, unsigned long long ts, int pid, unsigned long long head,
		unsigned long long cb, unsigned long long nb, int prio, int kind)
{
	emit(cpu, ts, "notifier_register", 0, pid,
	     V({ "cb", cb }, { "head", head }, { "nb", nb }, { "priority", (unsigned)prio },
	       { "kind", kind }, { "err", 0 }));
}

static void begin(int cpu, unsigned long long ts, int fl, int pid, unsigned long long head,
		  int kind, unsigned long long val)
{
	emit(cpu, ts, "notifier_call_begin", fl, pid,
	     V({ "head", head }, { "kind", kind }, { "val", val },
	       { "nr_to_call", 0xffffffffu }, { "type", 0 }));
}

static void end(int cpu, unsigned long long ts, int fl, int pid, unsigned long long head,
		int kind, unsigned long long val, int ret, int nr)
{
	emit(cpu, ts, "notifier_call_end", fl, pid,
	     V({ "head", head }, { "kind", kind }, { "val", val }, { "nr_to_call", 0xffffffffu },
	       { "type", 0 }, { "ret", (unsigned)ret }, { "nr_calls", (unsigned)nr }));
}

/* run at ts, return after dur with ret (and notifier_stop where the set has it) */
static void call(int cpu, unsigned long long ts, unsigned long long dur, int fl, int pid,
		 unsigned long long head, unsigned long long cb, unsigned long long nb,
		 int prio, int kind, unsigned long long val, int ret, int nr_calls,
		 bool no_return)
{
	emit(cpu, ts, "notifier_run", fl, pid,
	     V({ "cb", cb }, { "head", head }, { "nb", nb }, { "priority", (unsigned)prio },
	       { "kind", kind }, { "val", val }));
	if (no_return)
		return;
	emit(cpu, ts + dur, "notifier_return", fl, pid,
	     V({ "cb", cb }, { "head", head }, { "nb", nb }, { "priority", (unsigned)prio },
	       { "kind", kind }, { "val", val }, { "duration_ns", dur }, { "ret", (unsigned)ret }));
	if (ret & 0x8000)
		emit(cpu, ts + dur + 500, "notifier_stop", fl, pid,
		     V({ "cb", cb }, { "head", head }, { "nb", nb }, { "priority", (unsigned)prio },
		       { "kind", kind }, { "val", val }, { "ret", (unsigned)ret },
		       { "nr_calls", (unsigned)nr_calls }));
}

/*
 * CPU 0, task 100: cs_test_chain (blocking) with cs_cb_fast (prio 10,
 * 100 us), cs_cb_busy (5, 500 + 100 i us), cs_cb_veto (0, 10 us,
 * NOTIFY_STOP in passes 3 and 7), 10 passes; pass 0's busy callback
 * calls cs_inner_chain (raw, cs_cb_inner 30 us) nested. CPU 1, hardirq:
 * cs_irq_chain (atomic), cs_cb_irq 50 us, 5 passes. With loss: CPU 0
 * loses 4 events in pass 5 (busy's return, stored count) and CPU 1 an
 * unknown number before its pass 3. drop8: the same events lost, and
 * the ring buffer does not say so (check must then find violations).
 */
static void scenario(void)
{
	unsigned long long t;
	int i;

	reg(0, 1000000000ULL, 100, HEAD, CB_FAST, NB_FAST, 10, bad_kind ? 9 : BLOCKING);
	reg(0, 1000001000ULL, 100, HEAD, CB_BUSY, NB_BUSY, 5, BLOCKING);
	reg(0, 1000002000ULL, 100, HEAD, CB_VETO, NB_VETO, 0, BLOCKING);
	reg(0, 1000003000ULL, 100, HEAD2, CB_INNER, NB_INNER, 0, RAW);
	reg(1, 1500000000ULL, 200, HEAD3, CB_IRQ, NB_IRQ, 0, ATOMIC);
	for (i = 0; i < 10; i++) {
		int vret = (i == 3 || i == 7) ? NOTIFY_STOP : NOTIFY_OK;
		bool lost = with_loss && i == 5;

		t = 2000000000ULL + i * 10000000ULL;
		begin(0, t, 0, 100, HEAD, BLOCKING, i);
		call(0, t + 1000, 100000, 0, 100, HEAD, CB_FAST, NB_FAST, 10, BLOCKING, i,
		     NOTIFY_OK, 1, false);
		call(0, t + 200000, 500000 + i * 100000ULL, 0, 100, HEAD, CB_BUSY, NB_BUSY, 5,
		     BLOCKING, i, NOTIFY_OK, 2, i == 0 || lost);
		if (i == 0) {
			begin(0, t + 210000, 0, 100, HEAD2, RAW, 7);
			call(0, t + 211000, 30000, 0, 100, HEAD2, CB_INNER, NB_INNER, 0, RAW, 7,
			     NOTIFY_DONE, 1, false);
			end(0, t + 242000, 0, 100, HEAD2, RAW, 7, NOTIFY_DONE, 1);
			emit(0, t + 700000, "notifier_return", 0, 100,
			     V({ "cb", CB_BUSY }, { "head", HEAD }, { "nb", NB_BUSY },
			       { "priority", 5 }, { "kind", BLOCKING }, { "val", 0 },
			       { "duration_ns", 500000 }, { "ret", NOTIFY_OK }));
		}
		if (lost)
			lose(0, 4);	/* busy's return and what follows it here */
		call(0, t + 2000000, 10000, 0, 100, HEAD, CB_VETO, NB_VETO, 0, BLOCKING, i,
		     vret, 3, false);
		end(0, t + 2020000, 0, 100, HEAD, BLOCKING, i, vret, 3);
	}
	for (i = 0; i < 5; i++) {
		t = 3000000000ULL + i * 1000000ULL;
		if (with_loss && i == 3)
			lose(1, -1);
		begin(1, t, 0x09, 0, HEAD3, ATOMIC, 0);
		call(1, t + 1000, 50000, 0x09, 0, HEAD3, CB_IRQ, NB_IRQ, 0, ATOMIC, 0,
		     NOTIFY_DONE, 1, false);
		end(1, t + 60000, 0x09, 0, HEAD3, ATOMIC, 0, NOTIFY_DONE, 1);
	}
	emit(0, 3100000000ULL, "notifier_unregister", 0, 100,
	     V({ "cb", CB_VETO }, { "head", HEAD }, { "nb", NB_VETO }, { "priority", 0 },
	       { "kind", BLOCKING }, { "err", 0 }));
}

/*
 * lossopen8: after loss8's scenario, CPU 0 runs cs_cb_fast once more (val
 * 42), the ring buffer loses 3 events, and the return comes 8 s later:
 * the loss drops the open run, so the return is untimed, not 8 s.
 */
static bool with_open_loss;

static void open_loss(void)
{
	call(0, 3200000000ULL, 0, 0, 100, HEAD, CB_FAST, NB_FAST, 10, BLOCKING, 42, NOTIFY_OK, 1,
	     true);
	lose(0, 3);
	emit(0, 11200000000ULL, "notifier_return", 0, 100,
	     V({ "cb", CB_FAST }, { "head", HEAD }, { "nb", NB_FAST }, { "priority", 10 },
	       { "kind", BLOCKING }, { "val", 42 }, { "duration_ns", 8000000000ULL },
	       { "ret", NOTIFY_OK }));
}

/*
 * boot8 (bootstock, bootbad8, bootnoreg8, bootenoent8): a boot-time buffer, as
 * trace_event=notifier:* records it from early boot (report --boot,
 * tests/sh/boot.sh). CPU 0, task 1:
 *   reboot_notifier_list (blocking): r_a 0, r_b 128, r_c 0, r_d -1, r_e 128
 *     registered in that order, never called: call order b e a c d;
 *   module_notify_list (blocking): m_a 0, m_b 0, m_c 1, m_a unregistered
 *     and registered again: call order c b a; 3 passes, m_c 2 ms (the
 *     slowest), m_b 50 us, m_a 10 us;
 *   netdev_chain (raw): n_lo (prio 0) registered before tracing was up
 *     (no notifier_register: early history missing), n_a 0, n_b 10: call
 *     order b lo a; 2 passes, n_lo 700 us.
 * bootbad8 adds real violations: a pass of the module chain runs m_a
 * before m_b (registration order), and n_a runs after its unregister.
 * bootnoreg8: the same calls, no membership event at all.
 * bootenoent8: boot8, then unregister_error -ENOENT for n_lo, which ran in
 * passes whose call_begin is in the buffer (a real violation); and a last
 * module pass in whose m_c a netdev pass without call_begin (begun before
 * it was traced) runs n_x, never registered, and unregister_error -ENOENT
 * for n_x (unknown: early history).
 */
#define BH_REBOOT 0xffffffff82000300ULL
#define BH_MODULE 0xffffffff82000400ULL
#define BH_NETDEV 0xffffffff82000500ULL
#define BCB(i) (0xffffffff81000600ULL + (i) * 0x40ULL)
#define BNB(i) (0xffffffff82002000ULL + (i) * 0x40ULL)
enum { R_A, R_B, R_C, R_D, R_E, M_A, M_B, M_C, N_LO, N_A, N_B, N_X };
static bool boot_bad, boot_noreg, boot_enoent;

static void breg(unsigned long long ts, const char *ev, unsigned long long head, int i,
		 int prio, int kind)
{
	if (boot_noreg)
		return;
	emit(0, ts, ev, 0, 1,
	     V({ "cb", BCB(i) }, { "head", head }, { "nb", BNB(i) },
	       { "priority", (unsigned)prio }, { "kind", kind }, { "err", 0 }));
}

static void bpass(unsigned long long t, unsigned long long head, int kind,
		  unsigned long long val, const int *blk, const int *prio,
		  const unsigned long long *dur, int n)
{
	unsigned long long at = t + 1000;
	int i;

	begin(0, t, 0, 1, head, kind, val);
	for (i = 0; i < n; i++) {
		call(0, at, dur[i], 0, 1, head, BCB(blk[i]), BNB(blk[i]), prio[i], kind, val,
		     NOTIFY_OK, i + 1, false);
		at += dur[i] + 1000;
	}
	end(0, at, 0, 1, head, kind, val, NOTIFY_OK, n);
}

static void boot_scenario(void)
{
	static const int mo[] = { M_C, M_B, M_A }, mp[] = { 1, 0, 0 };
	static const int mbad[] = { M_C, M_A, M_B };
	static const unsigned long long md[] = { 2000000, 50000, 10000 };
	static const int no[] = { N_B, N_LO, N_A }, np[] = { 10, 0, 0 };
	static const unsigned long long nd[] = { 30000, 700000, 5000 };
	int i;

	breg(500000000ULL, "notifier_register", BH_REBOOT, R_A, 0, BLOCKING);
	breg(500100000ULL, "notifier_register", BH_REBOOT, R_B, 128, BLOCKING);
	breg(500200000ULL, "notifier_register", BH_MODULE, M_A, 0, BLOCKING);
	breg(500300000ULL, "notifier_register", BH_REBOOT, R_C, 0, BLOCKING);
	breg(500400000ULL, "notifier_register", BH_NETDEV, N_A, 0, RAW);
	breg(500500000ULL, "notifier_register", BH_MODULE, M_B, 0, BLOCKING);
	breg(500600000ULL, "notifier_register", BH_REBOOT, R_D, -1, BLOCKING);
	breg(500700000ULL, "notifier_register", BH_NETDEV, N_B, 10, RAW);
	breg(500800000ULL, "notifier_register", BH_MODULE, M_C, 1, BLOCKING);
	breg(500900000ULL, "notifier_register", BH_REBOOT, R_E, 128, BLOCKING);
	breg(501000000ULL, "notifier_unregister", BH_MODULE, M_A, 0, BLOCKING);
	breg(501100000ULL, "notifier_register", BH_MODULE, M_A, 0, BLOCKING);
	for (i = 0; i < 3; i++)
		bpass(1000000000ULL + i * 100000000ULL, BH_MODULE, BLOCKING, i,
		      boot_bad && i == 2 ? mbad : mo, mp, md, 3);
	for (i = 0; i < 2; i++)
		bpass(1500000000ULL + i * 100000000ULL, BH_NETDEV, RAW, 16 + i, no, np, nd, 3);
	if (boot_bad) {
		breg(1800000000ULL, "notifier_unregister", BH_NETDEV, N_A, 0, RAW);
		bpass(1900000000ULL, BH_NETDEV, RAW, 18, no, np, nd, 3);
	}
	if (boot_enoent) {
		unsigned long long t = 2000000000ULL;

		emit(0, 1800000000ULL, "notifier_unregister_error", 0, 1,
		     V({ "cb", BCB(N_LO) }, { "head", BH_NETDEV }, { "nb", BNB(N_LO) },
		       { "priority", 0 }, { "kind", RAW }, { "err", (unsigned)-2 }));
		begin(0, t, 0, 1, BH_MODULE, BLOCKING, 9);
		emit(0, t + 1000, "notifier_run", 0, 1,
		     V({ "cb", BCB(M_C) }, { "head", BH_MODULE }, { "nb", BNB(M_C) },
		       { "priority", 1 }, { "kind", BLOCKING }, { "val", 9 }));
		call(0, t + 2000, 3000, 0, 1, BH_NETDEV, BCB(N_X), BNB(N_X), 0, RAW, 5,
		     NOTIFY_OK, 1, false);
		end(0, t + 6000, 0, 1, BH_NETDEV, RAW, 5, NOTIFY_OK, 1);
		emit(0, t + 8000, "notifier_return", 0, 1,
		     V({ "cb", BCB(M_C) }, { "head", BH_MODULE }, { "nb", BNB(M_C) },
		       { "priority", 1 }, { "kind", BLOCKING }, { "val", 9 },
		       { "ret", NOTIFY_OK }));
		end(0, t + 9000, 0, 1, BH_MODULE, BLOCKING, 9, NOTIFY_OK, 1);
		emit(0, t + 20000, "notifier_unregister_error", 0, 1,
		     V({ "cb", BCB(N_X) }, { "head", BH_NETDEV }, { "nb", BNB(N_X) },
		       { "priority", 0 }, { "kind", RAW }, { "err", (unsigned)-2 }));
	}
}

static const char *kallsyms_boot =
	"ffffffff81000600 T cs_boot_r_a\n"
	"ffffffff81000640 T cs_boot_r_b\n"
	"ffffffff81000680 T cs_boot_r_c\n"
	"ffffffff810006c0 T cs_boot_r_d\n"
	"ffffffff81000700 T cs_boot_r_e\n"
	"ffffffff81000740 T cs_boot_m_a\n"
	"ffffffff81000780 T cs_boot_m_b\n"
	"ffffffff810007c0 T cs_boot_m_c\n"
	"ffffffff81000800 T cs_boot_n_lo\n"
	"ffffffff81000840 T cs_boot_n_a\n"
	"ffffffff81000880 T cs_boot_n_b\n"
	"ffffffff810008c0 T cs_boot_n_x\n"
	"ffffffff81000900 T cs_boot_text_end\n"
	"ffffffff82000300 D reboot_notifier_list\n"
	"ffffffff82000400 D module_notify_list\n"
	"ffffffff82000500 D netdev_chain\n"
	"ffffffff82000600 D cs_boot_heads_end\n"
	"ffffffff82002000 d cs_boot_nb_r_a\n"
	"ffffffff82002040 d cs_boot_nb_r_b\n"
	"ffffffff82002080 d cs_boot_nb_r_c\n"
	"ffffffff820020c0 d cs_boot_nb_r_d\n"
	"ffffffff82002100 d cs_boot_nb_r_e\n"
	"ffffffff82002140 d cs_boot_nb_m_a\n"
	"ffffffff82002180 d cs_boot_nb_m_b\n"
	"ffffffff820021c0 d cs_boot_nb_m_c\n"
	"ffffffff82002200 d cs_boot_nb_n_lo\n"
	"ffffffff82002240 d cs_boot_nb_n_a\n"
	"ffffffff82002280 d cs_boot_nb_n_b\n"
	"ffffffff820022c0 d cs_boot_nb_n_x\n"
	"ffffffff82002300 d cs_boot_data_end\n";

static const char *kallsyms_good =
	"ffffffff81000000 T cs_cb_fast\n"
	"ffffffff81000100 T cs_cb_busy\n"
	"ffffffff81000200 T cs_cb_veto\n"
	"ffffffff81000300 T cs_cb_inner\n"
	"ffffffff81000400 T cs_cb_irq\n"
	"ffffffff81000500 T cs_text_end\n"
	"ffffffff82000000 D cs_test_chain\n"
	"ffffffff82000100 D cs_inner_chain\n"
	"ffffffff82000200 D cs_irq_chain\n"
	"ffffffff82001000 d cs_nb_fast\n"
	"ffffffff82001040 d cs_nb_busy\n"
	"ffffffff82001080 d cs_nb_veto\n"
	"ffffffff820010c0 d cs_nb_inner\n"
	"ffffffff82001100 d cs_nb_irq\n"
	"ffffffff82001140 d cs_data_end\n";

static const char *const scenarios[] = {
	"ours9", "ours8", "stock", "loss8", "loss9", "drop8", "clock-mono", "clock-counter",
	"clock-x86-tsc", "clock-uptime", "clock-tsc2nsec", "ours8-v7", "badname", "badname-quote", "nonotifier",
	"badfield", "lossopen8", "badkind", "stock-reg", "headsz4", "mixed",
	"inst8", "inst8-v7", "twobuf8", "twobuf8-v7", "instempty8",
	"boot8", "bootstock", "bootbad8", "bootnoreg8", "bootenoent8",
};

/*
 * trace_clock as the kernel shows it, the clock in use in brackets: the
 * live input reads it, and a version-7 file holds it (NUL included) as
 * its TRACECLOCK option, as trace-cmd record writes it (version 6: the
 * option is empty and the clock follows the CPU data)
 */
static int clock_text(char *text, size_t len, const char *clock)
{
	static const char *const all[] = {
		"local", "global", "counter", "uptime", "perf", "mono", "mono_raw", "boot",
		"tai", "x86-tsc",
	};
	size_t i;
	int k = 0;
	bool in = false;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		bool cur = !strcmp(all[i], clock);

		in |= cur;
		k += snprintf(text + k, len - k, cur ? "%s[%s]" : "%s%s", k ? " " : "", all[i]);
	}
	/* a name of trace-cmd's own (tsc2nsec), or one the kernel does not list */
	if (!in)
		k += snprintf(text + k, len - k, " [%s]", clock);
	return k + snprintf(text + k, len - k, "\n");
}

/*
 * --tracefs: the made-up tracefs itself, as the live input reads it: the
 * formats, trace_clock, every notifier event enabled, and each CPU's
 * pages as per_cpu/cpuN/trace_pipe_raw (empty beyond the scenario's CPUs,
 * up to the CPUs libtracefs opens), kallsyms for CHAINSCOPE_KALLSYMS
 */
static void tracefs_dir(const char *dir, const char *clock)
{
	char sub[256], text[160];
	long i, n = sysconf(_SC_NPROCESSORS_CONF);

	n = n < NCPU ? NCPU : n;
	put_file(dir, "trace_clock", text, clock_text(text, sizeof(text), clock));
	mkdir_p(dir, "per_cpu");
	for (i = 0; i < n; i++) {
		snprintf(sub, sizeof(sub), "per_cpu/cpu%ld", i);
		mkdir_p(dir, sub);
		snprintf(sub, sizeof(sub), "per_cpu/cpu%ld/trace_pipe_raw", i);
		put_file(dir, sub, "", 0);
	}
	for (i = 0; i < nset; i++) {
		snprintf(sub, sizeof(sub), "events/notifier/%s/enable", set[i].name);
		put_file(dir, sub, "1\n", 2);
	}
	put_file(dir, "events/notifier/enable", "1\n", 2);
}

static int write_one(const char *scen, const char *out, const char *tfdir)
{
	char tmpl[4000] = "/tmp/cs-gentracedat.XXXXXX", path[4200], *files[NCPU], *empty[NCPU];
	const char *clock = "local", *kallsyms = kallsyms_good;
	char kbuf[2048];
	struct tracecmd_output *h;
	int i, fd, status;
	pid_t pid;

	set = set8;
	nset = N(set8);
	with_loss = false;
	ts_scale = 1;
	version = 6;
	bad_field = NULL;
	bad_kind = false;
	instance_mode = 0;
	boot_bad = !strcmp(scen, "bootbad8");
	boot_noreg = !strcmp(scen, "bootnoreg8");
	boot_enoent = !strcmp(scen, "bootenoent8");
	if (!strncmp(scen, "boot", 4)) {
		kallsyms = kallsyms_boot;
		if (!strcmp(scen, "bootstock")) {
			set = set3;
			nset = N(set3);
		} else if (strcmp(scen, "boot8") && !boot_bad && !boot_noreg && !boot_enoent) {
			fprintf(stderr, "cs-gentracedat: unknown scenario '%s' (--list)\n", scen);
			return 2;
		}
	} else if (!strcmp(scen, "ours9") || !strcmp(scen, "loss9")) {
		set = set9;
		nset = N(set9);
	} else if (!strcmp(scen, "stock")) {
		set = set3;
		nset = N(set3);
	} else if (!strncmp(scen, "clock-", 6)) {
		clock = scen + 6;
		/* as trace-cmd record -C tsc2nsec: raw TSC and the conversion */
		if (!strcmp(clock, "tsc2nsec"))
			ts_scale = 2;
	} else if (!strcmp(scen, "badname")) {
		snprintf(kbuf, sizeof(kbuf), "%s", kallsyms_good);
		memcpy(strstr(kbuf, "cs_cb_busy"), "cs-cb_busy", 10);
		kallsyms = kbuf;
	} else if (!strcmp(scen, "badname-quote")) {
		snprintf(kbuf, sizeof(kbuf), "%s", kallsyms_good);
		memcpy(strstr(kbuf, "cs_test_chain"), "cs\"test$(x", 10);
		kallsyms = kbuf;
	} else if (!strcmp(scen, "nonotifier")) {
		nset = 0;
	} else if (!strcmp(scen, "stock-reg")) {
		set = set3;
		nset = 2;	/* notifier_register, notifier_unregister */
	} else if (!strcmp(scen, "headsz4")) {
		set = set8_h4;
		nset = N(set8_h4);
	} else if (!strcmp(scen, "mixed")) {
		set = set8_mixed;
		nset = N(set8_mixed);
	} else if (!strcmp(scen, "badkind")) {
		bad_kind = true;
	} else if (!strcmp(scen, "badfield")) {
		bad_field = "val";
		bad_offset = 4000;
	} else if (!strncmp(scen, "inst", 4) || !strncmp(scen, "twobuf8", 7)) {
		instance_mode = !strncmp(scen, "inst8", 5) ? 1 : scen[0] == 't' ? 2 : 3;
		version = strstr(scen, "-v7") ? 7 : 6;
	} else if (!strcmp(scen, "ours8-v7")) {
		version = 7;	/* trace-cmd's sectioned format, compressed if it can */
	} else if (strcmp(scen, "ours8") && strcmp(scen, "loss8") && strcmp(scen, "drop8") &&
		   strcmp(scen, "lossopen8")) {
		fprintf(stderr, "cs-gentracedat: unknown scenario '%s' (--list)\n", scen);
		return 2;
	}
	if (!strncmp(scen, "loss", 4) || !strcmp(scen, "drop8"))
		with_loss = true;
	mark_loss = strcmp(scen, "drop8") != 0;
	with_open_loss = !strcmp(scen, "lossopen8");
	layout();

	if (tfdir) {
		if (mkdir(tfdir, 0755) && errno != EEXIST)
			die("mkdir %s: %s", tfdir, strerror(errno));
		snprintf(tmpl, sizeof(tmpl), "%s", tfdir);
	} else if (!mkdtemp(tmpl)) {
		die("mkdtemp: %s", strerror(errno));
	}
	chmod(tmpl, 0755);
	write_formats(tmpl);
	if (tfdir)
		tracefs_dir(tmpl, clock);
	put_file(tmpl, "saved_cmdlines", "100 cs_loadgen\n200 cs_irqgen\n", 29);
	put_file(tmpl, "kallsyms", kallsyms, strlen(kallsyms));
	for (i = 0; i < NCPU; i++) {
		snprintf(path, sizeof(path), tfdir ? "%s/per_cpu/cpu%d/trace_pipe_raw" :
			 "%s/cpu%d", tmpl, i);
		files[i] = strdup(path);
		memset(&cpus[i], 0, sizeof(cpus[i]));
		cpus[i].f = fopen(path, "w");
		if (!cpus[i].f)
			die("%s: %s", path, strerror(errno));
	}
	if (nset && !strncmp(scen, "boot", 4))
		boot_scenario();
	else if (nset)
		scenario();
	if (with_open_loss)
		open_loss();
	for (i = 0; i < NCPU; i++) {
		flush_page(&cpus[i]);
		fclose(cpus[i].f);
		chmod(files[i], 0644);
	}
	if (tfdir) {
		for (i = 0; i < NCPU; i++)
			free(files[i]);
		return 0;
	}
	/* inst8: the top buffer's CPUs, empty */
	for (i = 0; i < NCPU; i++) {
		char e[64];

		snprintf(e, sizeof(e), "empty%d", i);
		put_file(tmpl, e, "", 0);
		snprintf(path, sizeof(path), "%s/%s", tmpl, e);
		empty[i] = strdup(path);
	}
	fd = open(out, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		die("%s: %s", out, strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		static const char uname[] = "Linux guest 6.1.0-cs #1 SMP x86_64";
		/* int mult, int shift, u64 offset: ns = cycles * 1 >> 1 */
		static const unsigned char tsc2nsec[16] = { 1, 0, 0, 0, 1 };
		char ctext[160];
		int ck = clock_text(ctext, sizeof(ctext), clock);

		/* the writer's kallsyms step writes kptr_restrict if it may */
		if (geteuid() == 0 && (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
				       setresuid(65534, 65534, 65534)))
			_exit(3);
		snprintf(path, sizeof(path), "%s/kallsyms", tmpl);
		h = tracecmd_output_create_fd(fd);
		if (!h || tracecmd_output_set_trace_dir(h, tmpl) ||
		    tracecmd_output_set_kallsyms(h, path) || tracecmd_output_set_version(h, version) ||
		    (version == 7 && tracecmd_output_set_compression(h, "any")))
			_exit(4);
		tracecmd_set_quiet(h, true);
		tracecmd_set_out_clock(h, clock);
		if (tracecmd_output_write_headers(h, NULL) || tracecmd_write_cmdlines(h) ||
		    tracecmd_write_cpus(h, NCPU) ||
		    /* as trace-cmd record: the clock follows the CPU data offsets */
		    !tracecmd_add_option(h, TRACECMD_OPTION_TRACECLOCK, version == 7 ? ck + 1 : 0,
					 version == 7 ? ctext : NULL) ||
		    !tracecmd_add_option(h, TRACECMD_OPTION_UNAME, sizeof(uname), uname) ||
		    (ts_scale == 2 &&
		     !tracecmd_add_option(h, TRACECMD_OPTION_TSC2NSEC, sizeof(tsc2nsec), tsc2nsec)) ||
		    (instance_mode && (tracecmd_add_buffer_info(h, "cs", NCPU) < 0 ||
				       (version == 6 && tracecmd_write_buffer_info(h) < 0))) ||
		    tracecmd_write_options(h) ||
		    tracecmd_write_cpu_data(h, NCPU, instance_mode == 1 ? empty : files, NULL) ||
		    (instance_mode && tracecmd_write_cpu_data(h, NCPU, instance_mode == 3 ? empty :
							      files, "cs")))
			_exit(5);
		tracecmd_output_close(h);
		_exit(0);
	}
	close(fd);
	waitpid(pid, &status, 0);
	for (i = 0; i < NCPU; i++) {
		unlink(files[i]);
		free(files[i]);
		free(empty[i]);
	}
	snprintf(path, sizeof(path), "rm -rf '%s'", tmpl);
	if (system(path))
		fprintf(stderr, "cs-gentracedat: could not remove %s\n", tmpl);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "cs-gentracedat: libtracecmd's writer failed on %s (status %d)\n",
			scen, status);
		unlink(out);
		return 1;
	}
	return 0;
}

/* every cut of FILE through the pre-check; 0 when each one is refused as truncated */
static int cuts(const char *path)
{
	struct cs_tracedat_buffers bufs;
	unsigned long long n, trunc = 0;
	char err[512];
	struct stat st;
	char *buf;
	int fd, mfd, bad = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !(buf = malloc(st.st_size + 1)) ||
	    read(fd, buf, st.st_size) != st.st_size)
		die("%s: cannot read", path);
	close(fd);
	mfd = memfd_create("cs-cuts", MFD_CLOEXEC);
	if (mfd < 0 || write(mfd, buf, st.st_size) != st.st_size)
		die("memfd: %s", strerror(errno));
	if (cs_tracedat_extents(mfd, st.st_size, &bufs, err, sizeof(err)))
		die("%s whole: refused: %s", path, err);
	for (n = 1; n < (unsigned long long)st.st_size; n++) {
		int rc;

		if (ftruncate(mfd, n))
			die("ftruncate: %s", strerror(errno));
		rc = cs_tracedat_extents(mfd, n, &bufs, err, sizeof(err));
		if (rc == 12 && !strncmp(err, "trace.dat truncated: ", 21) && !strchr(err, '\n')) {
			trunc++;
		} else if (bad++ < 20) {
			printf("cut %llu: rc %d: %s\n", n, rc, err);
		}
		/* the cut bytes back, as the whole file had them */
		if (ftruncate(mfd, st.st_size) || pwrite(mfd, buf + n, st.st_size - n, n) !=
		    (ssize_t)(st.st_size - n))
			die("restore: %s", strerror(errno));
	}
	printf("cuts %llu truncated %llu\n", (unsigned long long)st.st_size - 1, trunc);
	free(buf);
	close(mfd);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	size_t i;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
			puts(scenarios[i]);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--seeds")) {
		char path[4096];

		for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s.dat", argv[2], scenarios[i]);
			if (write_one(scenarios[i], path, NULL))
				return 1;
		}
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--cuts"))
		return cuts(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "--tracefs"))
		return write_one(argv[2], NULL, argv[3]);
	if (argc != 3) {
		fprintf(stderr, "usage: cs-gentracedat SCENARIO FILE | --tracefs SCENARIO DIR | "
			"--list | --seeds DIR | --cuts FILE\n");
		return 2;
	}
	return write_one(argv[1], argv[2], NULL);
}
