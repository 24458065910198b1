// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope report --svg DIR: the files' names, and per chain its
 * callbacks' latency histogram (svg.c) and its timeline (svg_timeline.c),
 * each file opened under the directory's descriptor (outfile.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chainscope.h"
#include "outfile.h"
#include "report_int.h"

#define SVG_NAME_MAX 200	/* of the chain part, well under NAME_MAX */
/* a file name: the chain part, "--0x" and 16 hex digits, ".timeline.svg" */
#define SVG_FILE_LEN (SVG_NAME_MAX + sizeof("--0x") - 1 + 16 + sizeof(".timeline.svg"))
_Static_assert(SVG_FILE_LEN <= 255, "an SVG file name fits in NAME_MAX");

/*
 * SVG file names, a function of the chain alone (never of the order the
 * chains come in), and no two alike:
 *
 *   CHAIN.svg          the chain's name with every byte outside
 *                      [A-Za-z0-9_] written as -HH ("my.chain" is
 *                      my-2echain.svg, "my_chain" my_chain.svg)
 *   CHAIN--0xHEAD.svg  when another chain has the same name (static
 *                      symbols of two modules), or the name would be
 *                      longer than SVG_NAME_MAX bytes (cut there)
 *
 * An escape is '-' and two hex digits, so "--" never appears in the
 * first form: the two forms cannot meet, and the first is one-to-one.
 */
struct svg_name {
	UT_hash_handle hh;
	__u64 head;		/* a chain with this name */
	bool shared;		/* by more than one chain */
	char name[];		/* escaped, NUL-terminated */
};

static void svg_escape(const struct cs_sym *chain, char *buf, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	char shown[CS_SYMSTR_LEN];
	const unsigned char *p;
	size_t i = 0;

	p = (const unsigned char *)cs_sym_str(chain, shown, sizeof(shown));
	for (; *p && i + 4 < len; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_') {
			buf[i++] = *p;
		} else {
			buf[i++] = '-';
			buf[i++] = hex[*p >> 4];
			buf[i++] = hex[*p & 0xf];
		}
	}
	buf[i] = '\0';
}

#define SVG_ESC_LEN (3 * CS_SYMSTR_LEN + 4)

/* Note a chain's name, and whether another chain has it too. */
static int svg_name_note(struct report *r, const struct cs_sym *chain)
{
	char esc[SVG_ESC_LEN];
	struct svg_name *n;

	svg_escape(chain, esc, sizeof(esc));
	HASH_FIND_STR(r->svg_names, esc, n);
	if (n) {
		n->shared |= n->head != chain->addr;
		return 0;
	}
	n = calloc(1, sizeof(*n) + strlen(esc) + 1);
	if (!n)
		return -ENOMEM;
	n->head = chain->addr;
	strcpy(n->name, esc);
	HASH_ADD_STR(r->svg_names, name, n);
	if (!n->hh.tbl) {
		free(n);
		return -ENOMEM;
	}
	return 0;
}

/*
 * Note the names of the chains drawn first (with callbacks, or passes):
 * which ones more than one chain has.
 */
static int svg_names_note(struct report *r)
{
	size_t i;

	for (i = 0; i < r->nr_rows; i++)
		if ((!i || r->rows[i].chain.addr != r->rows[i - 1].chain.addr) &&
		    svg_name_note(r, &r->rows[i].chain))
			return -ENOMEM;
	for (i = 0; i < r->nr_prows; i++)
		if (svg_name_note(r, &r->prows[i].chain))
			return -ENOMEM;
	return 0;
}

/* suffix: ".svg" (histogram), ".timeline.svg"; '.' never is in an escaped name */
/* buf: SVG_FILE_LEN bytes, which hold any name with either suffix whole */
static void svg_file_name(struct report *r, const struct cs_sym *chain, const char *suffix,
			  char *buf, size_t len)
{
	char esc[SVG_ESC_LEN];
	struct svg_name *n;

	svg_escape(chain, esc, sizeof(esc));
	HASH_FIND_STR(r->svg_names, esc, n);
	if ((n && n->shared) || strlen(esc) > SVG_NAME_MAX)
		snprintf(buf, len, "%.*s--0x%llx%s", SVG_NAME_MAX, esc,
			 (unsigned long long)chain->addr, suffix);
	else
		snprintf(buf, len, "%s%s", esc, suffix);
}

static int cmp_count_desc(const void *a, const void *b)
{
	const struct cs_cbrow *x = *(const struct cs_cbrow *const *)a;
	const struct cs_cbrow *y = *(const struct cs_cbrow *const *)b;

	if (x->st.count != y->st.count)
		return x->st.count > y->st.count ? -1 : 1;
	/* stable: the text's order (by index: no address is compared, which
	 * the fuzzer's comparison tracing would take into its dictionary) */
	return x - y < 0 ? -1 : x - y > 0;
}

struct histogram_args {
	const char *title, *note, *unit;
	const struct cs_svg_series *series;
	size_t n;
};

static int draw_histogram(FILE *f, const void *arg)
{
	const struct histogram_args *h = arg;

	return cs_svg_histogram(f, h->title, h->note, h->unit, h->series, h->n);
}

struct timeline_args {
	const struct cs_tl_chains *c;
	__u64 head;
	const char *title;
};

static int draw_timeline(FILE *f, const void *arg)
{
	const struct timeline_args *tl = arg;

	return cs_tl_chain_svg(f, tl->c, tl->head, tl->title);
}

/*
 * DIR/file, opened under the directory's descriptor by outfile.h's rules,
 * drawn by draw(); a "wrote" line, or one message and -errno.
 */
