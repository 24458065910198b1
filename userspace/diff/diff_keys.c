// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope diff: duplicate keys in a JSON object. json-c keeps the last
 * of two equal keys without a word ({"count":1,"count":1000} reads as
 * 1000), and has no option to refuse them, so diff watches the bytes it
 * feeds json-c: a small state machine that follows strings and nesting
 * and keeps each open object's keys in a hash table. It does not judge
 * syntax (json-c does, on the same bytes); keys with escapes are decoded
 * by json-c itself, so "\u0063ount" and "count" are the same key.
 */
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "diff.h"
#include "trace_helpers.h"

/* json-c refuses deeper nesting (JSON_TOKENER_DEFAULT_DEPTH) */
#define MAX_DEPTH 64

struct key {
	UT_hash_handle hh;
	size_t len;
	char s[];
};

struct frame {
	bool obj;		/* an object, not an array */
	bool want_key;		/* the next string is a key */
	struct key *keys;
};

struct cs_json_keys {
	struct frame st[MAX_DEPTH];
	size_t depth, untracked;	/* frames open, those beyond MAX_DEPTH */
	bool in_str, esc, is_key, has_esc;
	char *key;			/* the raw bytes of the key being read */
	size_t n, cap;
	char dup[64];			/* the duplicate, printable, for errors */
};

struct cs_json_keys *cs_json_keys_new(void)
{
	return calloc(1, sizeof(struct cs_json_keys));
}

static void drop_keys(struct frame *f)
{
	struct key *k, *tmp;

	HASH_ITER(hh, f->keys, k, tmp) {
		HASH_DEL(f->keys, k);
		free(k);
	}
}

void cs_json_keys_free(struct cs_json_keys *k)
{
	if (!k)
		return;
	while (k->depth)
		drop_keys(&k->st[--k->depth]);
	free(k->key);
	free(k);
}

const char *cs_json_keys_dup(const struct cs_json_keys *k)
{
	return k->dup;
}

static int append(struct cs_json_keys *k, char c)
{
	if (cs_grow(&k->key, &k->cap, k->n + 1, 1))
		return -1;
	k->key[k->n++] = c;
	return 0;
}

/* 0 new, 1 duplicate, -1 out of memory */
static int add_key(struct cs_json_keys *k)
{
	struct frame *f = &k->st[k->depth - 1];
	json_object *dec = NULL;
	const char *s = k->key ? k->key : "";
	size_t len = k->n, i;
	struct key *e;
	int rc = 0;

	if (k->has_esc) {
		/* json-c's own decoding: wrap the raw bytes in quotes again */
		json_tokener *tok = json_tokener_new();

		if (!tok || append(k, '"') || append(k, '\0')) {
			json_tokener_free(tok);
			return -1;
		}
		memmove(k->key + 1, k->key, k->n - 1);
		k->key[0] = '"';
		dec = json_tokener_parse_ex(tok, k->key, (int)k->n);
		json_tokener_free(tok);
		if (json_object_is_type(dec, json_type_string)) {
			s = json_object_get_string(dec);
			len = json_object_get_string_len(dec);
		} else {
			s = k->key + 1;	/* json-c refuses it anyway */
			len = k->n - 2;
		}
	}
	HASH_FIND(hh, f->keys, s, len, e);
	if (e) {
		for (i = 0; i < len && i < sizeof(k->dup) - 1; i++)
			k->dup[i] = s[i] >= 0x20 && s[i] <= 0x7e && s[i] != '"' ? s[i] : '?';
		k->dup[i] = '\0';
		rc = 1;
	} else if ((e = malloc(sizeof(*e) + len + 1))) {
		memcpy(e->s, s, len);
		e->len = len;
		HASH_ADD_KEYPTR(hh, f->keys, e->s, e->len, e);
	} else {
		rc = -1;
	}
	json_object_put(dec);
	return rc;
}

size_t cs_json_keys_scan(struct cs_json_keys *k, const char *buf, size_t len, int *rc)
{
	size_t i;

	*rc = 0;
	for (i = 0; i < len; i++) {
		char c = buf[i];
		struct frame *top = k->depth ? &k->st[k->depth - 1] : NULL;

		if (k->in_str) {
			if (k->esc) {
				k->esc = false;
			} else if (c == '\\') {
				k->esc = k->has_esc = true;
			} else if (c == '"') {
				k->in_str = false;
				if (k->is_key && (*rc = add_key(k)))
					return i;
				continue;
			}
			if (k->is_key && append(k, c)) {
				*rc = -1;
				return i;
			}
			continue;
		}
		switch (c) {
		case '"':
			k->in_str = true;
			k->is_key = top && !k->untracked && top->obj && top->want_key;
			if (k->is_key)
				top->want_key = false;
			k->n = 0;
			k->has_esc = false;
			break;
		case '{':
		case '[':
			if (k->depth == MAX_DEPTH || k->untracked) {
				k->untracked++;
				break;
			}
			k->st[k->depth].obj = c == '{';
			k->st[k->depth].want_key = c == '{';
			k->st[k->depth].keys = NULL;
			k->depth++;
			break;
		case '}':
		case ']':
			if (k->untracked)
				k->untracked--;
			else if (k->depth)
				drop_keys(&k->st[--k->depth]);
			break;
		case ',':
			if (top && !k->untracked && top->obj)
				top->want_key = true;
			break;
		}
	}
	return len;
}
