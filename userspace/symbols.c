// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope CLI: kernel symbols: loading kallsyms, resolving -c/-f, JSON
 * symbol fields.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

int cs_resolve(const char *cmd, const struct ksyms *ks, const char *what,
	       const char *arg, __u64 *addr)
{
	unsigned long addrs[8];
	char *end;
	int n, i;

	if (!strncmp(arg, "0x", 2) || !strncmp(arg, "0X", 2)) {
		errno = 0;
		*addr = strtoull(arg, &end, 16);
		if (errno || end == arg + 2 || *end || !*addr) {
			warn("%s: error: invalid %s address '%s'\n", cmd, what, arg);
			return CS_EXIT_USAGE;
		}
		return CS_EXIT_OK;
	}
	n = ksyms__find(ks, arg, addrs, 8);
	if (n == 0) {
		warn("%s: error: %s '%s' is not in %s (give a symbol or 0xADDR)\n",
		     cmd, what, arg, ksyms__default_path());
		return CS_EXIT_USAGE;
	}
	if (n > 1) {
		warn("%s: error: %s '%s' is ambiguous (%d symbols:", cmd, what, arg, n);
		for (i = 0; i < n && i < 8; i++)
			warn(" 0x%lx", addrs[i]);
		warn("); give the address\n");
		return CS_EXIT_USAGE;
	}
	*addr = addrs[0];
	return CS_EXIT_OK;
}

void cs_json_sym(json_object *o, const char *field, const struct ksyms *ks,
		 __u64 addr)
{
	char name[256], key[64];
	const struct ksym *sym;

	ksyms__format(ks, addr, name, sizeof(name));
	json_object_object_add(o, field, json_object_new_string(name));
	snprintf(key, sizeof(key), "%s_addr", field);
	json_object_object_add(o, key, cs_json_addr(addr));
	sym = ksyms__map_addr(ks, addr, NULL);
	if (sym && sym->module) {
		snprintf(key, sizeof(key), "%s_module", field);
		json_object_object_add(o, key, json_object_new_string(sym->module));
	}
}
