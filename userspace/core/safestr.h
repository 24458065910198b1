/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Untrusted strings (paths from the command line, names from a file) in
 * our messages: a byte that could forge or garble an output line (a
 * control byte, DEL, a byte >= 0x80) or a backslash is shown as \xHH, so
 * one message stays one line and reads back unambiguously.
 */
#ifndef CHAINSCOPE_SAFESTR_H
#define CHAINSCOPE_SAFESTR_H

#include <stddef.h>

/* Worst case: every byte of an n-byte string as \xHH, and the NUL. */
#define CS_SAFE_STR_LEN(n) (4 * (size_t)(n) + 1)

/*
 * s escaped into buf (len bytes, len > 0), always NUL-terminated; a
 * string that does not fit is cut at a whole escape and ends in "...".
 * Returns buf, so it can be an argument of printf(); s NULL reads "(null)".
 */
const char *cs_safe_str(const char *s, char *buf, size_t len);

struct argp_state;
/*
 * "NAME: error: MESSAGE (see 'NAME --help')" on stderr, one line whatever
 * the arguments hold (escaped as above), then exit 2 (CS_EXIT_USAGE).
 */
void cs_usage_error(const struct argp_state *state, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));

#endif /* CHAINSCOPE_SAFESTR_H */
