// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* chainscope CLI: output: summaries, JSON helpers, time stamps. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chainscope.h"
#include "common.h"
#include "json_keys.h"

json_object *cs_json_hist(const __u32 *slots, int nslots)
{
	json_object *arr = json_object_new_array();
	int i, last = log2_hist_last(slots, nslots);

	for (i = 0; i <= last; i++) {
		json_object *b = json_object_new_object();
		unsigned long long lo, hi;

		log2_bucket_range(i, &lo, &hi);
		json_object_object_add(b, CS_JK_MIN, json_object_new_uint64(lo));
		json_object_object_add(b, CS_JK_MAX, json_object_new_uint64(hi));
		json_object_object_add(b, CS_JK_COUNT, json_object_new_uint64(slots[i]));
		json_object_array_add(arr, b);
	}
	return arr;
}

json_object *cs_json_root(const char *type, int units)
{
	json_object *root = json_object_new_object();

	json_object_object_add(root, CS_JK_TYPE, json_object_new_string(type));
	json_object_object_add(root, "time", json_object_new_double(cs_now()));
	json_object_object_add(root, CS_JK_UNITS, json_object_new_string(cs_units_name(units)));
	return root;
}

json_object *cs_json_addr(__u64 addr)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)addr);
	return json_object_new_string(buf);
}

void cs_summarize(const __u32 *slots, __u64 count, __u64 max_ns, int units,
		  struct cs_summary *s)
{
	double p50 = log2_hist_percentile(slots, CS_MAX_SLOTS, 50);
	double p99 = log2_hist_percentile(slots, CS_MAX_SLOTS, 99);

	s->count = count;
	s->max = cs_ns_to_units(max_ns, units);
	s->p50 = p50 < 0 ? 0 : (unsigned long long)(p50 + 0.5);
	s->p99 = p99 < 0 ? 0 : (unsigned long long)(p99 + 0.5);
	/* an estimate inside a bucket never exceeds the largest sample */
	if (s->p50 > s->max)
		s->p50 = s->max;
	if (s->p99 > s->max)
		s->p99 = s->max;
}

void cs_json_summary(json_object *o, const struct cs_summary *s, __u64 sum_ns,
		     __u64 max_ns, int units)
{
	json_object_object_add(o, CS_JK_COUNT, json_object_new_uint64(s->count));
	json_object_object_add(o, CS_JK_MAX, json_object_new_uint64(s->max));
	json_object_object_add(o, "sum", json_object_new_uint64(cs_ns_to_units(sum_ns, units)));
	json_object_object_add(o, CS_JK_P50, json_object_new_uint64(s->p50));
	json_object_object_add(o, CS_JK_P99, json_object_new_uint64(s->p99));
	json_object_object_add(o, CS_JK_MAX_NS, json_object_new_uint64(max_ns));
	json_object_object_add(o, "sum_ns", json_object_new_uint64(sum_ns));
}

void cs_json_print(json_object *obj)
{
	puts(json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN));
	fflush(stdout);
	json_object_put(obj);
}

double cs_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void cs_print_time_header(void)
{
	char buf[16];
	time_t t = time(NULL);

	strftime(buf, sizeof(buf), "%H:%M:%S", localtime(&t));
	printf("\n%s\n", buf);
}
