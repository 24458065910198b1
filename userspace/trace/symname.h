/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The strings a trace file may hold, checked in one place: the trace
 * reader (tracefile.c) calls cs_trace_check_strings() before it hands a
 * trace out, so nothing downstream (text, JSON, SVG, a terminal) ever sees
 * a byte outside these sets. A file with any other byte is refused as
 * corrupted, naming the byte's offset; nothing is escaped or replaced.
 *
 *   symbol name  [A-Za-z0-9_.$]{1,511} (KSYM_NAME_LEN 512), optionally
 *                followed by "+0x" and 1..16 lower-case hex digits, the
 *                form ksyms__format() writes for an address inside a symbol
 *   module name  [A-Za-z0-9_.-]{1,63} (MODULE_NAME_LEN is 56)
 *   release      printable ASCII without space (0x21..0x7e), may be empty
 *   boot id      [0-9a-f-], may be empty
 *
 * Header-only (static inline), so every program that links tracefile.c
 * gets it without another object.
 */
#ifndef CHAINSCOPE_SYMNAME_H
#define CHAINSCOPE_SYMNAME_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "trace_helpers.h"	/* CS_SYMNAME_MAX, CS_MODNAME_MAX */
#include "tracefile.h"

static inline int cs_sym_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$';
}

static inline int cs_hex_char(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/*
 * Index of the first byte of s that breaks the symbol-name form (its
 * length if the name ends too early or is too long), or -1 if s is fine.
 * *why says what is wrong.
 */
static inline long cs_symname_bad(const char *s, const char **why)
{
	size_t i = 0, h;

	while (cs_sym_char((unsigned char)s[i]) && i <= CS_SYMNAME_MAX)
		i++;
	if (i > CS_SYMNAME_MAX) {
		*why = "is longer than 511 bytes (KSYM_NAME_LEN)";
		return i;
	}
	if (!i) {
		*why = s[0] ? "starts with a byte that no kernel symbol has" : "is empty";
		return 0;
	}
	if (!s[i])
		return -1;
	if (s[i] != '+') {
		*why = "has a byte that no kernel symbol has";
		return i;
	}
	if (s[i + 1] != '0' || s[i + 2] != 'x') {
		*why = "has '+' without \"0x\" after it";
		return i + 1;
	}
	for (i += 3, h = 0; cs_hex_char((unsigned char)s[i]) && h <= 16; i++, h++)
		;
	if (!h || h > 16 || s[i]) {
		*why = "has an offset that is not +0x and 1-16 lower-case hex digits";
		return i;
	}
	return -1;
}

/* Like cs_symname_bad() for a module name. */
static inline long cs_modname_bad(const char *s, const char **why)
{
	size_t i;

	for (i = 0; s[i]; i++) {
		if (i == CS_MODNAME_MAX) {
			*why = "is longer than 63 bytes";
			return i;
		}
		if (!cs_sym_char((unsigned char)s[i]) || s[i] == '$') {
			if (s[i] != '-') {
				*why = "has a byte that no module name has";
				return i;
			}
		}
	}
	if (!i) {
		*why = "is empty";
		return 0;
	}
	return -1;
}

/* Index of the first byte of a kernel release that does not belong, or -1. */
static inline long cs_release_bad(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if ((unsigned char)s[i] <= 0x20 || (unsigned char)s[i] >= 0x7f)
			return i;
	return -1;
}

/* Likewise for a boot id. */
static inline long cs_boot_id_bad(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!cs_hex_char((unsigned char)s[i]) && s[i] != '-')
			return i;
	return -1;
}

static inline int cs_strings_bad(char *err, size_t errlen, unsigned long long off,
				 const char *what, unsigned long long addr,
				 unsigned char byte, const char *why)
{
	if (err && errlen) {
		if (addr)
			snprintf(err, errlen, "corrupted at byte offset %llu: %s of 0x%llx %s "
				 "(byte 0x%02x)", off, what, addr, why, byte);
		else
			snprintf(err, errlen, "corrupted at byte offset %llu: %s %s "
				 "(byte 0x%02x)", off, what, why, byte);
	}
	return -1;
}

/*
 * Check every string of a parsed trace whose data is buf (offsets in the
 * message are into buf). Returns 0, or -1 with err set like the reader's
 * other errors: "corrupted at byte offset N: ...".
 */
static inline int cs_trace_check_strings(const struct cs_trace *t, const void *buf,
					 char *err, size_t errlen)
{
	const char *base = buf, *why;
	size_t i;
	long at;

	at = cs_release_bad(t->hdr.release);
	if (at >= 0)
		return cs_strings_bad(err, errlen,
				      offsetof(struct cs_trace_header, release) + at,
				      "kernel release", 0, t->hdr.release[at],
				      "has a byte that is not printable ASCII");
	at = cs_boot_id_bad(t->hdr.boot_id);
	if (at >= 0)
		return cs_strings_bad(err, errlen,
				      offsetof(struct cs_trace_header, boot_id) + at,
				      "boot id", 0, t->hdr.boot_id[at],
				      "has a byte other than [0-9a-f-]");
	for (i = 0; i < t->nr_syms; i++) {
		const struct cs_trace_sym *s = &t->syms[i];

		at = cs_symname_bad(s->name, &why);
		if (at >= 0)
			return cs_strings_bad(err, errlen, (s->name - base) + at,
					      "symbol name", s->addr, s->name[at], why);
		if (!s->module)
			continue;
		at = cs_modname_bad(s->module, &why);
		if (at >= 0)
			return cs_strings_bad(err, errlen, (s->module - base) + at,
					      "module name", s->addr, s->module[at], why);
	}
	return 0;
}

#endif /* CHAINSCOPE_SYMNAME_H */
