#!/bin/sh
# A text parser as written for upstream's notifier_run, whose text is
# "%ps" of cb and nothing else: the callback name is the first token after
# "notifier_run:".  Reads tracefs 'trace', 'perf script' or
# 'trace-cmd report' output on stdin; prints one name per event.
sed -n 's/.*notifier_run: *\([^ ]*\).*/\1/p'
