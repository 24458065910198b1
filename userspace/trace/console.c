// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Console and tracefs text input: see console.h. Every byte is matched
 * against what the kernel prints; nothing is looked up, run or escaped
 * (the names that reach the trace are in the symbol alphabet).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <uthash.h>

#include "console.h"
#include "safestr.h"
#include "symname.h"
#include "trace_conv.h"
#include "tracedat.h"
#include "tracefile.h"

/* --- matching ------------------------------------------------------------ */

struct cur {
	const char *p, *e;
};

static bool isdig(char ch)
{
	return ch >= '0' && ch <= '9';
}

static bool lit(struct cur *c, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(c->e - c->p) < n || memcmp(c->p, s, n))
		return false;
	c->p += n;
	return true;
}

static void spaces(struct cur *c)
{
	while (c->p < c->e && *c->p == ' ')
		c->p++;
}

/* n digits exactly (n > 0), or 1..-n digits (n < 0), as a number */
static bool digits(struct cur *c, int n, __u64 *v)
{
	int max = n > 0 ? n : -n, i;
	__u64 x = 0;

	for (i = 0; i < max && c->p < c->e && isdig(*c->p); i++, c->p++)
		x = x * 10 + (__u64)(*c->p - '0');
	*v = x;
	return i && (n < 0 || i == n);
}

/* %lu: 0, or no leading zero, up to 2^64 - 1 */
static bool dec_u64(struct cur *c, __u64 *v)
{
	const char *p = c->p;
	__u64 x = 0;

	if (p == c->e || !isdig(*p) || (*p == '0' && p + 1 < c->e && isdig(p[1])))
		return false;
	for (; p < c->e && isdig(*p); p++) {
		if (x > (UINT64_MAX - (__u64)(*p - '0')) / 10)
			return false;
		x = x * 10 + (__u64)(*p - '0');
	}
	c->p = p;
	*v = x;
	return true;
}

/* %d */
static bool dec_s32(struct cur *c, __s32 *v)
{
	bool neg = lit(c, "-");
	__u64 x;

	if (!dec_u64(c, &x) || (neg && !x) || x > (neg ? 0x80000000ULL : 0x7fffffffULL))
		return false;
	*v = neg ? (__s32)(-(long long)x) : (__s32)x;
	return true;
}

/*
 * lower-case hex: exactly n digits (n > 0; %p: 16, hashed or not, the value
 * is the block's identity), or %lx: 1..16 without leading zero
 */
static bool hex(struct cur *c, int n, __u64 *v)
{
	int i, max = n > 0 ? n : 16;
	__u64 x = 0;

	if (n <= 0 && c->p + 1 < c->e && c->p[0] == '0' && cs_hex_char((unsigned char)c->p[1]))
		return false;
	for (i = 0; i < max && c->p < c->e && cs_hex_char((unsigned char)*c->p); i++, c->p++)
		x = x << 4 | (__u64)(isdig(*c->p) ? *c->p - '0' : *c->p - 'a' + 10);
	*v = x;
	return i && (n <= 0 || i == n) && !(c->p < c->e && cs_hex_char((unsigned char)*c->p));
}

/* one of words, ending at a space or the end of the line */
static bool word(struct cur *c, const char *const *w, int n, int *idx)
{
	int i;

	for (i = 0; i < n; i++) {
		size_t l = strlen(w[i]);

		if ((size_t)(c->e - c->p) >= l && !memcmp(c->p, w[i], l) &&
		    (c->p + l == c->e || c->p[l] == ' ')) {
			c->p += l;
			*idx = i;
			return true;
		}
	}
	return false;
}

static const char *const kinds[] = { "raw", "atomic", "blocking", "srcu" };
static const char *const types[] = { "plain", "robust", "rollback" };
static const char *const rets[] = { "DONE", "OK", "STOP", "BAD" };
static const __s32 ret_vals[] = { 0, 1, 0x8001, 0x8002 };

/* show_notifier_ret(): a name, or "0x%lx" of the int (sign-extended) */
static bool ret_field(struct cur *c, __s32 *v)
{
	__u64 x;
	int i;

	if (word(c, rets, 4, &i)) {
		*v = ret_vals[i];
		return true;
	}
	if (!lit(c, "0x") || !hex(c, 0, &x))
		return false;
	if (x > 0x7fffffffULL && x < 0xffffffff80000000ULL)
		return false;
	*v = (__s32)(__u32)x;
	for (i = 0; i < 4; i++)
		if (*v == ret_vals[i])
			return false;	/* the kernel prints its name */
	return true;
}

