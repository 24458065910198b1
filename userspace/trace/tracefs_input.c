// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * report's and check's --tracefs [DIR] (tracedat.h: cs_tracefs_read()):
 * the live ftrace ring buffer of DIR, /sys/kernel/tracing or an
 * instance under it, read and consumed as trace-cmd extract does, with
 * libtracefs: tracefs_instance_alloc(), tracefs_event_is_enabled(),
 * tracefs_local_events() (the formats), tracefs_get_clock() and
 * tracefs_iterate_raw_events() (every CPU's trace_pipe_raw, merged in
 * time order, a page's missed events on its first record), which
 * also parses /proc/kallsyms for the names. The records go
 * through the trace.dat's conversion (tracedat.c, cs_tepconv_*), in this
 * process: the input is the running kernel's, read with the privileges
 * that takes, not a file someone handed over.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <tracefs.h>

#include "chainscope.h"
#include "safestr.h"
#include "tracedat.h"
#include "tracefile.h"

/* what the kernel's kallsyms may hold: 64 MiB */
#define KALLSYMS_MAX (64u << 20)

/* 0, or errno of what makes PATH no directory (ENOTDIR) or unreadable */
static int probe(const char *dir, const char *name, bool want_dir)
{
	char p[PATH_MAX];
	struct stat st;

	if (snprintf(p, sizeof(p), "%s/%s", dir, name) >= (int)sizeof(p))
		return ENAMETOOLONG;
	if (stat(p, &st))
		return errno;
	if (want_dir != !!S_ISDIR(st.st_mode))
		return want_dir ? ENOTDIR : EISDIR;
	return 0;
}

/* the caller's line names DIR: what is relative to it */
static int no_priv(const char *what, int e, char *err, size_t errlen)
{
	snprintf(err, errlen, "--tracefs: cannot read %s: %s: reading (and consuming) "
		 "the ring buffer takes root (or read access to tracefs)", what, strerror(e));
	return CS_EXIT_NO_PRIV;
}

/*
 * CHAINSCOPE_KALLSYMS=PATH: names from PATH, not from the /proc/kallsyms
 * libtracefs parses into every tep it fills (the host tests' made-up
 * tracefs, whose addresses this machine's kernel has too): a tep of its
 * own, asked through the function resolver
 */
static struct tep_handle *read_kallsyms(const char *path)
{
	size_t len = 0, cap = 1 << 20;
	struct tep_handle *k = NULL;
	char *buf = malloc(cap + 1);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	while (fd >= 0 && buf && (n = read(fd, buf + len, cap - len)) > 0) {
		len += n;
		if (len == cap) {
			char *p = cap < KALLSYMS_MAX ? realloc(buf, cap * 2 + 1) : NULL;

			if (!p)
				break;
			buf = p;
			cap *= 2;
		}
	}
	if (fd >= 0)
		close(fd);
	if (buf) {
		buf[len] = 0;
		k = tep_alloc();
		if (k && tep_parse_kallsyms(k, buf)) {
			tep_free(k);
			k = NULL;
		}
	}
	free(buf);
	return k;
}

static char *ksym_resolve(void *priv, unsigned long long *addrp, char **modp)
{
	const char *name = NULL;
	unsigned long long start = 0;
	unsigned long size = 0;

	if (!tep_find_function_info(priv, *addrp, &name, &start, &size) || !name)
		return NULL;
	*addrp = start;
	*modp = NULL;
	return (char *)name;
}

static int on_event(struct tep_event *ev, struct tep_record *r, int cpu, void *data)
{
	(void)ev;
	return cs_tepconv_record(data, r, cpu) ? 1 : 0;
}

/*
 * DIR resolved, checked to be a tracefs top directory or instance, and
 * its instance allocated: 0, or an exit code with err set.
 */
static int open_dir(const char *dir, char *rp, struct tracefs_instance **inst,
		    char *err, size_t errlen)
{
	char up[PATH_MAX], top[PATH_MAX], name[PATH_MAX];
	static const char *const need[] = { "per_cpu", "events", "trace_clock" };
	size_t i;
	int e;

	if (!realpath(dir, rp)) {
		if (errno == EACCES)
			return no_priv("it", errno, err, errlen);
		snprintf(err, errlen, "--tracefs: %s", strerror(errno));
		return CS_EXIT_USAGE;
	}
	for (i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		e = probe(rp, need[i], i < 2);
		if (e == EACCES || e == EPERM)
			return no_priv(need[i], e, err, errlen);
		if (e) {
			snprintf(err, errlen, "--tracefs: not a tracefs directory or instance "
				 "(%s: %s); tracefs is mounted at /sys/kernel/tracing, its "
				 "instances under instances/", need[i], strerror(e));
			return CS_EXIT_USAGE;
		}
	}
	/* an instance is DIR/instances/NAME of a top directory */
	snprintf(up, sizeof(up), "%s", rp);
	snprintf(name, sizeof(name), "%s", basename(up));
	snprintf(up, sizeof(up), "%s", rp);
	snprintf(top, sizeof(top), "%s", dirname(up));
	if (!strcmp(basename(top), "instances")) {
		snprintf(up, sizeof(up), "%s", rp);
		snprintf(top, sizeof(top), "%s", dirname(dirname(up)));
		*inst = tracefs_instance_alloc(top, name);
	} else {
		*inst = tracefs_instance_alloc(rp, NULL);
	}
	if (!*inst) {
		snprintf(err, errlen, "--tracefs: libtracefs does not take it as a tracefs "
			 "instance");
		return CS_EXIT_USAGE;
	}
	return 0;
}

/* the kernel's notifier events, and at least one enabled in DIR */
static int check_events(const char *rp, struct tracefs_instance *inst, char *err,
			size_t errlen)
{
	char d[CS_SAFE_STR_LEN(256)];
	int e = probe(rp, "events/notifier", true);

	cs_safe_str(rp, d, sizeof(d));
	if (e == EACCES || e == EPERM)
		return no_priv("events/notifier", e, err, errlen);
	if (e) {
		snprintf(err, errlen, "--tracefs: the kernel has no notifier:* events "
			 "(upstream's three came with 6.4, the rest with chainscope's series)");
		return CS_EXIT_NO_TP;
	}
	switch (tracefs_event_is_enabled(inst, "notifier", NULL)) {
	case TRACEFS_ALL_ENABLED:
	case TRACEFS_SOME_ENABLED:
		return 0;
	case TRACEFS_ALL_DISABLED:
		snprintf(err, errlen, "--tracefs: no notifier:* event is enabled there, so its "
			 "ring buffer holds none: echo 1 > %s/events/notifier/enable, then "
			 "run what you trace", d);
		return CS_EXIT_TRACEFS_OFF;
	default:
		if (errno == EACCES || errno == EPERM)
			return no_priv("events/notifier/*/enable", errno, err, errlen);
		snprintf(err, errlen, "--tracefs: cannot tell whether the notifier:* events "
			 "are enabled (events/notifier/*/enable)");
		return CS_EXIT_TRACEDAT;
	}
}

int cs_tracefs_read(const char *dir, struct cs_trace *t, struct cs_tracedat_info *info,
		    char *err, size_t errlen)
{
	char rp[PATH_MAX], pipe0[PATH_MAX + 32];
	struct tracefs_instance *inst = NULL;
	struct tep_handle *tep = NULL;
	struct cs_tepconv *c = NULL;
	struct tep_handle *ksyms = NULL;
	const char *kpath;
	char *clock = NULL;
	struct utsname u;
	void *img = NULL;
	size_t len = 0;
	int rc, fd;

	memset(t, 0, sizeof(*t));
	memset(info, 0, sizeof(*info));
	err[0] = 0;
	tracefs_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	rc = open_dir(dir, rp, &inst, err, errlen);
	if (!rc)
		rc = check_events(rp, inst, err, errlen);
	if (rc)
		goto out;
	/* consuming reads need root: say so before parsing a thousand formats */
	snprintf(pipe0, sizeof(pipe0), "%s/per_cpu/cpu0/trace_pipe_raw", rp);
	fd = open(pipe0, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && (errno == EACCES || errno == EPERM)) {
		rc = no_priv("per_cpu/cpu0/trace_pipe_raw", errno, err, errlen);
		goto out;
	}
	if (fd >= 0)
		close(fd);
	/*
	 * Every format, so that no page's missed events hide on another
	 * event. (libtracefs 1.6.4 parses /proc/kallsyms into it as well.)
	 */
	tep = tep_alloc();
	if (tep) {
		/* this machine's layout: the ring buffer is its kernel's */
		tep_set_long_size(tep, sizeof(long));
		tep_set_page_size(tep, getpagesize());
		tep_set_file_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
		tep_set_local_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	}
	if (tep && tracefs_fill_local_events(tracefs_instance_get_trace_dir(inst), tep, NULL)) {
		tep_free(tep);
		tep = NULL;
	}
	if (!tep) {
		snprintf(err, errlen, "--tracefs: libtracefs cannot read the event formats "
			 "(events/*/*/format)");
		rc = CS_EXIT_TRACEDAT;
		goto out;
	}
	kpath = secure_getenv("CHAINSCOPE_KALLSYMS");
	if (kpath) {
		ksyms = read_kallsyms(kpath);
		if (!ksyms || tep_set_function_resolver(tep, ksym_resolve, ksyms)) {
			snprintf(err, errlen, "--tracefs: cannot read CHAINSCOPE_KALLSYMS");
			rc = CS_EXIT_TRACEDAT;
			goto out;
		}
	}
	clock = tracefs_get_clock(inst);
	c = cs_tepconv_new(info, err, errlen);
	if (!c) {
		rc = CS_EXIT_TRACEDAT;
		goto out;
	}
	info->flags |= CS_TRACEDAT_LIVE;
	rc = cs_tepconv_setup(c, tep, clock, "no notifier:* event format under events/");
	if (rc)
		goto out;
	errno = 0;
	if (tracefs_iterate_raw_events(tep, inst, NULL, 0, on_event, c) < 0 && !cs_tepconv_rc(c)) {
		if (errno == EACCES || errno == EPERM) {
			rc = no_priv("per_cpu/cpu*/trace_pipe_raw", errno, err, errlen);
			goto out;
		}
		snprintf(err, errlen, "--tracefs: libtracefs cannot read the ring buffer "
			 "(per_cpu/cpu*/trace_pipe_raw)%s%s", errno ? ": " : "",
			 errno ? strerror(errno) : "");
		rc = CS_EXIT_TRACEDAT;
		goto out;
	}
	rc = cs_tepconv_image(c, uname(&u) ? "" : u.release, &img, &len);
	if (rc)
		goto out;
	if (cs_trace_parse(img, len, t, err, errlen)) {
		free(img);
		rc = CS_EXIT_TRACEDAT;
		goto out;
	}
	t->buf = img;
	t->len = len;
out:
	cs_tepconv_free(c);
	free(clock);
	if (tep)
		tep_free(tep);
	if (ksyms)
		tep_free(ksyms);
	tracefs_instance_free(inst);
	return rc;
}
