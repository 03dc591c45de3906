#!/usr/bin/env bats
# rtla hwlat on this machine's kernel, which has no hwlat tracer: the one
# clear line, exit 1, and nothing borrowed or left behind.

load ../lib/helper
bats_require_minimum_version 1.5.0

@test "hwlat without the kernel's hwlat tracer: one line, exit 1, no instance, no lock record" {
	needs_root "tracefs"
	grep -qsw hwlat /sys/kernel/tracing/available_tracers && skip "this kernel has the hwlat tracer"
	before=$(ls /sys/kernel/tracing/instances)
	for verb in top hist; do
		run --separate-stderr "$RTLA" hwlat "$verb" -d 1 -J
		echo "hwlat $verb -> $status: '$stderr'"
		[ "$status" -eq 1 ]
		[ -z "$output" ]
		[ "$stderr" = "rtla hwlat $verb: the kernel has no hwlat tracer (CONFIG_HWLAT_TRACER is not set)" ]
	done
	[ "$(ls /sys/kernel/tracing/instances)" = "$before" ]
	run ! grep -qs restore /run/rtla/osnoise.state
}
