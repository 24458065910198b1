// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope report --svg: a clustered bar chart of log2 histograms, one
 * bar group per bucket, one bar per series, and a chain's timeline (its
 * passes over time, the callbacks within them), written as SVG text.
 *
 * The legend goes below the plot area, outside it, so that it never
 * covers a bar: its box (<rect class="legend-box">) lies under the x
 * axis' title, and the picture grows as tall as the legend needs.
 *
 * Drawn here rather than by a plotting program: nothing from a trace file
 * or the command line is ever handed to an interpreter, every string is
 * XML-escaped where it is written, and the fuzz target covers this path.
 */
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "trace_helpers.h"

#define W		1000
#define PLOT_X0		70.0
#define PLOT_X1		970.0
#define PLOT_Y0		60.0	/* top */
#define PLOT_Y1		420.0	/* bottom (the x axis) */
#define LEGEND_Y	(PLOT_Y1 + 56)	/* below the x axis' labels and title */
#define LEGEND_COLS	2
#define LEGEND_ROW	18.0
#define LEGEND_CHARS	64	/* of a name: ~7 px each fit a column */

/* Okabe-Ito, then darker variants: told apart also by colour-blind readers */
static const char *const colours[] = {
	"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00",
	"#f0e442", "#000000", "#004c7a", "#9a6a00", "#006a4e", "#8a4f70",
};

_Static_assert(sizeof(colours) / sizeof(colours[0]) == CS_SVG_MAX_SERIES,
	       "one colour per series");

/* Text content or attribute value: XML-escaped, anything not printable ASCII as '?'. */
static void xml_puts(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = *s;

		switch (c) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		default:
			fputc(c >= 0x20 && c < 0x7f ? c : '?', f);
		}
	}
}

static void text(FILE *f, double x, double y, const char *attrs, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" %s>", x, y, attrs);
	xml_puts(f, s);
	fputs("</text>\n", f);
}

/* A round tick step (1, 2 or 5 times a power of ten) for at most ~6 ticks. */
static unsigned long long tick_step(unsigned long long max)
{
	static const unsigned int mult[] = { 1, 2, 5 };
	unsigned long long pow10 = 1;
	int i;

	for (;;) {
		for (i = 0; i < 3; i++)
			if (max <= mult[i] * pow10 * 6)
				return mult[i] * pow10;
		if (pow10 > ~0ULL / 100)
			return pow10 * 10;
		pow10 *= 10;
	}
}

/* the picture's height: the plot, then the legend's rows below it */
static double height(size_t n)
{
	return LEGEND_Y + (n + LEGEND_COLS - 1) / LEGEND_COLS * LEGEND_ROW + 12;
}

static void header(FILE *f, const char *title, const char *note, size_t n)
{
	double h = height(n);

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
		"viewBox=\"0 0 %d %.0f\" font-family=\"sans-serif\" font-size=\"11\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, h, W, h);
	text(f, W / 2.0, 24, "text-anchor=\"middle\" font-size=\"14\"", title);
	if (note && *note)
		text(f, W / 2.0, 42, "text-anchor=\"middle\" fill=\"#555555\"", note);
}

/* y axis from 0 to top: grid lines and values every step, its title */
static void y_axis(FILE *f, unsigned long long top, unsigned long long step, const char *what)
{
	unsigned long long v;
	char buf[32];
	double y;

	for (v = 0; v <= top; v += step) {
		y = PLOT_Y1 - (PLOT_Y1 - PLOT_Y0) * ((double)v / top);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#dddddd\"/>\n", PLOT_X0, y, PLOT_X1, y);
		snprintf(buf, sizeof(buf), "%llu", v);
		text(f, PLOT_X0 - 6, y + 4, "text-anchor=\"end\"", buf);
		if (v > top - step)
			break;	/* no wrap-around at the top of the range */
	}
	text(f, PLOT_X0, PLOT_Y0 - 10, "text-anchor=\"middle\"", what);
}

static void axes(FILE *f)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n"
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
		PLOT_X0, PLOT_Y1, PLOT_X1, PLOT_Y1, PLOT_X0, PLOT_Y0, PLOT_X0, PLOT_Y1);
}

/*
 * The legend: LEGEND_COLS columns of swatches and names under the plot,
 * in a box that the tests check against the bars.
 */
