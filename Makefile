# chainscope - tracing-first notifier chains for Linux 6.1 and 6.12
#
#   make            build the chainscope kernel (6.1) and the chainscope CLI
#   make demo       boot the guest and show notifier activity
#   make test       everything: host tests, stock and chainscope kernels of
#                   6.1 and 6.12, self-tests, soak (6.1)
#                   (T='GLOB' selects tests by name, e.g. T='host.*')
#   make test-debug only the debug-kernel soak (6.1)
#   make test-debug-all  the debug-kernel soak on 6.1 and 6.12
#   make patches    one series per kernel (output/patches/{6.1,6.12}/)
#   make fuzz       every fuzz target of the CLI for FUZZ_SECONDS (300) each,
#                   corpora kept in output/fuzz-corpus/ (make test runs them
#                   short, with a fixed seed and run count)
#   make install    the CLI, its man pages and bash completion (PREFIX=/usr/local,
#                   DESTDIR=); make uninstall removes exactly those files
#   make bench      benchmarks: our core against stock, 6.1 and 6.12 (docs/bench.md),
#                   then check/report events/s offline (bench-offline)
#
# CS_KERNEL=6.12 makes kernel, kernel-stock and demo use the 6.12 tree.
#
# The kernel tree and builds live in $(CHAINSCOPE_CACHE) (default
# /var/cache/chainscope), outside the repo; outputs go to output/.
# V=1 shows every command.

export CHAINSCOPE_CACHE ?= /var/cache/chainscope
T ?= *
Q := $(if $(V),,@)

.PHONY: all deps kernel kernel-stock cli install uninstall demo test test-debug test-debug-all patches bench fuzz clean
.DELETE_ON_ERROR:

all: deps kernel cli

deps:
	$(Q)scripts/deps.sh

kernel: deps
	$(Q)kernel/build.sh build chainscope >/dev/null

kernel-stock: deps
	$(Q)kernel/build.sh build stock >/dev/null

cli: kernel
	$(Q)$(MAKE) -s -C userspace

# PREFIX and DESTDIR reach userspace/install.mk from the command line
install:
	$(Q)$(MAKE) -s -C userspace install

uninstall:
	$(Q)$(MAKE) -s -C userspace uninstall

# our six notifier events and the two initcall events that time their
# re-enable (check --gap), for a boot's command line (issue 25;
# qemu/test.sh has the same)
BOOT_EVENTS := notifier:notifier_register,notifier:notifier_unregister,notifier:notifier_run,notifier:notifier_return,notifier:notifier_call_begin,notifier:notifier_call_end,initcall:initcall_start,initcall:initcall_finish

demo: all
	$(Q)CS_GUEST_BINS="$$($(MAKE) -s -C userspace guest-bins | tr '\n' ' ')" \
		qemu/run.sh -v -p demo -t 900 -a tp_printk chainscope
	$(Q)userspace/.output/chainscope report \
		--svg output/normal-chainscope-demo/svg \
		output/normal-chainscope-demo/guest/demo.cstrace >/dev/null
	@echo
	@echo "== power-off: the reboot chain, read back from the guest's console (report --passes --console)"
	$(Q)userspace/.output/chainscope report --passes \
		--console output/normal-chainscope-demo/console.log
	@echo
	@echo "== boot: what the chains did before user space (a second, short boot with our events on its command line)"
	$(Q)CS_GUEST_BINS="$$($(MAKE) -s -C userspace guest-bins | tr '\n' ' ')" CS_GUEST_TOOLS=upstream \
		qemu/run.sh -p boot -t 900 -a "trace_event=$(BOOT_EVENTS) trace_buf_size=1024k trace_clock=local" \
		chainscope >/dev/null
	$(Q)userspace/.output/chainscope report --boot \
		output/normal-chainscope-boot/guest/boot/boot.dat 2>/dev/null | \
		sed -n '1,3p; /^slowest/,/^$$/p; /^chain: reboot_notifier_list/,/^$$/p'
	@echo "demo: JSON, trace and SVG histograms in output/normal-chainscope-demo/{guest,svg}/"

test: deps
	$(Q)qemu/test.sh -t '$(T)'

test-debug: deps
	$(Q)qemu/test.sh -t 'debug.*'

test-debug-all: deps
	$(Q)CS_DEBUG_KERNELS="6.1 6.12" qemu/test.sh -t 'debug*'

patches: deps
	$(Q)scripts/mkpatches.sh output/patches

bench: deps
	$(Q)qemu/bench.sh
	$(Q)$(MAKE) -s -C userspace bench-offline

fuzz: deps
	$(Q)$(MAKE) -s -C userspace fuzz

clean:
	$(Q)rm -rf output