/* %ps of cb: "name", "name [module]", or "0x%lx" where no symbol has it */
struct cbtok {
	const char *tok;	/* "name" or "name [module]", as printed */
	size_t len, nlen;	/* of tok, of the name in it */
	__u64 addr;		/* unnamed: the address */
};

static bool cb_field(struct cur *c, struct cbtok *t)
{
	const char *s = c->p, *m;
	size_t n;

	while (c->p < c->e && *c->p != ' ')
		c->p++;
	n = c->p - s;
	memset(t, 0, sizeof(*t));
	if (n >= 2 && s[0] == '0' && s[1] == 'x') {
		struct cur h = { s + 2, c->p };

		/* no stand-in address is ever read as one */
		return hex(&h, 0, &t->addr) && h.p == c->p &&
		       (t->addr >> 48) != (CS_CONSOLE_SYM_BASE >> 48);
	}
	if (!n || n > CS_SYMNAME_MAX)
		return false;
	for (m = s; m < c->p; m++)
		if (!cs_sym_char((unsigned char)*m))
			return false;	/* %ps prints no offset */
	t->tok = s;
	t->nlen = t->len = n;
	if (c->e - c->p >= 2 && c->p[0] == ' ' && c->p[1] == '[') {
		for (m = c->p + 2; m < c->e && *m != ']'; m++)
			if ((!cs_sym_char((unsigned char)*m) || *m == '$') && *m != '-')
				return false;
		if (m == c->e || m == c->p + 2 || m - (c->p + 2) >= CS_MODNAME_MAX)
			return false;
		c->p = m + 1;
		t->len = c->p - s;
	}
	return true;
}

/* --- a line -------------------------------------------------------------- */

static const struct {
	const char *name;	/* with ": " */
	unsigned int type;
} events[] = {
	{ "notifier_register: ", CS_REC_REGISTER },
	{ "notifier_unregister: ", CS_REC_UNREGISTER },
	{ "notifier_register_error: ", CS_REC_REGISTER_ERROR },
	{ "notifier_unregister_error: ", CS_REC_UNREGISTER_ERROR },
	{ "notifier_run: ", CS_REC_RUN },
	{ "notifier_return: ", CS_REC_RETURN },
	{ "notifier_call_begin: ", CS_REC_CALL_BEGIN },
	{ "notifier_call_end: ", CS_REC_CALL_END },
};

enum { BODY_OTHER, BODY_BAD, BODY_OURS, BODY_STOCK };

/*
 * Whether the text starts with the name of an event of ours (or of the
 * notifier_stop of the 9-event set), whole or cut short by the end of the
 * line or a byte no name has: an event of ours that lost bytes. Other
 * messages that start with "notifier_" (notifier_kunit: ...) do not.
 */
static bool our_name(const struct cur *c)
{
	size_t n = 0, i, l;

	while (c->p + n < c->e && ((c->p[n] >= 'a' && c->p[n] <= 'z') || c->p[n] == '_'))
		n++;
	if (n < 9)
		return false;
	for (i = 0; i <= sizeof(events) / sizeof(events[0]); i++) {
		const char *name = i < sizeof(events) / sizeof(events[0]) ? events[i].name :
				   "notifier_stop: ";

		l = strlen(name) - 2;
		if (!memcmp(c->p, name, n < l ? n : l) &&
		    (n == l || (n < l && (c->p + n == c->e || c->p[n] != ':'))))
			return true;
	}
	return false;
}

