# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# make install / uninstall: the chainscope binary (its BPF objects are
# embedded as skeletons), the man pages (docs/man/*.scd, built with
# scdoc) and the bash completion. Included at the end of the Makefile.
#
#   make install PREFIX=/usr/local DESTDIR=/tmp/stage
#   make uninstall PREFIX=/usr/local DESTDIR=/tmp/stage   exactly those files
#   make man                .output/man/*.8
#   make test-install       tests/sh/install.sh: into a temporary DESTDIR and out

PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
SCDOC ?= scdoc
INSTALL ?= install

MAN_SRCS := $(sort $(wildcard $(REPO)/docs/man/*.8.scd))
MANS := $(patsubst $(REPO)/docs/man/%.scd,$(OUTPUT)/man/%,$(MAN_SRCS))
INSTALLED := $(DESTDIR)$(SBINDIR)/chainscope \
	$(patsubst $(OUTPUT)/man/%,$(DESTDIR)$(MANDIR)/man8/%,$(MANS)) \
	$(DESTDIR)$(COMPLETIONDIR)/chainscope

$(OUTPUT)/man:
	$(Q)mkdir -p $@

$(OUTPUT)/man/%.8: $(REPO)/docs/man/%.8.scd | $(OUTPUT)/man
	$(call msg,SCDOC,$@)
	$(Q)command -v $(SCDOC) >/dev/null || { echo "userspace: error: $(SCDOC) is" \
		"missing: apt-get install scdoc (scripts/deps.sh)" >&2; exit 1; }
	$(Q)$(SCDOC) <$< >$@

.PHONY: man install uninstall test-install
man: $(MANS)

install: $(OUTPUT)/chainscope $(MANS)
	$(call msg,INSTALL,$(DESTDIR)$(PREFIX))
	$(Q)$(INSTALL) -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(COMPLETIONDIR)
	$(Q)$(INSTALL) -m 0755 $(OUTPUT)/chainscope $(DESTDIR)$(SBINDIR)/chainscope
	$(Q)$(INSTALL) -m 0644 $(MANS) $(DESTDIR)$(MANDIR)/man8/
	$(Q)$(INSTALL) -m 0644 completion/chainscope $(DESTDIR)$(COMPLETIONDIR)/chainscope

uninstall:
	$(call msg,UNINST,$(DESTDIR)$(PREFIX))
	$(Q)rm -f $(INSTALLED)

test: test-install
test-install: $(OUTPUT)/chainscope $(MANS)
	$(Q)bash tests/sh/install.sh "$(REPO)" $(words $(MANS))
