// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Untrusted strings in messages, escaped (safestr.h).
 */
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