/* the text after the prefix: one of our events exactly, into e and cb */
static int body(struct cur *c, struct cs_rec_event *e, struct cbtok *cb)
{
	size_t i;
	int k, ty;

	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (lit(c, events[i].name))
			break;
	if (i == sizeof(events) / sizeof(events[0]))
		return our_name(c) ? BODY_BAD : BODY_OTHER;
	e->type = events[i].type;
	memset(cb, 0, sizeof(*cb));
	if (e->type == CS_REC_CALL_BEGIN || e->type == CS_REC_CALL_END) {
		if (!lit(c, "head=") || !hex(c, 16, &e->head) || !lit(c, " kind=") ||
		    !word(c, kinds, 4, &k) || !lit(c, " val=") || !dec_u64(c, &e->val) ||
		    !lit(c, " nr_to_call=") || !dec_s32(c, &e->nr_to_call) ||
		    !lit(c, " type=") || !word(c, types, 3, &ty))
			return BODY_BAD;
		e->kind = k;
		e->call_type = ty;
		if (e->type == CS_REC_CALL_END &&
		    (!lit(c, " ret=") || !ret_field(c, &e->ret) || !lit(c, " nr_calls=") ||
		     !dec_s32(c, &e->nr_calls)))
			return BODY_BAD;
		return c->p == c->e ? BODY_OURS : BODY_BAD;
	}
	if (!cb_field(c, cb))
		return BODY_BAD;
	/* upstream's three events print "%ps" alone */
	if (c->p == c->e && (e->type == CS_REC_REGISTER || e->type == CS_REC_UNREGISTER ||
			     e->type == CS_REC_RUN))
		return BODY_STOCK;
	if (!lit(c, " head=") || !hex(c, 16, &e->head) || !lit(c, " nb=") || !hex(c, 16, &e->nb) ||
	    !lit(c, " priority=") || !dec_s32(c, &e->priority) || !lit(c, " kind=") ||
	    !word(c, kinds, 4, &k))
		return BODY_BAD;
	e->kind = k;
	if ((e->type == CS_REC_REGISTER_ERROR || e->type == CS_REC_UNREGISTER_ERROR) &&
	    (!lit(c, " err=") || !dec_s32(c, &e->ret)))
		return BODY_BAD;
	if ((e->type == CS_REC_RUN || e->type == CS_REC_RETURN) &&
	    (!lit(c, " val=") || !dec_u64(c, &e->val)))
		return BODY_BAD;
	if (e->type == CS_REC_RETURN && (!lit(c, " ret=") || !ret_field(c, &e->ret)))
		return BODY_BAD;
	return c->p == c->e ? BODY_OURS : BODY_BAD;
}

/* who and when a line says: nothing, a printk prefix, a trace file's */
struct pfx {
	bool has_ts, has_task, int_ts, tracefs;
	__u64 ts;
	__u32 pid, cpu;
	__u8 ctx;
};

/* "SECS.USEC" (%5lu.%06lu) into ns */
static bool secs(struct cur *c, __u64 *ns)
{
	__u64 s, us;

	if (!digits(c, -10, &s) || !lit(c, ".") || !digits(c, 6, &us))
		return false;
	*ns = s * 1000000000ULL + us * 1000;
	return true;
}

/* [<N>]["[" SECS.USEC "]"]["[" T|C N "]"] " " */
static void printk_prefix(struct cur *c, struct pfx *x, unsigned int *flags)
{
	struct cur s = *c;
	__u64 v;
	bool any = false;

	if (lit(&s, "<") && (!digits(&s, -3, &v) || !lit(&s, ">")))
		s = *c;
	if (lit(&s, "[")) {
		struct cur t = s;

		spaces(&t);
		if (secs(&t, &x->ts) && lit(&t, "]")) {
			x->has_ts = any = true;
			s = t;
		} else {
			s.p--;
		}
	}
	if (lit(&s, "[")) {
		struct cur t = s;
		char who;

		spaces(&t);
		who = t.p < t.e ? *t.p : 0;
		t.p += who == 'T' || who == 'C';
		if ((who == 'T' || who == 'C') && digits(&t, -10, &v) && v <= UINT32_MAX &&
		    lit(&t, "]")) {
			x->has_task = any = true;
			x->pid = who == 'T' ? (__u32)v : 0;
			x->cpu = who == 'C' ? (__u32)v : 0;
			x->ctx = who == 'C' ? CS_REC_CTX_HARDIRQ : CS_REC_CTX_TASK;
			s = t;
		} else {
			s.p--;
		}
	}
	if (any && lit(&s, " ")) {
		*c = s;
		*flags |= (x->has_ts ? CS_CONSOLE_PRINTK : 0) | (x->has_task ? CS_CONSOLE_CALLER : 0);
	} else {
		*x = (struct pfx){ 0 };
	}
}

