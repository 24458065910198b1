#!/bin/sh
# Harness self-test: a WARN announced with its exact text is excused.
echo "cs_selftest: expect WARN: cs_selftest: deliberate warning" > /dev/kmsg
insmod /chainscope/modules/cs_selftest.ko warn=1
exit 0
