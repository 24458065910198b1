// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope trace files: writer and strict reader (see tracefile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safestr.h"
#include "symname.h"
#include "tracefile.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "trace files are little-endian; this reader reads them natively"
#endif

_Static_assert(sizeof(struct cs_rec_event) == 96, "record layout changed");
_Static_assert(sizeof(struct cs_trace_header) == CS_TRACE_HEADER_SIZE, "header");
_Static_assert(sizeof(struct cs_trace_trailer) == 56, "trailer");
_Static_assert(sizeof(struct cs_trace_fsym) == 16, "symbol entry");
_Static_assert(sizeof(struct cs_trace_footer) == 16, "footer");

static const char *const type_names[CS_REC_MAX] = {
	[CS_REC_REGISTER] = "notifier_register",
	[CS_REC_UNREGISTER] = "notifier_unregister",
	[CS_REC_REGISTER_ERROR] = "notifier_register_error",
	[CS_REC_UNREGISTER_ERROR] = "notifier_unregister_error",
	[CS_REC_RUN] = "notifier_run",
	[CS_REC_RETURN] = "notifier_return",
	[CS_REC_STOP] = "notifier_stop",
	[CS_REC_CALL_BEGIN] = "notifier_call_begin",
	[CS_REC_CALL_END] = "notifier_call_end",
	[CS_REC_LOCK_WAIT] = "lock_wait",
	[CS_REC_LOSS] = "loss",
	[CS_REC_SNAPSHOT] = "snapshot",
};

static const char *const loss_names[CS_REC_LOSS_MAX] = {
	[CS_REC_LOSS_RING_FULL] = "ring-full",
	[CS_REC_LOSS_NMI] = "nmi",
	[CS_REC_LOSS_MISSED] = "missed",
};

const char *cs_rec_type_name(unsigned int type)
{
	return type < CS_REC_MAX ? type_names[type] : "?";
}

const char *cs_rec_loss_reason_name(unsigned int reason)
{
	return reason < CS_REC_LOSS_MAX ? loss_names[reason] : "?";
}

/* --- reader --------------------------------------------------------------- */

