// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope CLI: reading the BPF side: per-CPU counters, health, map
 * generations and draining.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "chainscope.h"
#include "json_keys.h"
#include "live.h"
#include "common.h"

__u32 cs_map_entries(void)
{
	const char *p = secure_getenv("CHAINSCOPE_MAP_ENTRIES");
	unsigned long v;
	char *end;

	if (!p || !*p)
		return 0;
	errno = 0;
	v = strtoul(p, &end, 10);
	return errno || *end || v > 1000000 ? 0 : (__u32)v;
}

/* One entry of a per-CPU array, a value per CPU (malloc'ed); NULL on error. */
static __u64 *read_percpu(int map_fd, __u32 idx, int *ncpu)
{
	__u64 *vals;

	*ncpu = libbpf_num_possible_cpus();
	if (*ncpu <= 0)
		return NULL;
	vals = calloc(*ncpu, sizeof(*vals));
	if (vals && bpf_map_lookup_elem(map_fd, &idx, vals)) {
		free(vals);
		return NULL;
	}
	return vals;
}

__u64 cs_read_stat(int map_fd, __u32 idx)
{
	int ncpu, i;
	__u64 sum = 0, *vals = read_percpu(map_fd, idx, &ncpu);

	if (!vals)
		return 0;
	for (i = 0; i < ncpu; i++)
		sum += vals[i];
	free(vals);
	return sum;
}

/* CS_STAT_LAST_ERR is per CPU and not a sum: the first CPU's that has one */
static __u64 cs_read_last_err(int map_fd)
{
	int ncpu, i;
	__u64 err = 0, *vals = read_percpu(map_fd, CS_STAT_LAST_ERR, &ncpu);

	if (!vals)
		return 0;
	for (i = 0; i < ncpu && !err; i++)
		err = vals[i];
	free(vals);
	return err;
}

__u64 cs_prog_missed(const struct bpf_program *prog)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int fd = bpf_program__fd(prog);

	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
		return 0;
	return info.recursion_misses;
}

__u64 cs_read_missed(struct bpf_object *obj)
{
	struct bpf_program *prog;
	__u64 missed = 0;

	bpf_object__for_each_program(prog, obj)
		missed += cs_prog_missed(prog);
	return missed;
}

void cs_read_health(struct bpf_object *obj, int stats_fd, struct cs_health *h)
{
	memset(h, 0, sizeof(*h));
	h->dropped = cs_read_stat(stats_fd, CS_STAT_DROPPED);
	h->failed = cs_read_stat(stats_fd, CS_STAT_FAILED);
	h->unpaired = cs_read_stat(stats_fd, CS_STAT_UNPAIRED);
	h->too_deep = cs_read_stat(stats_fd, CS_STAT_TOO_DEEP);
	h->nested = cs_read_stat(stats_fd, CS_STAT_NESTED);
	h->stale = cs_read_stat(stats_fd, CS_STAT_STALE);
	h->last_err = cs_read_last_err(stats_fd);
	h->missed = cs_read_missed(obj);
}