/* trace_print_lat_fmt(): irqs-off, need-resched, hard/softirq, preempt[, migrate] */
static bool lat_flags(struct cur *c, __u8 *ctx)
{
	static const char *const sets[5] = { "DdbX.", "BNLbnp.", "ZzHhs.",
					     "0123456789abcdef.", "0123456789abcdef." };
	int i;

	for (i = 0; i < 5 && c->p + i < c->e && c->p[i] != ' '; i++)
		if (!strchr(sets[i], c->p[i]))
			return false;
	if (i < 4 || c->p + i == c->e)
		return false;
	*ctx = strchr("Zz", c->p[2]) ? CS_REC_CTX_NMI : strchr("Hh", c->p[2]) ?
	       CS_REC_CTX_HARDIRQ : c->p[2] == 's' ? CS_REC_CTX_SOFTIRQ : CS_REC_CTX_TASK;
	c->p += i;
	return true;
}

/* "%16s-%-7d [(TGID) ][%03d] [FLAGS] %5lu.%06lu: ", from a '-' after the comm */
static bool tracefs_at(struct cur *c, const char *dash, struct pfx *out)
{
	struct cur s = { dash + 1, c->e }, t;
	struct pfx p = { 0 }, *x = &p;
	__u64 pid, cpu, v;

	if (!digits(&s, -10, &pid) || pid > UINT32_MAX || !lit(&s, " "))
		return false;
	spaces(&s);
	if (lit(&s, "(")) {
		spaces(&s);
		if (!lit(&s, "-------") && !digits(&s, -10, &v))
			return false;
		if (!lit(&s, ") "))
			return false;
		spaces(&s);
	}
	if (!lit(&s, "[") || !digits(&s, -6, &cpu) || cpu > UINT32_MAX - 1 || !lit(&s, "] "))
		return false;
	x->ctx = CS_REC_CTX_TASK;
	if (s.p < s.e && *s.p != ' ' && !lat_flags(&s, &x->ctx))
		return false;
	if (!lit(&s, " "))
		return false;
	spaces(&s);
	t = s;
	if (secs(&t, &x->ts)) {
		x->has_ts = true;
		s = t;
	} else if (digits(&s, -20, &v)) {
		x->int_ts = true;	/* counter, x86-tsc: not in seconds */
	} else {
		return false;
	}
	if (!lit(&s, ": "))
		return false;
	x->has_task = x->tracefs = true;
	x->pid = (__u32)pid;
	x->cpu = (__u32)cpu;
	*c = s;
	*out = p;
	return true;
}

static bool tracefs_prefix(struct cur *c, struct pfx *x)
{
	const char *d;

	for (d = c->p; d < c->e && d - c->p < 64; d++)
		if (*d == '-' && tracefs_at(c, d, x))
			return true;
	return false;
}

/* --- the log ------------------------------------------------------------- */

struct name_ent {
	const char *key;	/* the token as printed, in the log's buffer */
	size_t len, nlen;
	__u64 addr;
	char *name, *module;
	UT_hash_handle hh;
};

struct log {
	struct cs_conv c;
	struct cs_console_info *info;
	struct name_ent *names;
	__u64 last_ts, nr_stock;
	bool has_ours;		/* a line of our format: the log is not stock */
	char release[96];
};

static int name_addr(struct log *l, const struct cbtok *t, __u64 *addr)
{
	struct name_ent *n;

	HASH_FIND(hh, l->names, t->tok, t->len, n);
	if (!n) {
		n = calloc(1, sizeof(*n));
		if (!n || !(n->name = strndup(t->tok, t->nlen)) ||
		    (t->len > t->nlen && !(n->module = strndup(t->tok + t->nlen + 2,
							      t->len - t->nlen - 3)))) {
			if (n)
				free(n->name);
			free(n);
			return cs_conv_fail(&l->c, CS_EXIT_TRACEDAT, "out of memory");
		}
		n->key = t->tok;
		n->len = t->len;
		n->addr = CS_CONSOLE_SYM_BASE + 16 * l->info->nr_names++;
		HASH_ADD_KEYPTR(hh, l->names, n->key, n->len, n);
	}
	*addr = n->addr;
	return 0;
}

