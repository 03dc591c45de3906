#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Record the timerlat AA fixtures in the 6.12 RT test VM (README).
#
#   tests/unit/data/timerlat-aa/capture.sh OUTFILE
#
# Builds capture.c against build/librtla.a (run make first), boots the VM with
# it as the guest's rtla, and runs the scenarios below one after the other.
# OUTFILE gets, per scenario, "#== scenario NAME", the events and, after
# "#== report", our analysis of them; split it into NAME.events and
# NAME.expected by hand after reviewing the report.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
out=${1:?usage: capture.sh OUTFILE}
bin=$(mktemp -d)/capture
trap 'rm -rf "$(dirname "$bin")"' EXIT

cd "$root"
pkgs="libtracefs libtraceevent libproc2 libcap smartcols ncursesw zlib"
# shellcheck disable=SC2046
gcc -std=gnu11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Wno-unused-parameter -Isrc \
	$(pkg-config --cflags libtracefs libtraceevent) -o "$bin" "$here/capture.c" \
	build/librtla.a $(pkg-config --libs $pkgs) -lpthread -lm

# In the guest: set the stop conditions, join the tracer on CPU 0, optionally
# run a SCHED_FIFO 99 hog (the timerlat thread runs at 95), wait for the stop.
guest='
O=/sys/kernel/tracing/osnoise
scenario() {	# NAME STOP_US TOTAL_US PRINT_STACK CAPTURE_ARGS HOG_MS
	echo 0 > $O/cpus; echo "$2" > $O/stop_tracing_us
	echo "$3" > $O/stop_tracing_total_us; echo "$4" > $O/print_stack
	rtla -n -w 20 $5 > /tmp/cap.out 2>/tmp/cap.err &
	c=$!
	n=0; while ! grep -q joined /tmp/cap.err 2>/dev/null; do sleep 0.05; n=$((n+1)); [ $n -gt 400 ] && break; done
	sleep 1
	[ "$6" != 0 ] && rtla -b $6
	wait $c
	echo 0 > $O/stop_tracing_us; echo 0 > $O/stop_tracing_total_us; echo 0 > $O/print_stack
	echo "#== scenario $1"; sed "s/^/#! /" /tmp/cap.err; cat /tmp/cap.out
}
scenario thread-stack 0 3000 3000 "-T 3000" 8
scenario irq-stack 1500 0 1500 "-i 1500" 0
scenario dump-tasks 0 3000 0 "-d -T 3000" 8
scenario thread-nostack 0 2000 0 "-T 2000" 6
'
tests/kernel/vm-tier.sh --rtla "$bin" --cmd "$guest" > "$out"
