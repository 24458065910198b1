// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Console and tracefs text input: the matching of one line (see
 * console_line.h). Every byte is matched against what the kernel prints.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "console.h"
#include "console_line.h"
#include "symname.h"
#include "tracedat.h"

/* --- matching ------------------------------------------------------------ */


static bool isdig(char ch)
{
	return ch >= '0' && ch <= '9';
}

bool cl_lit(struct cur *c, const char *s)
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
bool cl_digits(struct cur *c, int n, __u64 *v)
{
	int max = n > 0 ? n : -n, i;
	__u64 x = 0;

	for (i = 0; i < max && c->p < c->e && isdig(*c->p); i++, c->p++)
		x = x * 10 + (__u64)(*c->p - '0');
	*v = x;
	return i && (n < 0 || i == n);
}

/* %lu: 0, or no leading zero, up to 2^64 - 1 */
bool cl_dec_u64(struct cur *c, __u64 *v)
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
	bool neg = cl_lit(c, "-");
	__u64 x;

	if (!cl_dec_u64(c, &x) || (neg && !x) || x > (neg ? 0x80000000ULL : 0x7fffffffULL))
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
	if (!cl_lit(c, "0x") || !hex(c, 0, &x))
		return false;
	if (x > 0x7fffffffULL && x < 0xffffffff80000000ULL)
		return false;
	*v = (__s32)(__u32)x;
	for (i = 0; i < 4; i++)
		if (*v == ret_vals[i])
			return false;	/* the kernel prints its name */
	return true;
}


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


_Static_assert(sizeof(events) / sizeof(events[0]) == CL_NR_NAMES, "CL_NR_NAMES");

const char *cl_name(int name, size_t *len)
{
	*len = strlen(events[name].name) - 2;
	return events[name].name;
}

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
int cl_body(struct cur *c, struct cs_rec_event *e, struct cbtok *cb, int *name)
{
	size_t i;
	int k, ty;

	*name = -1;
	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (cl_lit(c, events[i].name))
			break;
	if (i == sizeof(events) / sizeof(events[0]))
		return our_name(c) ? BODY_BAD : BODY_OTHER;
	*name = (int)i;
	e->type = events[i].type;
	memset(cb, 0, sizeof(*cb));
	if (e->type == CS_REC_CALL_BEGIN || e->type == CS_REC_CALL_END) {
		if (!cl_lit(c, "head=") || !hex(c, 16, &e->head) || !cl_lit(c, " kind=") ||
		    !word(c, kinds, 4, &k) || !cl_lit(c, " val=") || !cl_dec_u64(c, &e->val) ||
		    !cl_lit(c, " nr_to_call=") || !dec_s32(c, &e->nr_to_call) ||
		    !cl_lit(c, " type=") || !word(c, types, 3, &ty))
			return BODY_BAD;
		e->kind = k;
		e->call_type = ty;
		if (e->type == CS_REC_CALL_END &&
		    (!cl_lit(c, " ret=") || !ret_field(c, &e->ret) || !cl_lit(c, " nr_calls=") ||
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
	if (!cl_lit(c, " head=") || !hex(c, 16, &e->head) || !cl_lit(c, " nb=") || !hex(c, 16, &e->nb) ||
	    !cl_lit(c, " priority=") || !dec_s32(c, &e->priority) || !cl_lit(c, " kind=") ||
	    !word(c, kinds, 4, &k))
		return BODY_BAD;
	e->kind = k;
	if ((e->type == CS_REC_REGISTER_ERROR || e->type == CS_REC_UNREGISTER_ERROR) &&
	    (!cl_lit(c, " err=") || !dec_s32(c, &e->ret)))
		return BODY_BAD;
	if ((e->type == CS_REC_RUN || e->type == CS_REC_RETURN) &&
	    (!cl_lit(c, " val=") || !cl_dec_u64(c, &e->val)))
		return BODY_BAD;
	if (e->type == CS_REC_RETURN && (!cl_lit(c, " ret=") || !ret_field(c, &e->ret)))
		return BODY_BAD;
	return c->p == c->e ? BODY_OURS : BODY_BAD;
}


/* "SECS.USEC" (%5lu.%06lu) into ns */
static bool secs(struct cur *c, __u64 *ns)
{
	__u64 s, us;

	if (!cl_digits(c, -10, &s) || !cl_lit(c, ".") || !cl_digits(c, 6, &us))
		return false;
	*ns = s * 1000000000ULL + us * 1000;
	return true;
}

/* [<N>]["[" SECS.USEC "]"]["[" T|C N "]"] " " */
void cl_printk_prefix(struct cur *c, struct pfx *x, unsigned int *flags)
{
	struct cur s = *c;
	__u64 v;
	bool any = false;

	if (cl_lit(&s, "<") && (!cl_digits(&s, -3, &v) || !cl_lit(&s, ">")))
		s = *c;
	if (cl_lit(&s, "[")) {
		struct cur t = s;

		spaces(&t);
		if (secs(&t, &x->ts) && cl_lit(&t, "]")) {
			x->has_ts = any = true;
			s = t;
		} else {
			s.p--;
		}
	}
	if (cl_lit(&s, "[")) {
		struct cur t = s;
		char who;

		spaces(&t);
		who = t.p < t.e ? *t.p : 0;
		t.p += who == 'T' || who == 'C';
		if ((who == 'T' || who == 'C') && cl_digits(&t, -10, &v) && v <= UINT32_MAX &&
		    cl_lit(&t, "]")) {
			x->has_task = any = true;
			x->pid = who == 'T' ? (__u32)v : 0;
			x->cpu = who == 'C' ? (__u32)v : 0;
			x->ctx = who == 'C' ? CS_REC_CTX_HARDIRQ : CS_REC_CTX_TASK;
			s = t;
		} else {
			s.p--;
		}
	}
	if (any && cl_lit(&s, " ")) {
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

	if (!cl_digits(&s, -10, &pid) || pid > UINT32_MAX || !cl_lit(&s, " "))
		return false;
	spaces(&s);
	if (cl_lit(&s, "(")) {
		spaces(&s);
		if (!cl_lit(&s, "-------") && !cl_digits(&s, -10, &v))
			return false;
		if (!cl_lit(&s, ") "))
			return false;
		spaces(&s);
	}
	if (!cl_lit(&s, "[") || !cl_digits(&s, -6, &cpu) || cpu > UINT32_MAX - 1 || !cl_lit(&s, "] "))
		return false;
	x->ctx = CS_REC_CTX_TASK;
	if (s.p < s.e && *s.p != ' ' && !lat_flags(&s, &x->ctx))
		return false;
	if (!cl_lit(&s, " "))
		return false;
	spaces(&s);
	t = s;
	if (secs(&t, &x->ts)) {
		x->has_ts = true;
		s = t;
	} else if (cl_digits(&s, -20, &v)) {
		x->int_ts = true;	/* counter, x86-tsc: not in seconds */
	} else {
		return false;
	}
	if (!cl_lit(&s, ": "))
		return false;
	x->has_task = x->tracefs = true;
	x->pid = (__u32)pid;
	x->cpu = (__u32)cpu;
	*c = s;
	*out = p;
	return true;
}

bool cl_tracefs_prefix(struct cur *c, struct pfx *x)
{
	const char *d;

	for (d = c->p; d < c->e && d - c->p < 64; d++)
		if (*d == '-' && tracefs_at(c, d, x))
			return true;
	return false;
}
