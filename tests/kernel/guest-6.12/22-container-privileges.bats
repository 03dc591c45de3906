# The privileges of the Kubernetes Job in Documentation/examples/rtla-hwnoise-job.yaml,
# and no more, are enough for the tracer runs: uid 0 with CAP_SYS_NICE alone
# (bounding set too, no new privileges), in a mount namespace with its own
# /run, /sys and /proc/sys read-only and tracefs writable, as a container
# runtime gives them. Each run puts every setting back. Without CAP_SYS_NICE,
# what needs it is refused in one line. tests/package/oci.bats checks that the
# Job asks for exactly JOB_CAPS.

load /vm/lib/noise

JOB_CAPS=sys_nice

setup() {
	default_settings
	unusual_settings
	before=$(snapshot)
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	pkill -KILL -f /usr/local/bin/rtla 2>/dev/null || true
	default_settings
}

# in_container CAPS CMD...: CMD as a container with capabilities CAPS ("" for none)
in_container() {
	local caps=-all${1:+,+$1}
	shift
	unshare -m sh -c 'mount -t tmpfs none /run &&
		mount -o remount,bind,ro /sys &&
		mount --bind /proc/sys /proc/sys && mount -o remount,bind,ro /proc/sys &&
		exec "$@"' sh \
		/usr/bin/setpriv --bounding-set="$caps" --inh-caps=-all --no-new-privs "$@"
}

@test "container privileges: the capabilities are the Job's alone, and /sys is read-only" {
	run in_container "$JOB_CAPS" sh -c 'grep ^CapEff /proc/self/status; touch /sys/kernel/x'
	echo "$output"
	[ "$status" -ne 0 ]
	# CAP_SYS_NICE is bit 23
	[ "${lines[0]}" = "CapEff:	0000000000800000" ]
	[[ ${lines[1]} == *"Read-only file system"* ]]
}

@test "container privileges: hwnoise -P, timerlat top (user threads) and hwlat run and restore" {
	run in_container "$JOB_CAPS" "$RTLA" hwnoise -c 1 -d 2s -q -P f:95
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"Hardware-related Noise"* ]]
	run in_container "$JOB_CAPS" "$RTLA" timerlat top -c 1 -d 2s -q
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"Ret user Timer Latency"* ]]
	run in_container "$JOB_CAPS" "$RTLA" hwlat -c 1 -d 2s -q
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"Samples recorded:"* ]]
	assert_state_unchanged "$before"
}

@test "container privileges: without CAP_SYS_NICE hwnoise runs, -P and timerlat's user threads are refused in one line" {
	run in_container "" "$RTLA" hwnoise -c 1 -d 2s -q
	echo "$output"
	[ "$status" -eq 0 ]
	run in_container "" "$RTLA" hwnoise -c 1 -d 2s -q -P f:95
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == "rtla hwnoise: "*"Operation not permitted"* ]]
	[ "${#lines[@]}" -eq 1 ]
	run in_container "" "$RTLA" timerlat top -c 1 -d 2s -q
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == "rtla timerlat top: "*"cannot set the scheduling parameters"* ]]
	[ "${#lines[@]}" -eq 1 ]
	assert_state_unchanged "$before"
}
