#!/bin/sh
# Harness self-test: a guest that never finishes must be killed.
while :; do sleep 1000; done
