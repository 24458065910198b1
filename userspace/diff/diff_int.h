/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope diff's reader, inside: the input's state and the helpers
 * that read an object's fields with a JSON path in every error. The
 * stream and the objects are diff_input.c, a callback's row diff_row.c.
 */
#ifndef CHAINSCOPE_DIFF_INT_H
#define CHAINSCOPE_DIFF_INT_H

#include <json-c/json.h>

#include "diff.h"

struct cs_diff_input {
	char *name;
	json_tokener *tok;
	struct cs_json_keys *keys;	/* duplicate keys in the bytes fed */
	struct cs_diff_row *rows;	/* uthash head; iteration is file order */
	size_t nrows, nobjs;
	char units[8];
	unsigned long long unit_ns;
	char type[16];			/* "" when the objects carry none */
	char mode[16];			/* "mode": the event source, "" if none */
	struct cs_diff_loss loss[CS_DIFF_MAX_LOSS];
	int nloss;
	unsigned long long off, line;	/* bytes consumed, line of off (1-based) */
	unsigned long long val_off, val_line;	/* where the current value began */
	bool in_value, failed, ended;
	char *carry;			/* the held-back end of the last feed */
	size_t ncarry, carry_cap;
};

/* What a field reader needs: the input, and where its error goes */
struct cs_diff_ctx {
	struct cs_diff_input *in;
	char *err;
	size_t errlen;
};

/* An error in an object's content: "NAME: object N (line L): PATH: ..."; -1 */
__attribute__((format(printf, 3, 4)))
int cs_diff_obj_err(const struct cs_diff_ctx *c, const char *path, const char *fmt, ...);
/* s for an error message: at most 20 bytes, printable ASCII ('?' else) */
const char *cs_diff_quote(const char *s, char buf[24]);
/* "an integer", "a string", ... */
const char *cs_diff_type_name(json_object *v);
/* o.key, an integer in 0..2^63-1; *out is 0 if optional and absent */
int cs_diff_get_u63(const struct cs_diff_ctx *c, json_object *o, const char *path,
		    const char *key, bool required, unsigned long long *out);
/* *sum += v, or an error naming path.key */
int cs_diff_add_u64(const struct cs_diff_ctx *c, const char *path, const char *key,
		    unsigned long long *sum, unsigned long long v);
/* o.key, a name: printable ASCII, 1..512 bytes */
int cs_diff_get_name(const struct cs_diff_ctx *c, json_object *o, const char *path,
		     const char *key, const char **out, size_t *len);

/* diff_row.c: $.callbacks[idx] into its row */
int cs_diff_read_callback(const struct cs_diff_ctx *c, json_object *o, size_t idx);

#endif /* CHAINSCOPE_DIFF_INT_H */
