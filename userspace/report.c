// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope report: latency and lock-wait histograms from a trace file
 * (chainscope record), in the layout of the live tools; -j JSON, --svg
 * one SVG histogram per chain drawn by gnuplot.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "chainscope.h"
#include "tracefile.h"

static struct env {
	const char *cmd;
	const char *file;
	const char *svg_dir;
	bool json;
	int units;
	char units_flag;
} env;

enum { OPT_SVG = 0x100 };

static const struct argp_option opts[] = {
	{ "json", 'j', NULL, 0, "One JSON object (the live tools' keys)", 0 },
	{ "svg", OPT_SVG, "DIR", 0, "Also one SVG histogram per chain into DIR (gnuplot)", 0 },
	CS_UNITS_OPTIONS,
	CS_SALVAGE_OPTION,
	{},
};

static const char doc[] =
"Latency histograms per chain and callback (notifier_return duration_ns)\n"
"and lock-wait histograms per chain (notifier_lock_wait), from a trace\n"
"file written by 'chainscope record'. No BPF, no root needed.\n"
"\v"
"Examples:\n"
"  chainscope report n.cstrace\n"
"  chainscope report -j n.cstrace > n.json   # input for 'chainscope diff'\n"
"  chainscope report --svg /tmp/svg n.cstrace\n"
"\n"
"Exit status: 0 success, 1 error (e.g. gnuplot failed), 2 usage error or\n"
"an unreadable/invalid trace file.\n";

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'j':
		env.json = true;
		return 0;
	case OPT_SVG:
		env.svg_dir = arg;
		return 0;
	case 'n':
	case 'u':
	case 'm':
		env.units = cs_parse_units(state, key, &env.units_flag);
		return 0;
	default:
		return cs_parse_file_arg(key, arg, state, &env.file);
	}
}

static const struct argp argp = {
	.options = opts,
	.parser = parse_arg,
	.args_doc = "FILE",
	.doc = doc,
};

/* one histogram: per (head, cb) for callbacks, per (head, op) for locks */
struct hist {
	__u64 head, key2;
	__u32 kind;
	__u32 slots[CS_MAX_SLOTS];
	__u64 count, sum_ns, max_ns, untimed, contended;
	__u64 stop, bad, err;
};

struct hist_set {
	struct hist *h;
	size_t n, cap;
};

static struct hist *hist_get(struct hist_set *s, __u64 head, __u64 key2, int kind)
{
	size_t i;

	/* linear: a trace has tens of (chain, callback) pairs, not thousands */
	for (i = 0; i < s->n; i++)
		if (s->h[i].head == head && s->h[i].key2 == key2)
			return &s->h[i];
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 32;
		struct hist *p = realloc(s->h, cap * sizeof(*p));

		if (!p)
			return NULL;
		s->h = p;
		s->cap = cap;
	}
	memset(&s->h[s->n], 0, sizeof(s->h[0]));
	s->h[s->n].head = head;
	s->h[s->n].key2 = key2;
	s->h[s->n].kind = kind;
	return &s->h[s->n++];
}