int cs_trace_bad(char *err, size_t errlen, const char *what, __u64 off,
		 const char *fmt, ...)
{
	int n;
	va_list ap;

	if (!err || !errlen)
		return -1;
	n = snprintf(err, errlen, "%s at byte offset %llu: ", what,
		     (unsigned long long)off);
	if (n < 0 || (size_t)n >= errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

static bool nul_terminated(const char *s, size_t n)
{
	return memchr(s, '\0', n) != NULL;
}

/*
 * A loss record as the recorder writes it (bpf/record.h): a count of at
 * least 1, ring-full and NMI losses on a real CPU, recursion misses on
 * CS_REC_CPU_ANY, and no field but ts, cpu, val, type and reason set.
 */
static int check_loss(const struct cs_rec_event *e, __u64 off, char *err,
		      size_t errlen)
{
#define FOFF(f) (off + offsetof(struct cs_rec_event, f))
	struct cs_rec_event rest = *e;
	const unsigned char *b = (const unsigned char *)&rest;
	size_t i;

	if (!e->val)
		return cs_trace_bad(err, errlen, "corrupted", FOFF(val),
				    "loss record of 0 events (the recorder writes none)");
	if ((e->reason == CS_REC_LOSS_MISSED) != (e->cpu == CS_REC_CPU_ANY))
		return cs_trace_bad(err, errlen, "corrupted", FOFF(cpu),
				    "%s loss record on %s (want %s)",
				    cs_rec_loss_reason_name(e->reason),
				    e->cpu == CS_REC_CPU_ANY ? "no CPU" : "a CPU",
				    e->reason == CS_REC_LOSS_MISSED ? "CPU 0xffffffff (any)" :
				    "the CPU that lost the events");
	rest.ts = rest.val = 0;
	rest.cpu = 0;
	rest.type = 0;
	rest.reason = 0;
	for (i = 0; i < sizeof(rest); i++)
		if (b[i])
			return cs_trace_bad(err, errlen, "corrupted", off + i,
					    "loss record with a field set that only events have "
					    "(byte %zu of the record)", i);
	return 0;
#undef FOFF
}

static int check_record(const struct cs_rec_event *e, __u32 version, __u64 off,
			char *err, size_t errlen)
{
#define FOFF(f) (off + offsetof(struct cs_rec_event, f))
	/* each version added a record type */
	unsigned int max_type = version == 1 ? CS_REC_LOSS :
				version == 2 ? CS_REC_SNAPSHOT : CS_REC_MAX;

	if (e->type >= max_type)
		return cs_trace_bad(err, errlen, "corrupted", FOFF(type),
				    "record type %u is not a notifier event (0..%u in version %u)",
				    e->type, max_type - 1, version);
	if (e->kind > 3)
		return cs_trace_bad(err, errlen, "corrupted", FOFF(kind),
				    "chain kind %u (0..3)", e->kind);
	if (e->call_type > 2)
		return cs_trace_bad(err, errlen, "corrupted", FOFF(call_type),
				    "call type %u (0..2)", e->call_type);
	if (e->lock_op > 1)
		return cs_trace_bad(err, errlen, "corrupted", FOFF(lock_op),
				    "lock op %u (0..1)", e->lock_op);
	if (e->ctx > CS_REC_CTX_NMI)
		return cs_trace_bad(err, errlen, "corrupted", FOFF(ctx),
				    "execution context %u (0..%d)", e->ctx, CS_REC_CTX_NMI);
	if (version == 1)
		return 0;	/* reason and __pad were padding: not looked at */
	if (e->type == CS_REC_LOSS ? e->reason >= CS_REC_LOSS_MAX : e->reason != 0)
		return cs_trace_bad(err, errlen, "corrupted", FOFF(reason),
				    "loss reason %u (%s)", e->reason,
				    e->type == CS_REC_LOSS ? "0..2" : "0 outside a loss record");
	if (e->__pad)
		return cs_trace_bad(err, errlen, "corrupted", FOFF(__pad), "padding is not zero");
	if (e->type == CS_REC_LOSS)
		return check_loss(e, off, err, errlen);
	if (e->type == CS_REC_SNAPSHOT)
		return cs_trace_check_snap_record(e, off, err, errlen);
	return 0;
#undef FOFF
}

/* The header: magic, version, sizes, strings. */
static int parse_header(const unsigned char *p, size_t len, struct cs_trace *t,
			char *err, size_t errlen)
{
	const struct cs_trace_header *h = &t->hdr;
	size_t i;

	if (len < sizeof(h->magic))
		return cs_trace_bad(err, errlen, "truncated", len,
				    "%zu bytes, shorter than the %zu-byte magic", len,
				    sizeof(h->magic));
	if (memcmp(p, CS_TRACE_MAGIC, sizeof(h->magic)))
		return cs_trace_bad(err, errlen, "wrong magic", 0,
				    "not a chainscope trace (want \"%s\\0\")", CS_TRACE_MAGIC);
	if (len < offsetof(struct cs_trace_header, header_size))
		return cs_trace_bad(err, errlen, "truncated", len, "header ends before its version");
	memcpy(&t->hdr.version, p + offsetof(struct cs_trace_header, version), 4);
	if (t->hdr.version < CS_TRACE_VERSION_MIN || t->hdr.version > CS_TRACE_VERSION)
		return cs_trace_bad(err, errlen, "wrong version",
				    offsetof(struct cs_trace_header, version),
				    "version %u, this chainscope reads versions %d..%d",
				    t->hdr.version, CS_TRACE_VERSION_MIN, CS_TRACE_VERSION);
	if (len < sizeof(t->hdr))
		return cs_trace_bad(err, errlen, "truncated", len,
				    "%zu bytes, the header alone is %zu", len, sizeof(t->hdr));
	memcpy(&t->hdr, p, sizeof(t->hdr));
	if (h->header_size != CS_TRACE_HEADER_SIZE)
		return cs_trace_bad(err, errlen, "corrupted",
				    offsetof(struct cs_trace_header, header_size),
				    "header size %u, want %d", h->header_size, CS_TRACE_HEADER_SIZE);
	/* a larger record is a newer writer's: its tail is ignored */
	if (h->record_size < sizeof(struct cs_rec_event))
		return cs_trace_bad(err, errlen, "corrupted",
				    offsetof(struct cs_trace_header, record_size),
				    "record size %u, want at least %zu", h->record_size,
				    sizeof(struct cs_rec_event));
	if (h->clock != CS_TRACE_CLOCK_MONOTONIC)
		return cs_trace_bad(err, errlen, "corrupted", offsetof(struct cs_trace_header, clock),
				    "clock %u, want %d (CLOCK_MONOTONIC)", h->clock,
				    CS_TRACE_CLOCK_MONOTONIC);
	if (!nul_terminated(h->release, sizeof(h->release)))
		return cs_trace_bad(err, errlen, "corrupted", offsetof(struct cs_trace_header, release),
				    "kernel release is not NUL-terminated");
	if (!nul_terminated(h->boot_id, sizeof(h->boot_id)))
		return cs_trace_bad(err, errlen, "corrupted", offsetof(struct cs_trace_header, boot_id),
				    "boot id is not NUL-terminated");
	if (h->source >= CS_TRACE_SOURCE_MAX || (h->version < 2 && h->source))
		return cs_trace_bad(err, errlen, "corrupted", offsetof(struct cs_trace_header, source),
				    "event source %u, want 0 (tracepoints)%s", h->source,
				    h->version < 2 ? " in version 1" : " or 1 (probes)");
	for (i = 0; i < sizeof(h->reserved); i++)
		if (h->reserved[i])
			return cs_trace_bad(err, errlen, "corrupted",
					    offsetof(struct cs_trace_header, reserved) + i,
					    "reserved header byte is not zero");
	return 0;
}

/*
 * Validate nr records from the header on and hand them out as an array
 * of struct cs_rec_event: in place when the file's record is exactly
 * that, else copied (a larger record_size: the tail is dropped).
 */
static int load_records(const unsigned char *p, struct cs_trace *t, __u64 nr,
			char *err, size_t errlen)
{
	const struct cs_trace_header *h = &t->hdr;
	struct cs_rec_event *copy = NULL;
	__u64 i;

	if (h->record_size != sizeof(struct cs_rec_event) && nr) {
		copy = malloc(nr * sizeof(*copy));
		if (!copy)
			return cs_trace_bad(err, errlen, "out of memory", h->header_size,
					    "%llu records", (unsigned long long)nr);
	}
	for (i = 0; i < nr; i++) {
		__u64 roff = h->header_size + i * h->record_size;
		struct cs_rec_event e;

		memcpy(&e, p + roff, sizeof(e));	/* buf may be unaligned */
		if (check_record(&e, h->version, roff, err, errlen)) {
			free(copy);
			return -1;
		}
		/*
		 * probes mode's lock waits come from lock:contention_*: only
		 * acquisitions that waited, at least 1 ns (a recording of our
		 * core's notifier_lock_wait, tracepoints, may hold 0-ns ones)
		 */
		if (h->source == CS_TRACE_SOURCE_PROBES && e.type == CS_REC_LOCK_WAIT &&
		    !e.duration_ns) {
			free(copy);
			return cs_trace_bad(err, errlen, "corrupted",
					    roff + offsetof(struct cs_rec_event, duration_ns),
					    "a lock wait of 0 ns in a probes recording (its "
					    "lock waits are contended acquisitions)");
		}
		if (copy)
			copy[i] = e;
	}
	t->copy = copy;
	t->events = copy ? copy : (const struct cs_rec_event *)(p + h->header_size);
	t->nr_events = nr;
	return 0;
}

/*
 * Sum the loss records' counts: ring-full and NMI into *lost, recursion
 * misses into *missed. A sum past 2^64-1 is corrupted (no recorder loses
 * that many events).
 */
static int sum_loss(const struct cs_trace *t, __u64 *lost, __u64 *missed,
		    char *err, size_t errlen)
{
	const struct cs_trace_header *h = &t->hdr;
	size_t i;

	*lost = *missed = 0;
	for (i = 0; i < t->nr_events; i++) {
		const struct cs_rec_event *e = &t->events[i];
		__u64 *sum = e->reason == CS_REC_LOSS_MISSED ? missed : lost;

		if (e->type != CS_REC_LOSS)
			continue;
		if (__builtin_add_overflow(*sum, e->val, sum))
			return cs_trace_bad(err, errlen, "corrupted",
					    h->header_size + (__u64)i * h->record_size +
					    offsetof(struct cs_rec_event, val),
					    "loss records add up to more than 2^64-1 %s events",
					    e->reason == CS_REC_LOSS_MISSED ? "missed" : "lost");
	}
	return 0;
}

/*
 * The footer: where the trailer is (*off), after the records. 0, or -1
 * with the reason in err.
 */
static int read_footer(const unsigned char *p, size_t len, const struct cs_trace_header *h,
		       __u64 *off, char *err, size_t errlen)
{
	struct cs_trace_footer ft;
	__u64 rec_bytes;

	/* the footer says where the trailer is */
	if (len < h->header_size + sizeof(struct cs_trace_trailer) + sizeof(ft))
		return cs_trace_bad(err, errlen, "truncated", len,
				    "%zu bytes: no room for the trailer and footer "
				    "(recording did not finish?)", len);
	memcpy(&ft, p + len - sizeof(ft), sizeof(ft));
	if (memcmp(ft.magic, CS_TRACE_END_MAGIC, sizeof(ft.magic)))
		return cs_trace_bad(err, errlen, "truncated", len - sizeof(ft.magic),
				    "no end marker \"%s\" in the last 8 of %zu bytes "
				    "(file cut short, or the recording did not finish)",
				    CS_TRACE_END_MAGIC, len);
	if (ft.trailer_off < h->header_size ||
	    ft.trailer_off > len - sizeof(ft) - sizeof(struct cs_trace_trailer))
		return cs_trace_bad(err, errlen, "corrupted", len - sizeof(ft),
				    "trailer offset %llu outside [%u, %zu]",
				    (unsigned long long)ft.trailer_off, h->header_size,
				    len - sizeof(ft) - sizeof(struct cs_trace_trailer));
	rec_bytes = ft.trailer_off - h->header_size;
	if (rec_bytes % h->record_size)
		return cs_trace_bad(err, errlen, "corrupted", len - sizeof(ft),
				    "trailer offset %llu leaves a partial record (%llu bytes "
				    "of records, records are %u bytes)",
				    (unsigned long long)ft.trailer_off,
				    (unsigned long long)rec_bytes, h->record_size);
	*off = ft.trailer_off;
	return 0;
}

/* The string table of trailer tr at off: after its symbols */
static const char *trailer_strtab(const unsigned char *p, __u64 off,
				  const struct cs_trace_trailer *tr)
{
	return (const char *)p + off + sizeof(*tr) +
	       (size_t)tr->nr_syms * sizeof(struct cs_trace_fsym);
}

/*
 * The trailer at off: its counts against the file's size. 0, or -1 with
 * the reason in err.
 */
static int read_trailer(const unsigned char *p, size_t len, const struct cs_trace_header *h,
			__u64 off, struct cs_trace_trailer *tr, char *err, size_t errlen)
{
	__u64 rec_bytes = off - h->header_size, need;
	const char *strtab;

	memcpy(tr, p + off, sizeof(*tr));
	if (memcmp(tr->magic, CS_TRACE_TRAILER_MAGIC, sizeof(tr->magic)))
		return cs_trace_bad(err, errlen, "corrupted", off, "no trailer magic \"%s\"",
				    CS_TRACE_TRAILER_MAGIC);
	if (tr->trailer_size != len - sizeof(struct cs_trace_footer) - off)
		return cs_trace_bad(err, errlen, "corrupted",
				    off + offsetof(struct cs_trace_trailer, trailer_size),
				    "trailer size %u, but %llu bytes lie between trailer and footer",
				    tr->trailer_size,
				    (unsigned long long)(len - sizeof(struct cs_trace_footer) - off));
	if (tr->nr_records != rec_bytes / h->record_size)
		return cs_trace_bad(err, errlen, "corrupted",
				    off + offsetof(struct cs_trace_trailer, nr_records),
				    "trailer counts %llu records, the file holds %llu",
				    (unsigned long long)tr->nr_records,
				    (unsigned long long)(rec_bytes / h->record_size));
	if (tr->end_ns < h->start_ns)
		return cs_trace_bad(err, errlen, "corrupted",
				    off + offsetof(struct cs_trace_trailer, end_ns),
				    "recording ends (%llu ns) before it starts (%llu ns)",
				    (unsigned long long)tr->end_ns,
				    (unsigned long long)h->start_ns);
	need = sizeof(*tr) + (__u64)tr->nr_syms * sizeof(struct cs_trace_fsym) +
	       tr->strtab_size;
	if (need != tr->trailer_size)
		return cs_trace_bad(err, errlen, "corrupted",
				    off + offsetof(struct cs_trace_trailer, nr_syms),
				    "%u symbols and a %u-byte string table need a %llu-byte "
				    "trailer, it is %u", tr->nr_syms, tr->strtab_size,
				    (unsigned long long)need, tr->trailer_size);
	if (tr->reserved)
		return cs_trace_bad(err, errlen, "corrupted",
				    off + offsetof(struct cs_trace_trailer, reserved),
				    "reserved trailer field is not zero");
	strtab = trailer_strtab(p, off, tr);
	if (tr->strtab_size && strtab[tr->strtab_size - 1] != '\0')
		return cs_trace_bad(err, errlen, "corrupted",
				    (__u64)(strtab - (const char *)p) + tr->strtab_size - 1,
				    "string table does not end in NUL");
	return 0;
}

/* The records against the trailer: the walks' times, the loss totals */
static int check_trailer_totals(const struct cs_trace *t, const struct cs_trace_trailer *tr,
				__u64 off, char *err, size_t errlen)
{
	const struct cs_trace_header *h = &t->hdr;
	__u64 i;

	/* record stamps the trailer's end after its last walk */
	for (i = 0; i < t->nr_events; i++) {
		const struct cs_rec_event *e = &t->events[i];

		if (e->type == CS_REC_SNAPSHOT && !e->nr_calls && e->ts > tr->end_ns) {
			cs_trace_bad(err, errlen, "corrupted", h->header_size + i * h->record_size,
				     "snapshot of head 0x%llx walked at %llu ns, after the "
				     "recording ended (%llu ns)", (unsigned long long)e->head,
				     (unsigned long long)e->ts, (unsigned long long)tr->end_ns);
			return -1;
		}
	}
	/*
	 * The recorder ends with a loss record for every count still
	 * pending (record_events.c: rec_flush_pending(), rec_poll_missed()),
	 * so the records add up to the trailer's totals exactly. Version 1
	 * had no loss records.
	 */
	if (h->version >= 2) {
		__u64 lost, missed;

		if (sum_loss(t, &lost, &missed, err, errlen))
			return -1;
		if (lost != tr->lost) {
			cs_trace_bad(err, errlen, "corrupted",
				     off + offsetof(struct cs_trace_trailer, lost),
				     "trailer counts %llu lost events, the ring-full and NMI "
				     "loss records add up to %llu", (unsigned long long)tr->lost,
				     (unsigned long long)lost);
			return -1;
		}
		if (missed != tr->missed) {
			cs_trace_bad(err, errlen, "corrupted",
				     off + offsetof(struct cs_trace_trailer, missed),
				     "trailer counts %llu missed events, the recursion-miss "
				     "loss records add up to %llu", (unsigned long long)tr->missed,
				     (unsigned long long)missed);
			return -1;
		}
	}
	return 0;
}

/*
 * The symbols of trailer tr at off into t->syms (freed by the caller on
 * failure). 0, or -1 with the reason in err.
 */
static int load_syms(const unsigned char *p, struct cs_trace *t,
		     const struct cs_trace_trailer *tr, __u64 off, char *err, size_t errlen)
{
	const char *strtab = trailer_strtab(p, off, tr);
	__u64 i;

	if (tr->nr_syms) {
		t->syms = calloc(tr->nr_syms, sizeof(*t->syms));
		if (!t->syms) {
			cs_trace_bad(err, errlen, "out of memory", off, "%u symbols", tr->nr_syms);
			return -1;
		}
	}
	for (i = 0; i < tr->nr_syms; i++) {
		__u64 soff = off + sizeof(*tr) + i * sizeof(struct cs_trace_fsym);
		struct cs_trace_fsym fs;

		memcpy(&fs, p + soff, sizeof(fs));
		if (fs.name_off >= tr->strtab_size) {
			cs_trace_bad(err, errlen, "corrupted",
				     soff + offsetof(struct cs_trace_fsym, name_off),
				     "symbol name offset %u outside the %u-byte string table",
				     fs.name_off, tr->strtab_size);
			return -1;
		}
		if (fs.module_off != CS_TRACE_NO_MODULE && fs.module_off >= tr->strtab_size) {
			cs_trace_bad(err, errlen, "corrupted",
				     soff + offsetof(struct cs_trace_fsym, module_off),
				     "module name offset %u outside the %u-byte string table",
				     fs.module_off, tr->strtab_size);
			return -1;
		}
		if (i && fs.addr <= t->syms[i - 1].addr) {
			cs_trace_bad(err, errlen, "corrupted", soff,
				     "symbol 0x%llx is not above the previous one (0x%llx): "
				     "the snapshot must be sorted and unique",
				     (unsigned long long)fs.addr,
				     (unsigned long long)t->syms[i - 1].addr);
			return -1;
		}
		t->syms[i].addr = fs.addr;
		t->syms[i].name = strtab + fs.name_off;
		t->syms[i].module = fs.module_off == CS_TRACE_NO_MODULE ? NULL :
				    strtab + fs.module_off;
	}
	return 0;
}

/* The strict path: footer, trailer, records, symbols. */
static int parse_complete(const unsigned char *p, size_t len, struct cs_trace *t,
			  char *err, size_t errlen)
{
	const struct cs_trace_header *h = &t->hdr;
	struct cs_trace_trailer tr;
	__u64 off = 0;	/* (read_footer() sets it unless it fails) */

	if (read_footer(p, len, h, &off, err, errlen) ||
	    read_trailer(p, len, h, off, &tr, err, errlen))
		return -1;
	if (load_records(p, t, tr.nr_records, err, errlen))
		return -1;
	if (cs_trace_check_snapshots(t, &t->nr_events, false, err, errlen) ||
	    check_trailer_totals(t, &tr, off, err, errlen) ||
	    load_syms(p, t, &tr, off, err, errlen))
		goto fail;
	t->nr_syms = tr.nr_syms;
	t->lost = tr.lost;
	t->missed = tr.missed;
	t->end_ns = tr.end_ns;
	if (cs_trace_check_strings(t, p, err, errlen))
		goto fail;
	return 0;
fail:
	free(t->syms);
	free(t->copy);
	t->syms = NULL;
	t->nr_syms = 0;
	t->copy = NULL;
	t->events = NULL;
	t->nr_events = 0;
	t->lost = t->missed = t->end_ns = 0;
	return -1;
}

/* The file ends in the end marker: the recorder finished it. */
static bool has_footer(const unsigned char *p, size_t len,
		       const struct cs_trace_header *h)
{
	return len >= h->header_size + sizeof(struct cs_trace_footer) &&
	       !memcmp(p + len - sizeof(CS_TRACE_END_MAGIC), CS_TRACE_END_MAGIC,
		       sizeof(CS_TRACE_END_MAGIC));
}

static bool all_zero(const unsigned char *p, size_t n)
{
	return !n || (!p[0] && !memcmp(p, p + 1, n - 1));
}

/*
 * The salvaging path: whole records from the header on, up to the first
 * partial one, the trailer magic (the recorder died while finishing) or
 * an all-zero record (allocated, never written).
 */
static int parse_salvage(const unsigned char *p, size_t len, struct cs_trace *t,
			 char *err, size_t errlen)
{
	const struct cs_trace_header *h = &t->hdr;
	__u64 nr, i, last_ts = h->start_ns;

	for (nr = 0; h->header_size + (nr + 1) * h->record_size <= len; nr++) {
		const unsigned char *r = p + h->header_size + nr * h->record_size;

		if (!memcmp(r, CS_TRACE_TRAILER_MAGIC, sizeof(CS_TRACE_TRAILER_MAGIC)) ||
		    all_zero(r, h->record_size))
			break;
	}
	if (load_records(p, t, nr, err, errlen))
		return -1;
	/* (the totals are the loss records', not added to anything) */
	if (cs_trace_check_snapshots(t, &t->nr_events, true, err, errlen) ||
	    sum_loss(t, &t->lost, &t->missed, err, errlen)) {
		free(t->copy);
		t->copy = NULL;
		t->events = NULL;
		t->nr_events = 0;
		t->lost = t->missed = 0;
		return -1;
	}
	nr = t->nr_events;	/* less a snapshot cut short */
	for (i = 0; i < nr; i++)
		if (t->events[i].ts > last_ts)
			last_ts = t->events[i].ts;
	t->end_ns = last_ts;
	t->salvaged = true;
	t->dropped = len - (h->header_size + nr * h->record_size);
	return 0;
}

int cs_trace_parse_flags(const void *buf, size_t len, unsigned int flags,
			 struct cs_trace *t, char *err, size_t errlen)
{
	const unsigned char *p = buf;

	memset(t, 0, sizeof(*t));
	if (err && errlen)
		err[0] = '\0';
	if (parse_header(p, len, t, err, errlen))
		return -1;
	/*
	 * Salvage only what was cut short: a file that ends in a footer
	 * finished, and whatever is wrong with it is an error.
	 */
	if (!(flags & CS_TRACE_SALVAGE) || has_footer(p, len, &t->hdr))
		return parse_complete(p, len, t, err, errlen);
	if (parse_salvage(p, len, t, err, errlen))
		return -1;
	/* No symbols when salvaged: this checks the header's strings. */
	if (cs_trace_check_strings(t, p, err, errlen)) {
		cs_trace_free(t);
		return -1;
	}
	return 0;
}

int cs_trace_parse(const void *buf, size_t len, struct cs_trace *t,
		   char *err, size_t errlen)
{
	return cs_trace_parse_flags(buf, len, 0, t, err, errlen);
}

static unsigned int default_flags;

void cs_trace_set_default_flags(unsigned int flags)
{
	default_flags = flags;
}

int cs_trace_read_flags(const char *path, unsigned int flags, struct cs_trace *t,
			char *err, size_t errlen)
{
	struct stat st;
	size_t got = 0;
	void *buf;
	int fd;

	memset(t, 0, sizeof(*t));
	/* O_NONBLOCK: a FIFO opens at once and is refused below, never waited on */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(err, errlen, "cannot open: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "not a regular file");
		close(fd);
		return -1;
	}
	/* at least 8 bytes even for an empty file: 8-byte aligned records */
	buf = aligned_alloc(8, ((size_t)st.st_size + 8) & ~(size_t)7);
	if (!buf) {
		snprintf(err, errlen, "out of memory for %lld bytes", (long long)st.st_size);
		close(fd);
		return -1;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, (char *)buf + got, st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(err, errlen, "read error at byte offset %zu: %s", got,
				 n < 0 ? strerror(errno) : "file shrank");
			free(buf);
			close(fd);
			return -1;
		}
		got += n;
	}
	close(fd);
	if (cs_trace_parse_flags(buf, got, flags, t, err, errlen)) {
		free(buf);
		return -1;
	}
	t->buf = buf;
	t->len = got;
	if (t->salvaged) {
		char name[CS_SAFE_STR_LEN(1024)];

		fprintf(stderr, "%s: salvaged %zu whole records; dropped %llu bytes "
			"from byte offset %llu; no trailer: symbols and loss totals are "
			"unavailable (lost/missed count only in-stream loss records)\n",
			cs_safe_str(path, name, sizeof(name)), t->nr_events,
			(unsigned long long)t->dropped,
			(unsigned long long)(got - t->dropped));
	}
	return 0;
}

int cs_trace_read(const char *path, struct cs_trace *t, char *err, size_t errlen)
{
	return cs_trace_read_flags(path, default_flags, t, err, errlen);
}

void cs_trace_free(struct cs_trace *t)
{
	free(t->syms);
	free(t->copy);
	free(t->buf);
	memset(t, 0, sizeof(*t));
}

const struct cs_trace_sym *cs_trace_sym_find(const struct cs_trace *t, __u64 addr)
{
	size_t lo = 0, hi = t->nr_syms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].addr == addr)
			return &t->syms[mid];
		if (t->syms[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *cs_trace_source_name(__u32 source)
{
	return source == CS_TRACE_SOURCE_TRACEPOINTS ? "tracepoints" :
	       source == CS_TRACE_SOURCE_PROBES ? "probes" : "?";
}
