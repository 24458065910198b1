// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * diff's stream reader costs what its input costs: one long word (a
 * number, or a string of word characters) fed in 64 KiB reads, as
 * cs_diff_input_read() does, is copied a bounded number of times, not
 * once per read (64 MiB of one token took 20 s). Counted, not timed:
 * memcpy and memmove are wrapped (-Wl,--wrap, diff.mk) and the bytes they
 * move are added up. Prints "PASS: host.diff.stream.<case>" or "FAIL: ...".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

static unsigned long long moved;

void *__real_memcpy(void *d, const void *s, size_t n);
void *__real_memmove(void *d, const void *s, size_t n);

void *__wrap_memcpy(void *d, const void *s, size_t n)
{
	moved += n;
	return __real_memcpy(d, s, n);
}

void *__wrap_memmove(void *d, const void *s, size_t n)
{
	moved += n;
	return __real_memmove(d, s, n);
}

static int failed;

/* feed pre, then size bytes of fill, then post, in chunk-byte reads */
static void one(const char *name, const char *pre, char fill, size_t size, const char *post,
		size_t chunk, const char *want_err)
{
	size_t total = strlen(pre) + size + strlen(post), i, n;
	struct cs_diff_input *in = cs_diff_input_new("x.json");
	char *buf = malloc(total), err[512] = "";
	int rc = 0;

	if (!in || !buf) {
		printf("FAIL: host.diff.stream.%s: out of memory\n", name);
		failed = 1;
		return;
	}
	strcpy(buf, pre);
	memset(buf + strlen(pre), fill, size);
	memcpy(buf + strlen(pre) + size, post, strlen(post));
	moved = 0;
	for (i = 0; i < total && !rc; i += n) {
		n = total - i < chunk ? total - i : chunk;
		rc = cs_diff_input_feed(in, buf + i, n, err, sizeof(err));
	}
	if (!rc)
		rc = cs_diff_input_end(in, err, sizeof(err));
	/* each byte held back once and copied out once, and the doubling */
	if (moved > 4 * total + (1 << 20)) {
		printf("FAIL: host.diff.stream.%s: %llu bytes copied for %zu bytes of input "
		       "(at most 4x)\n", name, moved, total);
		failed = 1;
	} else if (!rc || !strstr(err, want_err)) {
		printf("FAIL: host.diff.stream.%s: exit %d, error '%s', want /%s/\n", name, rc,
		       err, want_err);
		failed = 1;
	} else {
		printf("PASS: host.diff.stream.%s\n", name);
	}
	cs_diff_input_free(in);
	free(buf);
}

int main(void)
{
	/* 16 MiB: quadratic copying would be 2 GB */
	one("number", "", '7', 16 << 20, "", 65536, "an integer, not a JSON object");
	one("string", "{\"type\":\"", 'a', 16 << 20, "\"}", 65536, "object 1");
	one("literal", "", 't', 16 << 20, "", 65536, "invalid JSON");
	one("number-then-object", "", '7', 16 << 20, " {}", 65536,
	    "an integer, not a JSON object");
	/* odd reads: a word that spans some, ends inside one */
	one("odd-reads", "[", '1', 1 << 20, "]", 4093, "an array, not a JSON object");
	return failed;
}