static void legend(FILE *f, const char *const *names, const char *const *fill, size_t n)
{
	double cw = (PLOT_X1 - PLOT_X0) / LEGEND_COLS, x, y;
	char name[LEGEND_CHARS + 1];
	size_t i;

	if (!n)
		return;
	fprintf(f, "<g class=\"legend\">\n<rect class=\"legend-box\" x=\"%.1f\" y=\"%.1f\" "
		"width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#dddddd\"/>\n",
		PLOT_X0, LEGEND_Y - 4, PLOT_X1 - PLOT_X0,
		(n + LEGEND_COLS - 1) / LEGEND_COLS * LEGEND_ROW + 4);
	for (i = 0; i < n; i++) {
		x = PLOT_X0 + 4 + (i % LEGEND_COLS) * cw;
		y = LEGEND_Y + (i / LEGEND_COLS) * LEGEND_ROW;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>\n",
			x, y, fill[i]);
		/* the full name is in each bar's tooltip */
		snprintf(name, sizeof(name), "%s", names[i]);
		if (strlen(names[i]) >= sizeof(name))
			memcpy(name + sizeof(name) - 4, "...", 4);
		text(f, x + 18, y + 10, "", name);
	}
	fputs("</g>\n", f);
}

int cs_svg_histogram(FILE *f, const char *title, const char *note, const char *unit,
		     const struct cs_svg_series *s, size_t n)
{
	unsigned long long ymax = 0, step, top;
	double gw, bw, x, h;
	int last = -1, every = 1, b, l;
	const char *names[CS_SVG_MAX_SERIES];
	char buf[96];
	size_t i;

	if (n > CS_SVG_MAX_SERIES)
		n = CS_SVG_MAX_SERIES;
	for (i = 0; i < n; i++) {
		l = log2_hist_last(s[i].slots, CS_MAX_SLOTS);
		if (l > last)
			last = l;
		for (b = 0; b <= l; b++)
			if (s[i].slots[b] > ymax)
				ymax = s[i].slots[b];
	}
	step = tick_step(ymax ? ymax : 1);
	top = ((ymax ? ymax : 1) + step - 1) / step * step;

	for (i = 0; i < n; i++)
		names[i] = s[i].name;
	header(f, title, note, n);
	y_axis(f, top, step, "calls");
	snprintf(buf, sizeof(buf), "%s (log2 buckets)", unit);
	text(f, (PLOT_X0 + PLOT_X1) / 2, PLOT_Y1 + 40, "text-anchor=\"middle\"", buf);

	/* one group per bucket, one bar per series */
	if (last < 0)
		text(f, (PLOT_X0 + PLOT_X1) / 2, (PLOT_Y0 + PLOT_Y1) / 2,
		     "text-anchor=\"middle\" fill=\"#555555\"", "no timed calls");
	gw = (PLOT_X1 - PLOT_X0) / (last + 1 > 0 ? last + 1 : 1);
	bw = n ? gw * 0.8 / n : 0;
	if (last >= 0) {
		unsigned long long lo, hi;

		log2_bucket_range(last, &lo, &hi);
		/* the widest label, at ~7 px a character and 10 px apart */
		every = (int)((snprintf(buf, sizeof(buf), "%llu-%llu", lo, hi) * 7 + 10) / gw) + 1;
	}
	for (b = 0; b <= last; b++) {
		unsigned long long lo, hi;

		for (i = 0; i < n; i++) {
			if (!s[i].slots[b])
				continue;
			x = PLOT_X0 + b * gw + gw * 0.1 + i * bw;
			h = (PLOT_Y1 - PLOT_Y0) * ((double)s[i].slots[b] / top);
			fprintf(f, "<rect class=\"bar\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
				"height=\"%.2f\" fill=\"%s\"><title>", x, PLOT_Y1 - h, bw, h,
				colours[i]);
			xml_puts(f, s[i].name);
			fprintf(f, ": %u</title></rect>\n", s[i].slots[b]);
		}
		/* horizontal bucket labels, every `every`-th so they do not overlap */
		if (b % every)
			continue;
		log2_bucket_range(b, &lo, &hi);
		snprintf(buf, sizeof(buf), "%llu-%llu", lo, hi);
		text(f, PLOT_X0 + (b + 0.5) * gw, PLOT_Y1 + 16, "text-anchor=\"middle\"", buf);
	}
	axes(f);
	legend(f, names, colours, n);
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}

/* "other callbacks", "outside callbacks": the greys after the colours */
#define TL_OTHER	"#999999"
#define TL_REST		"#d0d0d0"

