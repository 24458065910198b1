// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope record: the addresses seen and the trailer's symbol
 * snapshot; the header's strings (record_syms.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#define HASH_NONFATAL_OOM 1	/* a failed add leaves the item's hh.tbl NULL */
#include <uthash.h>

#include "chainscope.h"
#include "record_events.h"
#include "record_syms.h"
#include "symname.h"

/* --- addresses seen, for the symbol snapshot -------------------------------- */

static struct seen_addr {
	__u64 addr;
	UT_hash_handle hh;
} *seen;

/* Best effort: an address we cannot keep only goes without a name. */
void cs_rec_seen_add(__u64 a)
{
	struct seen_addr *s;

	if (!a)
		return;
	HASH_FIND(hh, seen, &a, sizeof(a), s);
	if (s)
		return;
	s = malloc(sizeof(*s));
	if (!s)
		return;
	s->addr = a;
	HASH_ADD(hh, seen, addr, sizeof(s->addr), s);
	if (!s->hh.tbl)
		free(s);
}

void cs_rec_seen_free(void)
{
	struct seen_addr *s, *tmp;

	HASH_ITER(hh, seen, s, tmp) {
		HASH_DEL(seen, s);
		free(s);
	}
}

void cs_rec_boot_id(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/*
 * The trace's header: this kernel's release and boot id (left out, with
 * a warning, where the reader would refuse them) and the source; flushed,
 * so that a recording killed has a header at least. 0 or -errno.
 */
int cs_rec_begin(struct cs_trace_writer *w, const char *cmd, bool probes)
{
	char boot_id[48];
	struct utsname uts;
	int err;

	uname(&uts);
	cs_rec_boot_id(boot_id, sizeof(boot_id));
	/* (the reader refuses what no kernel writes: leave it out, say so) */
	if (cs_release_bad(uts.release) >= 0) {
		warn("%s: warning: kernel release not stored: not printable ASCII "
		     "without spaces\n", cmd);
		uts.release[0] = '\0';
	}
	if (cs_boot_id_bad(boot_id) >= 0) {
		warn("%s: warning: boot id not stored: bytes other than [0-9a-f-]\n",
		     cmd);
		boot_id[0] = '\0';
	}
	err = cs_trace_set_source(w, probes ? CS_TRACE_SOURCE_PROBES :
				  CS_TRACE_SOURCE_TRACEPOINTS);
	if (!err)
		err = cs_trace_begin(w, uts.release, boot_id, rec_mono_ns());
	if (!err)
		cs_trace_flush(w);
	return err;
}

/*
 * Names for the addresses seen: kallsyms now, else as it was at start.
 * Only names the trace reader takes (symname.h) are stored: the writer
 * never writes a file its own reader refuses. A kernel has no other
 * names, so one that fails is not stored (its address shows as a number)
 * and counted in *bad, the first one kept in bad_name.
 */
struct cs_trace_sym *cs_rec_snapshot(const struct ksyms *now, const struct ksyms *before,
			      size_t *nr, size_t *bad, char *bad_name, size_t bad_len)
{
	struct cs_trace_sym *syms;
	struct seen_addr *sa, *tmp;
	size_t n = 0;

	*nr = 0;
	*bad = 0;
	syms = calloc(HASH_COUNT(seen) ? HASH_COUNT(seen) : 1, sizeof(*syms));
	if (!syms)
		return NULL;
	HASH_ITER(hh, seen, sa, tmp) {
		const struct ksyms *ks = now;
		const struct ksym *s = NULL;
		char name[CS_SYMSTR_LEN];
		const char *why;
		__u64 a = sa->addr;

		if (ks)
			s = ksyms__map_addr(ks, a, NULL);
		if (!s && before) {
			ks = before;
			s = ksyms__map_addr(ks, a, NULL);
		}
		if (!s)
			continue;	/* heap blocks and the like: no name */
		ksyms__format(ks, a, name, sizeof(name));
		if (cs_symname_bad(name, &why) >= 0 ||
		    (s->module && cs_modname_bad(s->module, &why) >= 0)) {
			if (!(*bad)++)
				snprintf(bad_name, bad_len, "%s%s%s at 0x%llx", name,
					 s->module ? " in " : "", s->module ? s->module : "",
					 (unsigned long long)a);
			continue;
		}
		syms[n].addr = a;
		syms[n].name = strdup(name);
		syms[n].module = s->module ? strdup(s->module) : NULL;
		if (!syms[n].name || (s->module && !syms[n].module)) {
			free((char *)syms[n].name);
			free((char *)syms[n].module);
			break;
		}
		n++;
	}
	*nr = n;
	return syms;
}
