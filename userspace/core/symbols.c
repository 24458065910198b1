// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope CLI: kernel symbols: loading kallsyms, resolving -c/-f, JSON
 * symbol fields.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "callback_row.h"
#include "chainscope.h"
#include "common.h"

struct ksyms *cs_load_ksyms(const char *cmd)
{
	struct ksyms *ks = ksyms__load(NULL);

	if (!ks)
		warn("%s: error: cannot read %s: %s\n", cmd, ksyms__default_path(),
		     strerror(errno));
	else if (!ksyms__count(ks))
		/* kptr_restrict hides addresses from a process without CAP_SYSLOG */
		warn("%s: %s shows no addresses to this process (CAP_SYSLOG needed): "
		     "chains and callbacks print as addresses\n", cmd,
		     ksyms__default_path());
	return ks;
}

/* "MODULE:SYMBOL": the symbol of that loaded module; CS_EXIT_OK or _USAGE */
static int resolve_in_module(const char *cmd, const struct ksyms *ks, const char *what,
			     const char *arg, const char *colon, __u64 *addr)
{
	char safe[CS_SAFE_STR_LEN(64)];
	size_t i, modlen = colon - arg;
	const struct ksym *s;
	int found = 0;

	for (i = 0; i < ksyms__count(ks); i++) {
		s = ksyms__get(ks, i);
		if (!s->module || strcmp(s->name, colon + 1) ||
		    strlen(s->module) != modlen || strncmp(s->module, arg, modlen))
			continue;
		if (found && s->addr == *addr)
			continue;
		*addr = s->addr;
		found++;
	}
	if (found == 1)
		return CS_EXIT_OK;
	warn("%s: error: %s '%s' %s (give MODULE:SYMBOL of a loaded module, or 0xADDR)\n",
	     cmd, what, cs_safe_str(arg, safe, sizeof(safe)),
	     found ? "is ambiguous" : "is not in /proc/kallsyms");
	return CS_EXIT_USAGE;
}

int cs_resolve(const char *cmd, const struct ksyms *ks, const char *what,
	       const char *arg, __u64 *addr)
{
	char safe[CS_SAFE_STR_LEN(64)];
	unsigned long addrs[8];
	const char *colon;
	char *end;
	int n, i;

	if (!strncmp(arg, "0x", 2) || !strncmp(arg, "0X", 2)) {
		errno = 0;
		*addr = strtoull(arg, &end, 16);
		if (errno || end == arg + 2 || *end || !*addr) {
			warn("%s: error: invalid %s address '%s'\n", cmd, what,
			     cs_safe_str(arg, safe, sizeof(safe)));
			return CS_EXIT_USAGE;
		}
		return CS_EXIT_OK;
	}
	colon = strchr(arg, ':');
	if (colon)
		return resolve_in_module(cmd, ks, what, arg, colon, addr);
	n = ksyms__find(ks, arg, addrs, 8);
	if (n == 0) {
		warn("%s: error: %s '%s' is not in %s (give SYMBOL, MODULE:SYMBOL or 0xADDR)\n",
		     cmd, what, cs_safe_str(arg, safe, sizeof(safe)), ksyms__default_path());
		return CS_EXIT_USAGE;
	}
	if (n > 1) {
		warn("%s: error: %s '%s' is ambiguous (%d symbols:", cmd, what,
		     cs_safe_str(arg, safe, sizeof(safe)), n);
		for (i = 0; i < n && i < 8; i++)
			warn(" 0x%lx", addrs[i]);
		warn("); give MODULE:SYMBOL or the address\n");
		return CS_EXIT_USAGE;
	}
	*addr = addrs[0];
	return CS_EXIT_OK;
}

void cs_json_sym(json_object *o, const char *field, const struct ksyms *ks,
		 __u64 addr)
{
	struct cs_sym s;

	cs_sym_from_ksyms(&s, ks, addr);
	cs_json_symbol(o, field, &s);
}
