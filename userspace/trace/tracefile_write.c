// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope trace files: the writer (see tracefile.h; tracefile.c is the
 * reader).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "symname.h"
#include "tracefile.h"

/* --- writer --------------------------------------------------------------- */

struct cs_trace_writer {
	FILE *f;
	char *path;
	__u64 nr;
	__u32 version, record_size, source;
	bool created;		/* cs_trace_open() made the file */
	bool begun;		/* cs_trace_begin() truncated it */
	int err;		/* first write error, -errno */
};

static void w_put(struct cs_trace_writer *w, const void *p, size_t n)
{
	if (!w->err && n && fwrite(p, 1, n, w->f) != n)
		w->err = errno ? -errno : -EIO;
}

static bool write_refused;

void cs_trace_write_refused_strings(bool on)
{
	write_refused = on;
}

struct cs_trace_writer *cs_trace_open(const char *path, unsigned int flags, const char **why)
{
	struct cs_trace_writer *w;
	const char *unused;
	int fd, saved;

	if (!why)
		why = &unused;
	*why = strerror(ENOMEM);
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->version = CS_TRACE_VERSION;
	w->record_size = sizeof(struct cs_rec_event);
	w->path = strdup(path);
	if (!w->path)
		goto fail;
	/*
	 * An existing file is truncated only when recording begins. It
	 * must be a regular file (a FIFO would take the trace away, and
	 * the trailer needs an offset) that is ours (outfile.h).
	 */
	fd = cs_out_open(AT_FDCWD, path, flags, &w->created, why);
	if (fd < 0)
		goto fail;
	w->f = fdopen(fd, "wb");
	if (!w->f) {
		saved = errno;
		*why = strerror(saved);
		close(fd);
		errno = saved;
		goto fail;
	}
	setvbuf(w->f, NULL, _IOFBF, 1 << 20);
	return w;
fail:
	saved = errno;
	if (w->created)
		unlink(path);
	free(w->path);
	free(w);
	errno = saved;
	return NULL;
}

int cs_trace_set_layout(struct cs_trace_writer *w, __u32 version, __u32 record_size)
{
	if (w->begun || version < CS_TRACE_VERSION_MIN || version > CS_TRACE_VERSION ||
	    record_size < sizeof(struct cs_rec_event))
		return -EINVAL;
	w->version = version;
	w->record_size = record_size;
	return 0;
}

int cs_trace_set_source(struct cs_trace_writer *w, __u32 source)
{
	if (w->begun || source >= CS_TRACE_SOURCE_MAX ||
	    (source && w->version < 2))
		return -EINVAL;
	w->source = source;
	return 0;
}

int cs_trace_begin(struct cs_trace_writer *w, const char *release,
		   const char *boot_id, __u64 start_ns)
{
	struct cs_trace_header h;
	struct stat st;
	int fd = fileno(w->f);

	if (w->begun)
		return -EINVAL;
	/* nothing the reader would refuse (symname.h) */
	if (!write_refused &&
	    ((release && (cs_release_bad(release) >= 0 ||
			  strlen(release) >= sizeof(h.release))) ||
	     (boot_id && (cs_boot_id_bad(boot_id) >= 0 ||
			  strlen(boot_id) >= sizeof(h.boot_id)))))
		return -EINVAL;
	w->begun = true;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && ftruncate(fd, 0))
		return w->err = -errno;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, CS_TRACE_MAGIC, sizeof(h.magic));
	h.version = w->version;
	h.header_size = CS_TRACE_HEADER_SIZE;
	h.record_size = w->record_size;
	h.clock = CS_TRACE_CLOCK_MONOTONIC;
	h.start_ns = start_ns;
	h.source = w->source;
	snprintf(h.release, sizeof(h.release), "%s", release ? release : "");
	snprintf(h.boot_id, sizeof(h.boot_id), "%s", boot_id ? boot_id : "");
	w_put(w, &h, sizeof(h));
	return w->err;
}

struct cs_trace_writer *cs_trace_create(const char *path, const char *release,
					const char *boot_id, __u64 start_ns)
{
	struct cs_trace_writer *w = cs_trace_open(path, 0, NULL);
	int err;

	if (!w)
		return NULL;
	err = cs_trace_begin(w, release, boot_id, start_ns);
	if (err) {
		cs_trace_discard(w);
		errno = -err;
		return NULL;
	}
	return w;
}

int cs_trace_write(struct cs_trace_writer *w, const struct cs_rec_event *e, size_t n)
{
	static const char zero[256];
	size_t i, tail = w->record_size - sizeof(*e);

	if (!w->begun)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if ((e[i].type == CS_REC_LOSS && w->version < 2) ||
		    (e[i].type == CS_REC_SNAPSHOT && w->version < 3))
			return -EINVAL;
	if (!tail) {
		w_put(w, e, n * sizeof(*e));
	} else {
		for (i = 0; i < n; i++) {
			size_t left = tail;

			w_put(w, &e[i], sizeof(*e));
			while (left) {
				size_t k = left < sizeof(zero) ? left : sizeof(zero);

				w_put(w, zero, k);
				left -= k;
			}
		}
	}
	if (!w->err)
		w->nr += n;
	return w->err;
}

