#!/bin/sh
# Harness self-test: a WARN nobody announced must fail the run.
insmod /chainscope/modules/cs_selftest.ko warn=1
exit 0