void cs_report_health(const struct cs_health *now, struct cs_health *prev,
		      bool chain_mode, json_object *json)
{
	unsigned long long dropped = now->dropped - prev->dropped;
	unsigned long long failed = now->failed - prev->failed;
	unsigned long long missed = now->missed - prev->missed;
	unsigned long long unpaired = now->unpaired - prev->unpaired;
	unsigned long long too_deep = now->too_deep - prev->too_deep;
	unsigned long long nested = now->nested - prev->nested;
	unsigned long long stale = now->stale - prev->stale;

	if (json) {
		json_object_object_add(json, CS_JK_DROPPED, json_object_new_uint64(dropped));
		json_object_object_add(json, CS_JK_FAILED, json_object_new_uint64(failed));
		json_object_object_add(json, CS_JK_MISSED, json_object_new_uint64(missed));
		if (chain_mode) {
			json_object_object_add(json, "unpaired", json_object_new_uint64(unpaired));
			json_object_object_add(json, "too_deep", json_object_new_uint64(too_deep));
			json_object_object_add(json, "nested_skipped", json_object_new_uint64(nested));
			json_object_object_add(json, "stale", json_object_new_uint64(stale));
		}
	} else {
		if (dropped)
			printf("WARNING: %llu events dropped (map full)\n", dropped);
		if (failed)
			printf("WARNING: %llu events dropped (map update failed: %s, "
			       "last error %lld)\n", failed,
			       (__s64)now->last_err < 0 ? strerror(-(int)(__s64)now->last_err) :
			       "entry vanished", (long long)now->last_err);
		if (missed)
			printf("WARNING: %llu events missed (BPF recursion protection: "
			       "the event fired while its program was running on that CPU)\n",
			       missed);
		if (chain_mode && unpaired)
			printf("WARNING: %llu chain passes unpaired (call_end without its "
			       "call_begin)\n", unpaired);
		if (chain_mode && too_deep)
			printf("WARNING: %llu chain passes nested deeper than %d, not timed\n",
			       too_deep, CS_MAX_DEPTH);
		if (chain_mode && nested)
			printf("WARNING: %llu chain events in interrupts skipped (they "
			       "interrupted chainscope's own program on that CPU)\n", nested);
		if (chain_mode && stale)
			printf("WARNING: %llu stale chain-pass frames dropped (interrupt "
			       "context, older than 1 s)\n", stale);
	}
	*prev = *now;
}

void cs_gen_init(struct cs_gen_map *g, const struct bpf_map *outer,
		 const struct bpf_map *gen0, const struct bpf_map *gen1)
{
	g->outer_fd = bpf_map__fd(outer);
	g->fd[0] = bpf_map__fd(gen0);
	g->fd[1] = bpf_map__fd(gen1);
	g->active = 0;
}

int cs_gen_swap(struct cs_gen_map *g)
{
	__u32 zero = 0;
	int next = !g->active, err;

	err = bpf_map_update_elem(g->outer_fd, &zero, &g->fd[next], BPF_ANY);
	if (err)
		return err;
	g->active = next;
	return g->fd[!next];
}

/*
 * Take every entry out of a hash map: keys first (deleting while walking
 * would restart the walk), then lookup-and-delete each. Entries are
 * entry_sz bytes, the key at 0 and the value at val_off. Returns the
 * number read or -errno; *out is malloc'ed.
 */
int cs_drain_map(int fd, size_t key_sz, size_t val_off, size_t entry_sz,
		 void **out)
{
	size_t cap = 64, n = 0, i, kept = 0;
	char *keys, *entries;
	int err;

	*out = NULL;
	keys = malloc(cap * key_sz);
	if (!keys)
		return -ENOMEM;
	err = bpf_map_get_next_key(fd, NULL, keys);
	while (!err) {
		n++;
		if (cs_grow(&keys, &cap, n + 1, key_sz)) {
			free(keys);
			return -ENOMEM;
		}
		err = bpf_map_get_next_key(fd, keys + (n - 1) * key_sz, keys + n * key_sz);
	}
	if (err != -ENOENT) {
		free(keys);
		return err;
	}
	entries = calloc(n ? n : 1, entry_sz);
	if (!entries) {
		free(keys);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		char *e = entries + kept * entry_sz;

		memcpy(e, keys + i * key_sz, key_sz);
		/*
		 * One step, so no update lands between reading and deleting
		 * (hash maps have it since 5.14); else lookup, then delete.
		 */
		err = bpf_map_lookup_and_delete_elem(fd, e, e + val_off);
		if (err && err != -ENOENT) {
			if (bpf_map_lookup_elem(fd, e, e + val_off))
				continue;
			bpf_map_delete_elem(fd, e);
			err = 0;
		}
		if (err)
			continue;	/* deleted meanwhile */
		kept++;
	}
	free(keys);
	*out = entries;
	return (int)kept;
}