/* "Linux version 6.1.0-28-amd64 (...": the release for the header */
static void release_line(struct log *l, struct cur s)
{
	size_t n = 0;

	if (l->release[0] || !lit(&s, "Linux version "))
		return;
	while (s.p + n < s.e && s.p[n] != ' ' && n + 1 < sizeof(l->release))
		n++;
	if (!n || s.p + n == s.e || s.p[n] != ' ')
		return;
	memcpy(l->release, s.p, n);
	l->release[n] = 0;
	if (cs_release_bad(l->release) >= 0)
		l->release[0] = 0;
}

static int lost_line(struct log *l, __u64 ts, __u32 cpu)
{
	l->info->nr_loss++;
	l->info->nr_lost++;
	return cs_conv_loss(&l->c, ts, cpu, 1);
}

static int line(struct log *l, struct cur s)
{
	struct cs_console_info *in = l->info;
	struct cs_rec_event e = { 0 };
	struct pfx x = { 0 };
	struct cbtok cb;
	struct cur b;
	__u64 v, n = 0;
	int kind;

	/* the trace file's loss line */
	b = s;
	if (lit(&b, "CPU:") && digits(&b, -6, &v) && lit(&b, " [LOST ") &&
	    (lit(&b, "EVENTS]") || (dec_u64(&b, &n) && n && lit(&b, " EVENTS]"))) && b.p == b.e) {
		in->nr_loss++;
		in->nr_lost += n ? n : 1;
		return cs_conv_loss(&l->c, l->last_ts, (__u32)v, n);
	}
	printk_prefix(&s, &x, &in->flags);
	release_line(l, s);
	b = s;
	if (lit(&b, "** ") && dec_u64(&b, &n) && n && lit(&b, " printk messages dropped **") &&
	    b.p == b.e) {
		in->nr_loss++;
		in->nr_lost += n;
		return cs_conv_loss(&l->c, l->last_ts, 0, n);
	}
	if (!x.has_ts && !x.has_task && tracefs_prefix(&s, &x))
		in->flags |= CS_CONSOLE_TRACEFS;
	kind = body(&s, &e, &cb);
	if (kind == BODY_OTHER) {
		in->nr_other++;
		return 0;
	}
	/* "notifier_run: NAME" alone in a log of ours: one of ours, cut */
	if (kind == BODY_STOCK && l->has_ours)
		kind = BODY_BAD;
	/* an event of ours, most likely, that lost bytes: it is a loss */
	if (kind == BODY_BAD) {
		in->nr_bad++;
		return lost_line(l, x.has_ts ? x.ts : l->last_ts, x.tracefs ? x.cpu : 0);
	}
	if (x.int_ts)
		return cs_conv_fail(&l->c, CS_EXIT_TRACEDAT_CLOCK, "trace file timestamps "
				    "without a decimal point (a counter or x86-tsc trace_clock): "
				    "not in nanoseconds; use trace_clock=local (or global, mono, "
				    "boot)");
	if (kind == BODY_STOCK) {
		in->flags |= CS_CONSOLE_STOCK;
		l->nr_stock++;
	}
	if (cb.tok && name_addr(l, &cb, &e.cb))
		return l->c.rc;
	if (!cb.tok)
		e.cb = cb.addr;
	if (kind == BODY_STOCK)
		e.nb = e.cb;	/* the callback stands for its block */
	l->c.untimed = !x.has_ts;
	if (x.has_ts)
		l->last_ts = x.ts;
	else
		in->nr_untimed_lines++;
	e.ts = l->last_ts;
	e.pid = x.pid;
	e.cpu = x.cpu;
	e.ctx = x.ctx;
	/* pid 0 is each CPU's idle task; no prefix: one stream */
	e.task = !x.has_task ? 1ULL << 41 : x.pid ? x.pid : (1ULL << 40) | x.cpu;
	if (!x.tracefs)
		e.cpu = 0;	/* a console is one stream: its CPU is not said */
	in->nr_events++;
	return cs_conv_event(&l->c, &e);
}

/* the line from p to its "\n" at nl, without "\r" ("\r\n", a doubled CR's "\r\r\n") */
static struct cur text_of(const char *p, const char *nl)
{
	while (nl > p && nl[-1] == '\r')
		nl--;
	return (struct cur){ p, nl };
}

