// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target for the console and tracefs text input
 * (trace/console.c): the bytes as a log, converted in process, then the
 * strict reader on the image. Any input must either be refused with one
 * line and exit 12 or 13, or give an image that our reader accepts, and
 * in which every event is a line of the input: each event, printed back
 * with its TP_printk format (include-trace/trace/events/notifier.h) and
 * its callback's name from the trace's symbols, must occur in the input
 * as "EVENT: TEXT" followed by a line end. So no line that is not ours
 * exactly ever becomes an event. Seeds: every genconsole.py scenario
 * (tests/fuzz/corpus/console, tests/sh/console.sh).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console.h"
#include "fuzz_trace.h"
#include "tracedat.h"
#include "tracefile.h"

static const char *const kinds[] = { "raw", "atomic", "blocking", "srcu" };
static const char *const types[] = { "plain", "robust", "rollback" };

static void ret_str(char *b, size_t n, __s32 r)
{
	switch (r) {
	case 0: snprintf(b, n, "DONE"); break;
	case 1: snprintf(b, n, "OK"); break;
	case 0x8001: snprintf(b, n, "STOP"); break;
	case 0x8002: snprintf(b, n, "BAD"); break;
	default: snprintf(b, n, "0x%lx", (unsigned long)(long)r);
	}
}

/* the text of e as the kernel prints it, or 0 for records of no line */
static int print_event(const struct cs_trace *t, const struct cs_rec_event *e, bool stock,
		       char *b, size_t n)
{
	static const char *const names[] = {
		[CS_REC_REGISTER] = "notifier_register", [CS_REC_UNREGISTER] = "notifier_unregister",
		[CS_REC_REGISTER_ERROR] = "notifier_register_error",
		[CS_REC_UNREGISTER_ERROR] = "notifier_unregister_error",
		[CS_REC_RUN] = "notifier_run", [CS_REC_RETURN] = "notifier_return",
		[CS_REC_CALL_BEGIN] = "notifier_call_begin", [CS_REC_CALL_END] = "notifier_call_end",
	};
	const struct cs_trace_sym *s;
	char cb[1024], r[32];
	int len;

	if (e->type >= sizeof(names) / sizeof(names[0]) || !names[e->type])
		return 0;
	if (e->kind > 3 || e->call_type > 2)
		abort();
	ret_str(r, sizeof(r), e->ret);
	s = cs_trace_sym_find(t, e->cb);
	if (s && s->module)
		snprintf(cb, sizeof(cb), "%s [%s]", s->name, s->module);
	else if (s)
		snprintf(cb, sizeof(cb), "%s", s->name);
	else
		snprintf(cb, sizeof(cb), "0x%llx", (unsigned long long)e->cb);
	len = snprintf(b, n, "%s: ", names[e->type]);
	if (stock)
		return len + snprintf(b + len, n - len, "%s", cb);
	if (e->type == CS_REC_CALL_BEGIN || e->type == CS_REC_CALL_END) {
		len += snprintf(b + len, n - len, "head=%016llx kind=%s val=%llu nr_to_call=%d type=%s",
				(unsigned long long)e->head, kinds[e->kind],
				(unsigned long long)e->val, e->nr_to_call, types[e->call_type]);
		if (e->type == CS_REC_CALL_END)
			len += snprintf(b + len, n - len, " ret=%s nr_calls=%d", r, e->nr_calls);
		return len;
	}
	len += snprintf(b + len, n - len, "%s head=%016llx nb=%016llx priority=%d kind=%s", cb,
			(unsigned long long)e->head, (unsigned long long)e->nb, e->priority,
			kinds[e->kind]);
	if (e->type == CS_REC_REGISTER_ERROR || e->type == CS_REC_UNREGISTER_ERROR)
		len += snprintf(b + len, n - len, " err=%d", e->ret);
	if (e->type == CS_REC_RUN || e->type == CS_REC_RETURN)
		len += snprintf(b + len, n - len, " val=%llu", (unsigned long long)e->val);
	if (e->type == CS_REC_RETURN)
		len += snprintf(b + len, n - len, " ret=%s", r);
	return len;
}

/* "TEXT\n" or "TEXT\r\n" in data, after the start of a line's text */
static bool in_input(const uint8_t *data, size_t size, const char *text, int len)
{
	const uint8_t *p = data, *end = data + size;

	while ((p = memmem(p, end - p, text, len))) {
		const uint8_t *q = p + len;

		if ((q < end && *q == '\n') || (q + 1 < end && q[0] == '\r' && q[1] == '\n'))
			return true;
		p++;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cs_console_info info;
	struct cs_trace t;
	char err[512], text[4096];
	void *img;
	size_t len, i;
	int rc;

	rc = cs_console_convert((const char *)data, size, &img, &len, &info, err, sizeof(err));
	if (rc) {
		if ((rc != CS_EXIT_TRACEDAT && rc != CS_EXIT_TRACEDAT_CLOCK) || !err[0] ||
		    strchr(err, '\n'))
			abort();
		return 0;
	}
	if (!info.nr_events)
		abort();
	fuzz_image_parse(img, len, &t, info.nr_events);
	for (i = 0; i < t.nr_events; i++) {
		int n = print_event(&t, &t.events[i], info.flags & CS_CONSOLE_STOCK, text,
				    sizeof(text));

		if (n && (n >= (int)sizeof(text) || !in_input(data, size, text, n))) {
			fprintf(stderr, "event %zu is no line of the input: %.*s\n", i, n, text);
			abort();
		}
	}
	cs_trace_free(&t);
	free(img);
	return 0;
}