int cs_svg_timeline(FILE *f, const char *title, const char *note,
		    const struct cs_svg_timeline *tl)
{
	const char *names[CS_SVG_MAX_SERIES + 2], *fill[CS_SVG_MAX_SERIES + 2];
	unsigned long long step, top, div = 1;
	__u64 max = 0, span = tl->span_ns ? tl->span_ns : 1, sum;
	double cw = (PLOT_X1 - PLOT_X0) / CS_SVG_TL_COLS, bw, x, y, h, scale;
	size_t i, k, n = 0;
	char buf[160];
	int u = 0;

	for (i = 0; i < tl->nr_cols; i++)
		if (tl->cols[i].dur > max)
			max = tl->cols[i].dur;
	/* the unit that keeps the axis' numbers short */
	for (; u < CS_UNITS_MS && max / cs_units[u].ns >= 10000; u++)
		;
	div = cs_units[u].ns;
	step = tick_step(max / div ? max / div : 1);
	top = ((max / div ? max / div : 1) + step - 1) / step * step;
	if (top * div < max)
		top += step;
	scale = (PLOT_Y1 - PLOT_Y0) / ((double)top * div);

	for (i = 0; i < tl->nr_names && i < CS_SVG_MAX_SERIES; i++) {
		names[n] = tl->names[i];
		fill[n++] = colours[i];
	}
	names[n] = "other callbacks";
	fill[n++] = TL_OTHER;
	names[n] = "the pass outside its callbacks";
	fill[n++] = TL_REST;
	header(f, title, note, n);
	snprintf(buf, sizeof(buf), "pass (%s)", cs_units[u].suffix);
	y_axis(f, top, step, buf);

	bw = cw * 0.8 > 1 ? cw * 0.8 : 1;
	for (i = 0; i < tl->nr_cols; i++) {
		const struct cs_svg_tl_col *c = &tl->cols[i];

		x = PLOT_X0 + c->col * cw + (cw - bw) / 2;
		y = PLOT_Y1;
		sum = 0;
		for (k = 0; k < c->nseg; k++) {
			const struct cs_svg_tl_seg *sg = &c->seg[k];
			int si = sg->series;

			h = sg->ns * scale;
			y -= h;
			sum += sg->ns;
			fprintf(f, "<rect class=\"bar\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
				"height=\"%.2f\" fill=\"%s\"><title>", x, y, bw, h,
				si >= 0 && (size_t)si < tl->nr_names ? colours[si] : TL_OTHER);
			xml_puts(f, si >= 0 && (size_t)si < tl->nr_names ? tl->names[si] :
				 "other callbacks");
			fprintf(f, ": %llu ns</title></rect>\n", (unsigned long long)sg->ns);
		}
		h = (c->dur > sum ? c->dur - sum : 0) * scale;
		fprintf(f, "<rect class=\"bar\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
			"fill=\"%s\"><title>pass at +%.6f s: %llu ns%s (the longest of %llu)"
			"</title></rect>\n", x, y - h, bw, h, TL_REST, c->ts / 1e9,
			(unsigned long long)c->dur, c->unfinished ? ", unfinished" : "",
			(unsigned long long)c->passes);
	}
	if (!tl->nr_cols)
		text(f, (PLOT_X0 + PLOT_X1) / 2, (PLOT_Y0 + PLOT_Y1) / 2,
		     "text-anchor=\"middle\" fill=\"#555555\"", "no passes");
	/* x axis: five ticks over the trace's span, in a unit it has some of */
	for (u = 3, div = 1000000000; u > 0 && span < div; u--)
		div /= 1000;
	for (k = 0; k <= 4; k++) {
		x = PLOT_X0 + (PLOT_X1 - PLOT_X0) * k / 4;
		snprintf(buf, sizeof(buf), "%.4g %s", span * (k / 4.0) / div,
			 u == 3 ? "s" : cs_units[u].suffix);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
			x, PLOT_Y1, x, PLOT_Y1 + 4);
		text(f, x, PLOT_Y1 + 16, k == 0 ? "" : k == 4 ? "text-anchor=\"end\"" :
		     "text-anchor=\"middle\"", buf);
	}
	text(f, (PLOT_X0 + PLOT_X1) / 2, PLOT_Y1 + 40, "text-anchor=\"middle\"",
	     "time since the trace's start; each bar: the longest pass begun in its column, "
	     "its callbacks in call order from the bottom");
	axes(f);
	legend(f, names, fill, n);
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}
