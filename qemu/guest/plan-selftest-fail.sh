#!/bin/sh
# Harness self-test: a failing guest test must fail the run.
echo "FAIL: selftest.deliberate: this test always fails" > /out/results.txt
exit 1
