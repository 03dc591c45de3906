#!/usr/bin/env bats
# What a board lacks: no writable /run. Each case runs in a
# mount namespace of its own (unshare -m), so the host's /run, /dev/shm and
# /tmp are never touched.

load ../lib/helper
bats_require_minimum_version 1.5.0

setup() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (mount namespaces)"
	command -v unshare >/dev/null || skip "unshare(1) is not installed"
}

@test "a read-only /run: the sampler's ownership marks go to /dev/shm/rtla" {
	run -0 unshare -m sh -c 'mount -t tmpfs -o ro none /run && mount -t tmpfs none /dev/shm &&
		"$0" hwnoise --backend sampler -c 0 -d 1s -q >/dev/null && ls -d /dev/shm/rtla/owned' "$RTLA"
	# (rtla's note on the sampler comes first, on stderr)
	[ "${lines[-1]}" = /dev/shm/rtla/owned ]
}

@test "/run, /dev/shm and /tmp read-only: the run still works and says where the marks could not go" {
	# rtla is run from an fd opened before /tmp is covered: a checkout may live in /tmp
	run -0 unshare -m sh -c 'exec 3<"$0" && for d in /run /dev/shm /tmp; do mount -t tmpfs -o ro none $d; done &&
		/proc/self/fd/3 hwnoise --backend sampler -c 0 -d 1s -q >/dev/null' "$RTLA"
	[[ $output == *"cannot mark "*" as rtla's in /run/rtla/owned: Read-only file system"* ]]
}
