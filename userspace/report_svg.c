// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope report --svg: a clustered bar chart of log2 histograms, one
 * bar group per bucket, one bar per series, written as SVG text.
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
#define H		480
#define PLOT_X0		70.0
#define PLOT_X1		650.0
#define PLOT_Y0		60.0	/* top */
#define PLOT_Y1		420.0	/* bottom (the x axis) */
#define LEGEND_X	670.0

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

int cs_svg_histogram(FILE *f, const char *title, const char *note, const char *unit,
		     const struct cs_svg_series *s, size_t n)
{
	unsigned long long ymax = 0, step, top, v;
	double gw, bw, x, y, h;
	int last = -1, every = 1, b, l;
	char buf[96], name[52];
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

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, H, W, H);
	text(f, W / 2.0, 24, "text-anchor=\"middle\" font-size=\"14\"", title);
	if (note && *note)
		text(f, W / 2.0, 42, "text-anchor=\"middle\" fill=\"#555555\"", note);

	/* y axis: grid lines and counts */
	for (v = 0; v <= top; v += step) {
		y = PLOT_Y1 - (PLOT_Y1 - PLOT_Y0) * ((double)v / top);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#dddddd\"/>\n", PLOT_X0, y, PLOT_X1, y);
		snprintf(buf, sizeof(buf), "%llu", v);
		text(f, PLOT_X0 - 6, y + 4, "text-anchor=\"end\"", buf);
		if (v > top - step)
			break;	/* no wrap-around at the top of the range */
	}
	text(f, PLOT_X0, PLOT_Y0 - 10, "text-anchor=\"middle\"", "calls");
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
			fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
				"fill=\"%s\"><title>", x, PLOT_Y1 - h, bw, h, colours[i]);
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
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n"
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
		PLOT_X0, PLOT_Y1, PLOT_X1, PLOT_Y1, PLOT_X0, PLOT_Y0, PLOT_X0, PLOT_Y1);

	/* legend */
	for (i = 0; i < n; i++) {
		y = PLOT_Y0 + i * 18.0;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>\n",
			LEGEND_X, y, colours[i]);
		/* the full name is in each bar's tooltip */
		snprintf(name, sizeof(name), "%s", s[i].name);
		if (strlen(s[i].name) >= sizeof(name))
			memcpy(name + sizeof(name) - 4, "...", 4);
		text(f, LEGEND_X + 18, y + 10, "", name);
	}
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}
