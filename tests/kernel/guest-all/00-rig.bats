# The rig on every kernel: the file systems the tests need, and which rtla is which.

@test "tracefs is mounted and offers the osnoise tracer" {
	grep -qw osnoise /sys/kernel/tracing/available_tracers
}

@test "cgroup2 is mounted at /sys/fs/cgroup" {
	grep -q '^cgroup2 /sys/fs/cgroup cgroup2 ' /proc/mounts
}

@test "rtla on PATH is the one under test; the peer is upstream rtla 6.12" {
	[ "$(command -v rtla)" = /usr/local/bin/rtla ]
	[ "$RTLA" = /usr/local/bin/rtla ]
	[ -x "$RTLA_PEER" ]
	run rtla-peer --help
	[ "$status" -eq 0 ]
	[[ $output == *"rtla version 6.12"* ]]
}