/* what a line is, prefix and all, without converting it */
static int line_kind(struct cur s)
{
	struct cs_rec_event e;
	struct pfx x = { 0 };
	struct cbtok cb;
	unsigned int flags = 0;

	printk_prefix(&s, &x, &flags);
	if (!x.has_ts && !x.has_task)
		tracefs_prefix(&s, &x);
	return body(&s, &e, &cb);
}

/* whether any line of the log is one of ours in our format (not upstream's) */
static bool has_ours(const char *p, const char *end)
{
	const char *nl;

	for (; p < end && (nl = memchr(p, '\n', end - p)); p = nl + 1)
		if (line_kind(text_of(p, nl)) == BODY_OURS)
			return true;
	return false;
}

static void free_names(struct log *l)
{
	struct name_ent *n, *tmp;

	HASH_ITER(hh, l->names, n, tmp) {
		HASH_DEL(l->names, n);
		free(n->name);
		free(n->module);
		free(n);
	}
}

int cs_console_convert(const char *buf, size_t len, void **img, size_t *imglen,
		       struct cs_console_info *info, char *err, size_t errlen)
{
	struct log l = { .info = info };
	struct cs_conv_sym *syms = NULL;
	struct name_ent *n, *tmp;
	const char *p = buf, *end = buf + len, *nl, *zero;
	size_t i = 0;

	memset(info, 0, sizeof(*info));
	*img = NULL;
	*imglen = 0;
	cs_conv_init(&l.c, CS_EXIT_TRACEDAT, err, errlen);
	l.c.flags = CS_CONV_COARSE;
	zero = memchr(buf, 0, len);
	if (zero) {
		cs_conv_fail(&l.c, CS_EXIT_TRACEDAT, "not a text log: a NUL byte at offset %zu",
			     (size_t)(zero - buf));
		goto out;
	}
	if (len > CS_CONSOLE_MAX_SIZE) {
		cs_conv_fail(&l.c, CS_EXIT_TRACEDAT, "%zu bytes: larger than the %llu MiB read",
			     len, CS_CONSOLE_MAX_SIZE >> 20);
		goto out;
	}
	l.has_ours = has_ours(buf, end);
	for (; p < end && !l.c.rc; p = nl + 1) {
		info->nr_lines++;
		nl = memchr(p, '\n', end - p);
		if (!nl) {
			/* what the log stops in is not a line; if it names one of ours, a loss */
			info->nr_cut_end = 1;
			if (line_kind((struct cur){ p, end }) != BODY_OTHER)
				lost_line(&l, l.last_ts, 0);
			break;
		}
		line(&l, text_of(p, nl));
	}
	if (l.c.rc)
		goto out;
	if (!info->nr_events) {
		cs_conv_fail(&l.c, CS_EXIT_TRACEDAT, "no notifier event of ours in %llu lines "
			     "(%llu lines of our events not in their format); boot with "
			     "trace_event=notifier:* tp_printk", (unsigned long long)info->nr_lines,
			     (unsigned long long)info->nr_bad);
		goto out;
	}
	info->nr_timed = l.c.nr_timed;
	info->nr_untimed = l.c.nr_untimed;
	info->nr_stops = l.c.nr_stops;
	syms = calloc(info->nr_names + 1, sizeof(*syms));
	if (!syms) {
		cs_conv_fail(&l.c, CS_EXIT_TRACEDAT, "out of memory");
		goto out;
	}
	HASH_ITER(hh, l.names, n, tmp)
		syms[i++] = (struct cs_conv_sym){ n->addr, n->name, n->module };
	cs_conv_image(&l.c, syms, i, l.release, CS_EXIT_TRACEDAT_NAME, img, imglen);
out:
	free(syms);
	free_names(&l);
	cs_conv_free(&l.c);
	return l.c.rc;
}

/* --- the file ------------------------------------------------------------ */