__u64 cs_trace_written(const struct cs_trace_writer *w)
{
	return w->nr;
}

int cs_trace_flush(struct cs_trace_writer *w)
{
	if (!w->err && fflush(w->f))
		w->err = errno ? -errno : -EIO;
	return w->err;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct cs_trace_sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int cs_trace_finish(struct cs_trace_writer *w, __u64 lost, __u64 missed,
		    __u64 end_ns, const struct cs_trace_sym *syms, size_t nr_syms)
{
	struct cs_trace_sym *sorted = NULL;
	struct cs_trace_trailer tr;
	struct cs_trace_footer ft;
	size_t i, n = 0, strsz = 0;
	__u32 off = 0;
	long pos;
	int err;

	if (!w->begun) {
		cs_trace_abort(w);
		return -EINVAL;
	}
	/* a name the reader would refuse (symname.h): the caller's bug */
	for (i = 0; i < nr_syms && !write_refused; i++) {
		const char *why;

		if (!syms[i].name || cs_symname_bad(syms[i].name, &why) >= 0 ||
		    (syms[i].module && cs_modname_bad(syms[i].module, &why) >= 0)) {
			cs_trace_abort(w);
			return -EINVAL;
		}
	}
	if (nr_syms) {
		sorted = malloc(nr_syms * sizeof(*sorted));
		if (!sorted) {
			cs_trace_abort(w);
			return -ENOMEM;
		}
		memcpy(sorted, syms, nr_syms * sizeof(*sorted));
		qsort(sorted, nr_syms, sizeof(*sorted), cmp_sym);
		for (i = 0; i < nr_syms; i++) {
			if (n && sorted[n - 1].addr == sorted[i].addr)
				continue;
			sorted[n++] = sorted[i];
		}
		for (i = 0; i < n; i++)
			strsz += strlen(sorted[i].name) + 1 +
				 (sorted[i].module ? strlen(sorted[i].module) + 1 : 0);
	}
	if (strsz > UINT32_MAX / 2 || n > UINT32_MAX / 64) {
		free(sorted);
		cs_trace_abort(w);
		return -E2BIG;
	}
	pos = ftell(w->f);
	memset(&tr, 0, sizeof(tr));
	memcpy(tr.magic, CS_TRACE_TRAILER_MAGIC, sizeof(tr.magic));
	tr.nr_syms = n;
	tr.strtab_size = strsz;
	tr.trailer_size = sizeof(tr) + n * sizeof(struct cs_trace_fsym) + strsz;
	tr.nr_records = w->nr;
	tr.lost = lost;
	tr.missed = missed;
	tr.end_ns = end_ns;
	w_put(w, &tr, sizeof(tr));
	for (i = 0; i < n; i++) {
		struct cs_trace_fsym fs = { .addr = sorted[i].addr, .name_off = off };

		off += strlen(sorted[i].name) + 1;
		fs.module_off = CS_TRACE_NO_MODULE;
		if (sorted[i].module) {
			fs.module_off = off;
			off += strlen(sorted[i].module) + 1;
		}
		w_put(w, &fs, sizeof(fs));
	}
	for (i = 0; i < n; i++) {
		w_put(w, sorted[i].name, strlen(sorted[i].name) + 1);
		if (sorted[i].module)
			w_put(w, sorted[i].module, strlen(sorted[i].module) + 1);
	}
	free(sorted);
	memset(&ft, 0, sizeof(ft));
	ft.trailer_off = pos < 0 ? 0 : (__u64)pos;
	memcpy(ft.magic, CS_TRACE_END_MAGIC, sizeof(ft.magic));
	w_put(w, &ft, sizeof(ft));
	if (pos < 0 && !w->err)
		w->err = -errno;
	if (fflush(w->f) && !w->err)
		w->err = -errno;
	if (!w->err && fsync(fileno(w->f)) && errno != EINVAL && errno != EROFS)
		w->err = -errno;
	if (fclose(w->f) && !w->err)
		w->err = -errno;
	err = w->err;
	free(w->path);
	free(w);
	return err;
}

void cs_trace_abort(struct cs_trace_writer *w)
{
	if (!w)
		return;
	fclose(w->f);
	free(w->path);
	free(w);
}

void cs_trace_discard(struct cs_trace_writer *w)
{
	if (!w)
		return;
	if (w->created || w->begun)
		unlink(w->path);
	cs_trace_abort(w);
}
