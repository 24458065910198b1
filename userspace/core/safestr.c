// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Untrusted strings in messages, escaped (safestr.h), and the one-line
 * usage error every command line parser shares (chainscope and
 * benchattach).
 */
#include <argp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "safestr.h"

static size_t esc_len(unsigned char c)
{
	return c < 0x20 || c >= 0x7f || c == '\\' ? 4 : 1;
}

const char *cs_safe_str(const char *s, char *buf, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p;
	size_t n = 0, total = 0, room;

	if (!len)
		return buf;
	if (!s)
		s = "(null)";
	for (p = (const unsigned char *)s; *p; p++)
		total += esc_len(*p);
	/* what does not fit ends in "..." (if even that fits) */
	room = total < len ? len - 1 : len > 4 ? len - 4 : 0;
	for (p = (const unsigned char *)s; *p && n + esc_len(*p) <= room; p++) {
		if (esc_len(*p) == 4) {
			buf[n++] = '\\';
			buf[n++] = 'x';
			buf[n++] = hex[*p >> 4];
			buf[n++] = hex[*p & 0xf];
		} else {
			buf[n++] = *p;
		}
	}
	if (*p && len > 4) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return buf;
}

void cs_usage_error(const struct argp_state *state, const char *fmt, ...)
{
	char msg[512], safe[CS_SAFE_STR_LEN(sizeof(msg))];
	va_list ap;

	/* the arguments come from the command line: keep it one line */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: error: %s (see '%s --help')\n", state->name,
		cs_safe_str(msg, safe, sizeof(safe)), state->name);
	exit(2);	/* CS_EXIT_USAGE */
}