/* all of fd (up to CS_CONSOLE_MAX_SIZE) into *buf; 0, or -1 with err set */
static int slurp(int fd, size_t hint, char **buf, size_t *len, char *err, size_t errlen)
{
	size_t cap = hint < (1u << 16) ? (1u << 16) : hint + 1;
	char *p;

	*len = 0;
	*buf = NULL;
	for (;;) {
		ssize_t r;

		if (*len == cap || !*buf) {
			cap = *buf ? cap * 2 : cap;
			p = cap <= CS_CONSOLE_MAX_SIZE + 1 ? realloc(*buf, cap) : NULL;
			if (!p) {
				snprintf(err, errlen, cap > CS_CONSOLE_MAX_SIZE + 1 ?
					 "larger than the %llu MiB read" : "out of memory",
					 CS_CONSOLE_MAX_SIZE >> 20);
				return -1;
			}
			*buf = p;
		}
		r = read(fd, *buf + *len, cap - *len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "cannot read: %s", strerror(errno));
			return -1;
		}
		if (!r)
			return 0;
		*len += r;
	}
}

int cs_console_read(const char *path, struct cs_trace *t, struct cs_console_info *info,
		    char *err, size_t errlen)
{
	bool in = !strcmp(path, "-");
	int fd = in ? STDIN_FILENO : open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	char *buf = NULL;
	void *img = NULL;
	size_t len = 0, imglen;
	struct stat st;
	int rc = CS_EXIT_TRACEDAT;

	memset(t, 0, sizeof(*t));
	memset(info, 0, sizeof(*info));
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(err, errlen, "cannot read: %s", strerror(errno));
		goto out;
	}
	/* a path: a regular file (never a FIFO to wait on); "-": stdin, whatever it is */
	if (!in && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "not a regular file");
		goto out;
	}
	if (slurp(fd, S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size : 0, &buf, &len,
		  err, errlen))
		goto out;
	rc = cs_console_convert(buf, len, &img, &imglen, info, err, errlen);
	if (rc)
		goto out;
	if (cs_trace_parse(img, imglen, t, err, errlen)) {
		rc = CS_EXIT_TRACEDAT;
		goto out;
	}
	t->buf = img;
	t->len = imglen;
	img = NULL;
out:
	if (fd >= 0 && !in)
		close(fd);
	free(buf);
	free(img);
	return rc;
}

void cs_console_note(FILE *f, const char *cmd, const char *path,
		     const struct cs_console_info *in)
{
	char name[CS_SAFE_STR_LEN(1024)];
	const char *src;

	cs_safe_str(path, name, sizeof(name));
	src = (in->flags & CS_CONSOLE_PRINTK) && (in->flags & CS_CONSOLE_TRACEFS) ?
	      "printk and trace file timestamps" : in->flags & CS_CONSOLE_TRACEFS ?
	      "trace file timestamps" : "printk timestamps";
	fprintf(f, "%s: %s: text log of %llu lines: %llu notifier events (%s), %llu loss "
		"markers (%llu events), skipped: %llu other lines, %llu lines of our events "
		"not in their format (a loss marker each)%s\n", cmd, name, (unsigned long long)in->nr_lines,
		(unsigned long long)in->nr_events,
		in->flags & CS_CONSOLE_STOCK ? "upstream's cb-only events" :
		"latency = notifier_return - notifier_run",
		(unsigned long long)in->nr_loss, (unsigned long long)in->nr_lost,
		(unsigned long long)in->nr_other, (unsigned long long)in->nr_bad,
		in->nr_cut_end ? ", the cut last line" : "");
	if (in->nr_untimed_lines == in->nr_events)
		fprintf(f, "%s: %s: no timestamps: every event untimed (boot with printk.time=1)\n",
			cmd, name);
	else
		fprintf(f, "%s: %s: times from %s: microsecond resolution (a return in the "
			"same microsecond as its run counts 1 ns); %llu events without a time "
			"(untimed)\n", cmd, name, src, (unsigned long long)in->nr_untimed_lines);
	if (in->nr_stops || in->nr_untimed)
		fprintf(f, "%s: %s: %llu stops made from NOTIFY_STOP_MASK returns, "
			"%llu returns without their run or time (untimed)\n",
			cmd, name, (unsigned long long)in->nr_stops,
			(unsigned long long)in->nr_untimed);
	if (in->nr_names)
		fprintf(f, "%s: %s: %llu callbacks by name: their addresses are stand-ins "
			"(0x0c5c...), the text prints names\n", cmd, name,
			(unsigned long long)in->nr_names);
	if (in->flags & CS_CONSOLE_STOCK)
		fprintf(f, "%s: %s: upstream's notifier events carry only cb: "
			"registration order and run counts, no latency, chains or return values\n",
			cmd, name);
}
