# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What the benches share; sourced by bench/*/run.sh (set -eu there).
#
# Sleeping processes for the process-scan benches: start_sleepers N starts N
# more (sleep 3600) and returns once each has exec'd (a reader timed before
# that would see bash's copies), kill_sleepers ends them by their PIDs.

sleepers=()

start_sleepers() {
	local n=$1 first=${#sleepers[@]} i comm
	for _ in $(seq "$n"); do
		sleep 3600 &
		sleepers+=($!)
	done
	for ((i = first; i < ${#sleepers[@]}; i++)); do
		until read -r comm <"/proc/${sleepers[i]}/comm" 2>/dev/null && [ "$comm" = sleep ]; do
			sleep 0.01
		done
	done
}

kill_sleepers() {
	[ ${#sleepers[@]} -eq 0 ] || kill "${sleepers[@]}" 2>/dev/null || true
	wait "${sleepers[@]}" 2>/dev/null || true
	sleepers=()
}

# the processes /proc lists now
nprocs() {
	local procs=(/proc/[0-9]*)
	echo "${#procs[@]}"
}