static int svg_write(struct report *r, const char *file, int (*draw)(FILE *, const void *),
		     const void *arg)
{
	const char *why = NULL;
	int fd, err = 0;
	bool created;
	FILE *f = NULL;

	fd = cs_out_open(r->o->svg_dirfd, file, r->o->out_flags | CS_OUT_TRUNCATE, &created,
			 &why);
	if (fd >= 0 && !(f = fdopen(fd, "w")))
		why = strerror(errno);
	if (!f) {
		err = errno ? -errno : -EIO;
		if (fd >= 0)
			close(fd);
	} else {
		if (draw(f, arg))
			err = errno ? -errno : -EIO;
		if (fclose(f) && !err)
			err = errno ? -errno : -EIO;
		if (err)
			why = strerror(-err);
	}
	if (err) {
		fprintf(r->err, "%s: error: cannot write ", r->o->cmd);
		cs_report_put_path(r->err, r->o->svg_dir);
		fprintf(r->err, "/%s: %s\n", file, why);
		return err;
	}
	if (!r->o->json && !r->o->openmetrics && !r->o->quiet) {
		fputs("wrote ", r->out);
		cs_report_put_path(r->out, r->o->svg_dir);
		fprintf(r->out, "/%s\n", file);
	}
	return 0;
}

/* A chain's timeline SVG, CHAIN.timeline.svg */
static int write_timeline(struct report *r, const struct cs_sym *chain, int kind)
{
	char file[SVG_FILE_LEN], title[CS_SYMSTR_LEN + 64], name[CS_SYMSTR_LEN];
	struct timeline_args tl = { .c = r->tl, .head = chain->addr, .title = title };

	svg_file_name(r, chain, ".timeline.svg", file, sizeof(file));
	snprintf(title, sizeof(title), "%s (%s): passes over time",
		 cs_sym_str(chain, name, sizeof(name)), cs_kind_name(kind));
	return svg_write(r, file, draw_timeline, &tl);
}

/* One chain's rows, rows[0..n): its histogram and its timeline SVG. */
static int write_svg(struct report *r, const struct cs_cbrow *rows, size_t n)
{
	char names[CS_SVG_MAX_SERIES][2 * CS_SYMSTR_LEN + 80];
	char file[SVG_FILE_LEN], title[CS_SYMSTR_LEN + 64], note[96];
	char cb[CS_SYMSTR_LEN], label[CS_SYMSTR_LEN + 64];
	struct cs_svg_series series[CS_SVG_MAX_SERIES];
	const struct cs_cbrow **order;
	size_t i, k;
	struct histogram_args h;
	struct pass_ent *p;
	int err;

	HASH_FIND(hh, r->passes, &rows[0].chain.addr, sizeof(rows[0].chain.addr), p);
	if (p)
		p->drawn = true;	/* its timeline is drawn here */
	svg_file_name(r, &rows[0].chain, ".svg", file, sizeof(file));
	order = calloc(n, sizeof(*order));
	if (!order) {
		free(order);
		fprintf(r->err, "%s: error: out of memory\n", r->o->cmd);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		order[i] = &rows[i];
	/* the most called callbacks get the bars */
	qsort(order, n, sizeof(*order), cmp_count_desc);
	k = n < CS_SVG_MAX_SERIES ? n : CS_SVG_MAX_SERIES;
	for (i = 0; i < k; i++) {
		const char *name = cs_sym_str(&order[i]->cb, cb, sizeof(cb));

		if (order[i]->label != CS_LABEL_NONE)
			snprintf(names[i], sizeof(names[i]), "%s [%s]", name,
				 cs_cbrow_label_str(order[i], label, sizeof(label)));
		else
			snprintf(names[i], sizeof(names[i]), "%s", name);
		series[i].name = names[i];
		series[i].slots = order[i]->st.slots;
	}
	free(order);
	snprintf(title, sizeof(title), "%s (%s): callback latency",
		 cs_sym_str(&rows[0].chain, cb, sizeof(cb)), cs_kind_name(rows[0].kind));
	note[0] = '\0';
	if (n > k)
		snprintf(note, sizeof(note), "%zu callbacks with fewer calls not drawn", n - k);

	h.title = title;
	h.note = note;
	h.unit = cs_units_name(r->o->units);
	h.series = series;
	h.n = k;
	err = svg_write(r, file, draw_histogram, &h);
	return err ? err : write_timeline(r, &rows[0].chain, rows[0].kind);
}

/*
 * rows are sorted by chain: two SVGs per run of equal heads; then the
 * timeline of each chain that had passes but no callbacks
 */
int cs_report_svg_files(struct report *r)
{
	size_t i, from;

	if (((r->nr_rows || r->nr_prows) && !(r->tl = cs_tl_chains_collect(r->t))) ||
	    svg_names_note(r)) {
		fprintf(r->err, "%s: error: out of memory\n", r->o->cmd);
		return -1;
	}
	for (from = 0; from < r->nr_rows; from = i) {
		for (i = from; i < r->nr_rows && r->rows[i].chain.addr == r->rows[from].chain.addr; i++)
			;
		if (write_svg(r, &r->rows[from], i - from))
			return -1;	/* one message: the next file would fail alike */
	}
	for (i = 0; i < r->nr_prows; i++) {
		struct pass_ent *pe = r->prows[i].e;

		if (!pe->drawn && write_timeline(r, &r->prows[i].chain, pe->kind))
			return -1;
	}
	return 0;
}

void cs_report_svg_free(struct report *r)
{
	struct svg_name *n, *ntmp;

	HASH_ITER(hh, r->svg_names, n, ntmp) {
		HASH_DEL(r->svg_names, n);
		free(n);
	}
	cs_tl_chains_free(r->tl);
}
