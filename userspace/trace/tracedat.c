// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * trace.dat input: see tracedat.h. The libtracecmd calls are
 * tracecmd_open_fd(), tracecmd_get_tep(), tracecmd_iterate_events(),
 * tracecmd_get_trace_clock(), tracecmd_get_uname(),
 * tracecmd_get_in_file_version() and tracecmd_close(); libtraceevent's
 * tep_find_event_by_name(), tep_find_field(), tep_find_common_field(),
 * tep_data_type(), tep_read_number() and tep_find_function_info().
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

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

/* sanitizers reserve terabytes of address space: no RLIMIT_AS under them */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CS_NO_AS_LIMIT 1
#endif
#endif

bool cs_tracedat_magic(const void *buf, size_t len)
{
	static const unsigned char m[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

	return len >= sizeof(m) && !memcmp(buf, m, sizeof(m));
}

/* --- the events, by name ------------------------------------------------- */

enum { F_CB, F_HEAD, F_NB, F_PRIO, F_KIND, F_ERR, F_VAL, F_RET, F_DUR, F_NR_CALLS,
       F_NR_TO_CALL, F_TYPE, F_FLAGS, F_PID, F_PREEMPT, F_MAX };
static const char *const field_names[F_MAX] = {
	"cb", "head", "nb", "priority", "kind", "err", "val", "ret", "duration_ns",
	"nr_calls", "nr_to_call", "type", "common_flags", "common_pid",
	"common_preempt_count",
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

struct conv {
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
static int field(struct conv *c, const struct ev *v, int i, const struct tep_record *r,
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

static int on_record(struct tracecmd_input *h, struct tep_record *r, int cpu, void *data)
{
	struct conv *c = data;
	struct cs_rec_event e = { 0 };
	__u64 v[F_MAX];
	const struct ev *ev = NULL;
	int id, i;

	(void)h;
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
	if (v[F_KIND] > 0xff || v[F_TYPE] > 0xff)
		return fail(c, CS_EXIT_TRACEDAT, 0, "event %s at %llu: kind %llu or type %llu "
			    "out of range", event_names[ev - c->ev].name,
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
	struct conv *c;
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

static int build_image(struct conv *c, const char *release, void **img, size_t *len)
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

static int check_clock(struct conv *c, const char *clock)
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

int cs_tracedat_convert(int fd, void **img, size_t *len, struct cs_tracedat_info *info,
			char *err, size_t errlen)
{
	struct conv c = { .info = info };
	struct tracecmd_input *h;
	char release[96];
	size_t i, j;

	memset(info, 0, sizeof(*info));
	*img = NULL;
	*len = 0;
	cs_conv_init(&c.base, CS_EXIT_TRACEDAT, err, errlen);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open_fd(fd, TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!h) {
		close(fd);
		return fail(&c, CS_EXIT_TRACEDAT, 0, "libtracecmd cannot read this trace.dat "
			    "(tracecmd_open_fd failed)");
	}
	c.tep = tracecmd_get_tep(h);
	info->file_version = tracecmd_get_in_file_version(h);
	if (!c.tep) {
		fail(&c, CS_EXIT_TRACEDAT, 0, "trace.dat without event formats");
		goto out;
	}
	if (tep_get_long_size(c.tep) != 8 || tep_is_file_bigendian(c.tep)) {
		fail(&c, CS_EXIT_TRACEDAT, 0, "trace.dat of a %d-byte-long %s-endian kernel: "
		     "only x86-64's layout is read", tep_get_long_size(c.tep),
		     tep_is_file_bigendian(c.tep) ? "big" : "little");
		goto out;
	}
	if (check_clock(&c, tracecmd_get_trace_clock(h)))
		goto out;
	for (i = 0; i < NR_EVENTS; i++) {
		struct ev *v = &c.ev[i];

		v->type = event_names[i].type;
		v->e = tep_find_event_by_name(c.tep, "notifier", event_names[i].name);
		if (!v->e)
			continue;
		info->nr_formats++;
		for (j = 0; j < F_MAX; j++) {
			v->f[j] = tep_find_field(v->e, field_names[j]);
			if (!v->f[j])
				v->f[j] = tep_find_common_field(v->e, field_names[j]);
		}
		if (v->type == CS_REC_STOP)
			info->flags |= CS_TRACEDAT_HAS_STOP;
		if (v->type == CS_REC_RETURN && v->f[F_DUR])
			info->flags |= CS_TRACEDAT_HAS_DURATION;
		if (!v->f[F_PID] || !v->f[F_FLAGS]) {
			fail(&c, CS_EXIT_TRACEDAT, 0, "event notifier:%s has no common_pid or "
			     "common_flags in its format", event_names[i].name);
			goto out;
		}
	}
	if (!info->nr_formats) {
		fail(&c, CS_EXIT_TRACEDAT, 0, "no notifier:* event format in the file (was it "
		     "recorded with trace-cmd record -e notifier?)");
		goto out;
	}
	if (c.ev[4].e && !c.ev[4].f[F_HEAD])
		info->flags |= CS_TRACEDAT_STOCK;
	c.base.flags = (info->flags & CS_TRACEDAT_STOCK ? CS_CONV_STOCK : 0) |
		       (info->flags & CS_TRACEDAT_HAS_DURATION ? CS_CONV_HAS_DURATION : 0) |
		       (info->flags & CS_TRACEDAT_HAS_STOP ? CS_CONV_HAS_STOP : 0);
	if (tracecmd_iterate_events(h, NULL, 0, on_record, &c) < 0 && !c.base.rc)
		fail(&c, CS_EXIT_TRACEDAT, 0, "libtracecmd failed reading the records");
	info->nr_events = c.base.nr_events;
	info->nr_loss = c.base.nr_loss;
	info->nr_timed = c.base.nr_timed;
	info->nr_untimed = c.base.nr_untimed;
	info->nr_stops = c.base.nr_stops;
	if (c.base.rc)
		goto out;
	release_of(tracecmd_get_uname(h), release, sizeof(release));
	build_image(&c, release, img, len);
out:
	tracecmd_close(h);
	cs_conv_free(&c.base);
	return c.base.rc;
}

/* --- the parser process -------------------------------------------------- */

/* what the child sends: this, then err (rc != 0) or the image */
struct msg {
	__s32 rc;
	__u32 pad;
	__u64 len;
	struct cs_tracedat_info info;
};

static int write_all(int fd, const void *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p = (const char *)p + w;
		n -= w;
	}
	return 0;
}

/* read up to n bytes; the count read */
static size_t read_all(int fd, void *p, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)p + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += r;
	}
	return got;
}

/*
 * No privilege left: as root, nobody (65534) without groups; every
 * capability set emptied; no_new_privs. Then limits: memory, CPU time,
 * no file written, no core, few descriptors.
 */
static int confine(__u64 file_size, pid_t parent)
{
	static const int deadly[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGXCPU };
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = { { 0 } };
	const char *cpu = secure_getenv("CHAINSCOPE_TRACEDAT_CPU");
	__u64 as = (1ULL << 30) + 64 * file_size;
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	struct rlimit rl;
	size_t i;

	/*
	 * Nothing to say on stderr (the answer goes through the pipe), and
	 * a write there would break RLIMIT_FSIZE when it is a file.
	 */
	if (null < 0 || dup2(null, STDERR_FILENO) < 0 || dup2(null, STDOUT_FILENO) < 0)
		return -1;
	close(null);
	/* the library's crash is this process's death by that signal */
	for (i = 0; i < sizeof(deadly) / sizeof(deadly[0]); i++)
		signal(deadly[i], SIG_DFL);
	if (geteuid() == 0 &&
	    (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
	     setresuid(65534, 65534, 65534)))
		return -1;
	if (syscall(SYS_capset, &hdr, data) || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	/* after the uid change, which clears it: die with chainscope */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || prctl(PR_SET_DUMPABLE, 0) ||
	    getppid() != parent)
		return -1;
	rl.rlim_cur = rl.rlim_max = as > (16ULL << 30) ? (16ULL << 30) : as;
#ifndef CS_NO_AS_LIMIT
	if (setrlimit(RLIMIT_AS, &rl))
		return -1;
#endif
	/*
	 * CPU: 10 s and 1 s per 8 MiB of file (libtraceevent's kbuffer
	 * loops forever on some crafted pages): SIGXCPU, then SIGKILL a
	 * second later. CHAINSCOPE_TRACEDAT_CPU=S overrides (tests).
	 */
	rl.rlim_cur = cpu && atoi(cpu) > 0 ? (rlim_t)atoi(cpu) : 10 + file_size / (8u << 20);
	rl.rlim_max = rl.rlim_cur + 1;
	if (setrlimit(RLIMIT_CPU, &rl))
		return -1;
	rl.rlim_cur = rl.rlim_max = 0;
	if (setrlimit(RLIMIT_FSIZE, &rl) || setrlimit(RLIMIT_CORE, &rl))
		return -1;
	rl.rlim_cur = rl.rlim_max = 32;
	return setrlimit(RLIMIT_NOFILE, &rl);
}

static void child(int fd, int out, __u64 file_size, pid_t parent)
{
	struct msg m = { 0 };
	char err[512] = "";
	void *img = NULL;
	size_t len = 0;

	if (confine(file_size, parent)) {
		m.rc = CS_EXIT_TRACEDAT;
		snprintf(err, sizeof(err), "cannot confine the parser process: %s",
			 strerror(errno));
	} else {
		m.rc = cs_tracedat_convert(fd, &img, &len, &m.info, err, sizeof(err));
	}
	m.len = m.rc ? strlen(err) : len;
	if (write_all(out, &m, sizeof(m)) ||
	    write_all(out, m.rc ? (void *)err : img, m.len))
		_exit(1);
	_exit(0);
}

int cs_tracedat_read(int fd, struct cs_trace *t, struct cs_tracedat_info *info,
		     char *err, size_t errlen)
{
	struct stat st;
	struct msg m;
	int p[2], status, rc;
	void *buf = NULL;
	pid_t pid, parent;
	size_t got;

	memset(t, 0, sizeof(*t));
	memset(info, 0, sizeof(*info));
	if (fstat(fd, &st) || pipe2(p, O_CLOEXEC)) {
		snprintf(err, errlen, "cannot read: %s", strerror(errno));
		close(fd);
		return CS_EXIT_TRACEDAT;
	}
	fflush(NULL);
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "cannot start the parser process: %s", strerror(errno));
		close(fd);
		close(p[0]);
		close(p[1]);
		return CS_EXIT_TRACEDAT;
	}
	if (!pid) {
		close(p[0]);
		/* CPU time by what the file holds: a sparse file is no longer */
		child(fd, p[1], (__u64)st.st_blocks * 512 < (__u64)st.st_size ?
		      (__u64)st.st_blocks * 512 : (__u64)st.st_size, parent);
	}
	close(fd);
	close(p[1]);
	got = read_all(p[0], &m, sizeof(m));
	rc = CS_EXIT_TRACEDAT_CRASH;
	if (got == sizeof(m) && m.rc == 0 && m.len >= CS_TRACE_HEADER_SIZE &&
	    m.len <= 256 * (__u64)st.st_size + (1u << 20)) {
		buf = aligned_alloc(8, (m.len + 7) & ~(__u64)7);
		if (buf && read_all(p[0], buf, m.len) == m.len)
			rc = 0;
		else if (!buf)
			snprintf(err, errlen, "out of memory for the converted trace");
	} else if (got == sizeof(m) && m.rc > 0 && m.len < errlen) {
		if (read_all(p[0], err, m.len) == m.len) {
			err[m.len] = 0;
			rc = m.rc;
		}
	}
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status)) {
		snprintf(err, errlen, "the trace.dat parser (libtracecmd, in a child process) "
			 "died of signal %d (%s): the file is truncated, malformed or hostile",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
		rc = CS_EXIT_TRACEDAT_CRASH;
	} else if (rc == CS_EXIT_TRACEDAT_CRASH || (WIFEXITED(status) && WEXITSTATUS(status))) {
		if (!err[0] || rc == 0 || rc == CS_EXIT_TRACEDAT_CRASH)
			snprintf(err, errlen, "the trace.dat parser process ended without "
				 "an answer (exit %d)", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		rc = CS_EXIT_TRACEDAT_CRASH;
	}
	if (rc) {
		free(buf);
		return rc;
	}
	*info = m.info;
	info->clock[sizeof(info->clock) - 1] = 0;
	if (cs_trace_parse(buf, m.len, t, err, errlen)) {
		free(buf);
		return CS_EXIT_TRACEDAT;
	}
	t->buf = buf;
	t->len = m.len;
	return 0;
}
