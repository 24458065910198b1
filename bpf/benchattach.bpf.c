// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * benchattach: time one kernel function with an entry/exit program pair,
 * the libbpf-tools funclatency way. The entry program stores
 * bpf_ktime_get_ns() per task (thread id) in a hash map; the exit program
 * looks it up, deletes it and adds the delta to a log2 histogram.
 *
 * Three flavours of the same pair: fentry/fexit (BPF trampoline),
 * kprobe/kretprobe and kprobe.multi/kretprobe.multi. User space loads one
 * of them (set_autoload) and sets the target:
 * bpf_program__set_attach_target() for fentry/fexit, the function name
 * (kprobe) or addresses (kprobe.multi) at attach time.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "benchattach.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BA_MAP_ENTRIES);
	__type(key, __u32);
	__type(value, __u64);
} starts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BA_MAX_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} hist SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BA_NR_STATS);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

static __always_inline void stat_inc(__u32 idx)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &idx);

	if (v)
		__sync_fetch_and_add(v, 1);
}

/* floor(log2(v)); 0 for v <= 1 */
static __always_inline __u32 ba_log2(__u64 v)
{
	__u32 r = 0, shift;

	shift = (v > 0xffffffffULL) << 5; v >>= shift; r |= shift;
	shift = (v > 0xffff) << 4; v >>= shift; r |= shift;
	shift = (v > 0xff) << 3; v >>= shift; r |= shift;
	shift = (v > 0xf) << 2; v >>= shift; r |= shift;
	shift = (v > 0x3) << 1; v >>= shift; r |= shift;
	r |= (v >> 1);
	return r;
}

static __always_inline int on_entry(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 ts = bpf_ktime_get_ns();

	if (bpf_map_update_elem(&starts, &tid, &ts, BPF_ANY))
		stat_inc(BA_STAT_UPDATE_FAILED);
	stat_inc(BA_STAT_ENTRIES);
	return 0;
}

static __always_inline int on_exit(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 *tsp, delta;
	__u32 slot;
	__u64 *cnt;

	tsp = bpf_map_lookup_elem(&starts, &tid);
	if (!tsp) {
		stat_inc(BA_STAT_NO_START);
		return 0;
	}
	delta = bpf_ktime_get_ns() - *tsp;
	bpf_map_delete_elem(&starts, &tid);
	slot = ba_log2(delta);
	if (slot >= BA_MAX_SLOTS)
		slot = BA_MAX_SLOTS - 1;
	cnt = bpf_map_lookup_elem(&hist, &slot);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	return 0;
}

SEC("fentry")
int BPF_PROG(ba_fentry)
{
	return on_entry();
}

SEC("fexit")
int BPF_PROG(ba_fexit)
{
	return on_exit();
}

SEC("kprobe")
int BPF_KPROBE(ba_kprobe)
{
	return on_entry();
}

SEC("kretprobe")
int BPF_KRETPROBE(ba_kretprobe)
{
	return on_exit();
}

/*
 * The same pair as one kprobe.multi/kretprobe.multi link each (fprobe),
 * the mechanism of chainscope's probes mode for callbacks: one link over
 * any number of functions, the cookie (here the function's index) telling
 * them apart. The bodies are those above, so that a difference in cost is
 * the attach mechanism's.
 */
SEC("kprobe.multi")
int BPF_KPROBE(ba_kpm_entry)
{
	return on_entry();
}

SEC("kretprobe.multi")
int BPF_KRETPROBE(ba_kpm_exit)
{
	return on_exit();
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