static void hist_add(struct hist *h, __u64 ns)
{
	unsigned int slot = log2_bucket(cs_ns_to_units(ns, env.units));

	if (slot >= CS_MAX_SLOTS)
		slot = CS_MAX_SLOTS - 1;
	h->slots[slot]++;
	h->count++;
	h->sum_ns += ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

static const struct cs_trace *trace;

static int cmp_hist(const void *a, const void *b)
{
	const struct hist *x = a, *y = b;
	char nx[256], ny[256];
	int r;

	r = strcmp(cs_trace_sym_format(trace, x->head, nx, sizeof(nx)),
		   cs_trace_sym_format(trace, y->head, ny, sizeof(ny)));
	if (r)
		return r;
	if (x->key2 == y->key2)
		return 0;
	if (x->key2 < 2 && y->key2 < 2)	/* lock ops */
		return x->key2 < y->key2 ? -1 : 1;
	r = strcmp(cs_trace_sym_format(trace, x->key2, nx, sizeof(nx)),
		   cs_trace_sym_format(trace, y->key2, ny, sizeof(ny)));
	return r ? r : (x->key2 < y->key2 ? -1 : 1);
}

static void json_sym(json_object *o, const char *field, __u64 addr)
{
	const struct cs_trace_sym *s = cs_trace_sym_find(trace, addr);
	char name[256], key[64];

	json_object_object_add(o, field, json_object_new_string(
		cs_trace_sym_format(trace, addr, name, sizeof(name))));
	snprintf(key, sizeof(key), "%s_addr", field);
	json_object_object_add(o, key, cs_json_addr(addr));
	if (s && s->module) {
		snprintf(key, sizeof(key), "%s_module", field);
		json_object_object_add(o, key, json_object_new_string(s->module));
	}
}

/* gnuplot: one clustered bar chart per chain, one bar group per log2 bucket */
static int write_svg(const struct hist_set *cbs, size_t from, size_t to)
{
	char head[256], cb[256], dat[4096], gp[4096], svg[4096], *p;
	int last = -1, i, status;
	size_t k;
	FILE *f;
	pid_t pid;

	cs_trace_sym_format(trace, cbs->h[from].head, head, sizeof(head));
	for (p = head; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			*p = '_';
	snprintf(svg, sizeof(svg), "%s/%s.svg", env.svg_dir, head);
	snprintf(dat, sizeof(dat), "%s/.%s.dat", env.svg_dir, head);
	snprintf(gp, sizeof(gp), "%s/.%s.gp", env.svg_dir, head);
	for (k = from; k < to; k++) {
		i = log2_hist_last(cbs->h[k].slots, CS_MAX_SLOTS);
		if (i > last)
			last = i;
	}
	f = fopen(dat, "we");
	if (!f)
		goto io_err;
	fprintf(f, "bucket");
	for (k = from; k < to; k++)
		fprintf(f, "\t\"%s\"", cs_trace_sym_format(trace, cbs->h[k].key2, cb,
							 sizeof(cb)));
	fprintf(f, "\n");
	for (i = 0; i <= last; i++) {
		unsigned long long lo, hi;

		log2_bucket_range(i, &lo, &hi);
		fprintf(f, "\"%llu-%llu\"", lo, hi);
		for (k = from; k < to; k++)
			fprintf(f, "\t%u", cbs->h[k].slots[i]);
		fprintf(f, "\n");
	}
	if (fclose(f))
		goto io_err;
	f = fopen(gp, "we");
	if (!f)
		goto io_err;
	cs_trace_sym_format(trace, cbs->h[from].head, cb, sizeof(cb));
	fprintf(f,
		"set terminal svg size 900,500 dynamic enhanced font 'sans,11'\n"
		"set output '%s'\n"
		"set title \"%s (%s): callback latency\" noenhanced\n"
		"set xlabel '%s (log2 buckets)'\n"
		"set ylabel 'calls'\n"
		"set style data histograms\n"
		"set style histogram clustered gap 1\n"
		"set style fill solid 0.8 border -1\n"
		"set xtics rotate by -45 noenhanced\n"
		"set key top right noenhanced\n"
		"set yrange [0:*]\n"
		"set grid ytics\n"
		"plot for [c=2:%zu] '%s' using c:xtic(1) title columnheader(c)\n",
		svg, cb, cs_kind_name(cbs->h[from].kind), cs_units_name(env.units),
		to - from + 1, dat);
	if (fclose(f))
		goto io_err;
	pid = fork();
	if (pid == 0) {
		execlp("gnuplot", "gnuplot", gp, (char *)NULL);
		fprintf(stderr, "%s: error: cannot run gnuplot: %s (install gnuplot-nox)\n",
			env.cmd, strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		warn("%s: error: gnuplot failed for %s (script %s)\n", env.cmd, svg, gp);
		return -1;
	}
	unlink(dat);
	unlink(gp);
	if (!env.json)
		printf("wrote %s\n", svg);
	return 0;
io_err:
	warn("%s: error: writing into %s: %s\n", env.cmd, env.svg_dir, strerror(errno));
	return -1;
}

int cmd_report(int argc, char **argv)
{
	static const char *const op_names[] = { "read", "write" };
	const char *unit;
	struct hist_set cbs = {}, locks = {};
	struct cs_trace t;
	struct cs_summary s;
	char err[512], head[256], cb[256];
	size_t i, from;
	int rc = CS_EXIT_OK;

	memset(&env, 0, sizeof(env));
	env.cmd = argv[0];
	env.units = CS_UNITS_US;
	cs_parse_args(&argp, argc, argv, &env);
	unit = cs_units_suffix(env.units);

	if (cs_trace_read(env.file, &t, err, sizeof(err))) {
		warn("%s: error: %s: %s\n", env.cmd, env.file, err);
		return CS_EXIT_USAGE;
	}
	trace = &t;
	for (i = 0; i < t.nr_events; i++) {
		const struct cs_rec_event *e = &t.events[i];
		struct hist *h;

		if (e->type == CS_REC_RETURN) {
			h = hist_get(&cbs, e->head, e->cb, e->kind);
			if (!h)
				goto nomem;
			if (e->duration_ns) {
				hist_add(h, e->duration_ns);
			} else {
				h->count++;
				h->untimed++;
			}
			if (e->ret & CS_NOTIFY_STOP_MASK) {
				int plain = e->ret & ~CS_NOTIFY_STOP_MASK;

				if (e->ret == CS_NOTIFY_BAD)
					h->bad++;
				else if (plain > CS_NOTIFY_OK)
					h->err++;
				else
					h->stop++;
			}
		} else if (e->type == CS_REC_LOCK_WAIT) {
			h = hist_get(&locks, e->head, e->lock_op, e->kind);
			if (!h)
				goto nomem;
			hist_add(h, e->duration_ns);
			if (e->duration_ns)
				h->contended++;
		}
	}
	qsort(cbs.h, cbs.n, sizeof(*cbs.h), cmp_hist);
	qsort(locks.h, locks.n, sizeof(*locks.h), cmp_hist);

	if (env.json) {
		json_object *root = json_object_new_object(), *arr, *o;

		json_object_object_add(root, "type", json_object_new_string("report"));
		json_object_object_add(root, "file", json_object_new_string(env.file));
		json_object_object_add(root, "kernel", json_object_new_string(t.hdr.release));
		json_object_object_add(root, "boot_id", json_object_new_string(t.hdr.boot_id));
		json_object_object_add(root, "duration_ns",
				       json_object_new_uint64(t.end_ns - t.hdr.start_ns));
		json_object_object_add(root, "units",
				       json_object_new_string(cs_units_name(env.units)));
		json_object_object_add(root, "events", json_object_new_uint64(t.nr_events));
		json_object_object_add(root, "lost", json_object_new_uint64(t.lost));
		json_object_object_add(root, "missed", json_object_new_uint64(t.missed));
		arr = json_object_new_array();
		for (i = 0; i < cbs.n; i++) {
			const struct hist *h = &cbs.h[i];

			o = json_object_new_object();
			json_sym(o, "chain", h->head);
			json_object_object_add(o, "kind", json_object_new_string(cs_kind_name(h->kind)));
			json_sym(o, "callback", h->key2);
			cs_summarize(h->slots, h->count, h->max_ns, env.units, &s);
			cs_json_summary(o, &s, h->sum_ns, h->max_ns, env.units);
			json_object_object_add(o, "stop", json_object_new_uint64(h->stop));
			json_object_object_add(o, "bad", json_object_new_uint64(h->bad));
			json_object_object_add(o, "errno", json_object_new_uint64(h->err));
			json_object_object_add(o, "untimed", json_object_new_uint64(h->untimed));
			json_object_object_add(o, "histogram", cs_json_hist(h->slots, CS_MAX_SLOTS));
			json_object_array_add(arr, o);
		}
		json_object_object_add(root, "callbacks", arr);
		arr = json_object_new_array();
		for (i = 0; i < locks.n; i++) {
			const struct hist *h = &locks.h[i];

			o = json_object_new_object();
			json_sym(o, "chain", h->head);
			json_object_object_add(o, "kind", json_object_new_string(cs_kind_name(h->kind)));
			json_object_object_add(o, "op", json_object_new_string(op_names[h->key2 & 1]));
			cs_summarize(h->slots, h->count, h->max_ns, env.units, &s);
			cs_json_summary(o, &s, h->sum_ns, h->max_ns, env.units);
			json_object_object_add(o, "contended", json_object_new_uint64(h->contended));
			json_object_object_add(o, "histogram", cs_json_hist(h->slots, CS_MAX_SLOTS));
			json_object_array_add(arr, o);
		}
		json_object_object_add(root, "locks", arr);
		cs_json_print(root);
	} else {
		printf("trace %s: kernel %s, boot %s, %.3f s, %zu events, lost %llu, missed %llu\n",
		       env.file, t.hdr.release, t.hdr.boot_id,
		       (t.end_ns - t.hdr.start_ns) / 1e9, t.nr_events,
		       (unsigned long long)t.lost, (unsigned long long)t.missed);
		if (t.lost)
			printf("WARNING: %llu events were lost while recording\n",
			       (unsigned long long)t.lost);
		if (!cbs.n && !locks.n)
			printf("no notifier callbacks ran\n");
		for (i = 0; i < cbs.n; i++) {
			const struct hist *h = &cbs.h[i];

			cs_summarize(h->slots, h->count, h->max_ns, env.units, &s);
			printf("\nchain: %s (%s) callback: %s",
			       cs_trace_sym_format(&t, h->head, head, sizeof(head)),
			       cs_kind_name(h->kind),
			       cs_trace_sym_format(&t, h->key2, cb, sizeof(cb)));
			printf("  count=%llu max=%llu%s p50~%llu%s p99~%llu%s stop=%llu bad=%llu errno=%llu\n",
			       s.count, s.max, unit, s.p50, unit, s.p99, unit,
			       (unsigned long long)h->stop, (unsigned long long)h->bad,
			       (unsigned long long)h->err);
			if (h->untimed)
				printf("  (%llu calls untimed: notifier_return was enabled while they ran)\n",
				       (unsigned long long)h->untimed);
			print_log2_hist(h->slots, CS_MAX_SLOTS, cs_units_name(env.units));
		}
		for (i = 0; i < locks.n; i++) {
			const struct hist *h = &locks.h[i];

			cs_summarize(h->slots, h->count, h->max_ns, env.units, &s);
			printf("\nchain: %s (%s) op: %s  count=%llu contended=%llu max=%llu%s p50~%llu%s p99~%llu%s\n",
			       cs_trace_sym_format(&t, h->head, head, sizeof(head)),
			       cs_kind_name(h->kind), op_names[h->key2 & 1], s.count,
			       (unsigned long long)h->contended, s.max, unit, s.p50, unit,
			       s.p99, unit);
			print_log2_hist(h->slots, CS_MAX_SLOTS, cs_units_name(env.units));
		}
	}
	fflush(stdout);

	if (env.svg_dir) {
		if (mkdir(env.svg_dir, 0755) && errno != EEXIST) {
			warn("%s: error: cannot create %s: %s\n", env.cmd, env.svg_dir,
			     strerror(errno));
			rc = CS_EXIT_ERROR;
			goto out;
		}
		/* cbs is sorted by chain: one SVG per run of equal heads */
		for (from = 0; from < cbs.n; from = i) {
			for (i = from; i < cbs.n && cbs.h[i].head == cbs.h[from].head; i++)
				;
			if (write_svg(&cbs, from, i))
				rc = CS_EXIT_ERROR;
		}
	}
out:
	free(cbs.h);
	free(locks.h);
	cs_trace_free(&t);
	return rc;
nomem:
	warn("%s: error: out of memory\n", env.cmd);
	rc = CS_EXIT_ERROR;
	goto out;
}
