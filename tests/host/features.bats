#!/usr/bin/env bats
# rtla features on this machine's kernel, each row checked against a fact
# found another way: the tracefs file read by the shell, DAMON's sysfs,
# prctl from python, cap_last_cap, and libfuse's own reading of the FUSE INIT
# request. The FUSE probe must leave no mount in any namespace, even when it
# is killed with its mount in place. Needs root.

load ../lib/helper

setup() {
	needs_root "the probes mount, prctl and read root-only sysfs"
	tmp=$(mktemp -d)
	pids=()
}

teardown() {
	local p
	for p in "${pids[@]}"; do
		kill -9 "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$tmp"
}

# features ARGS...: rtla features -J ARGS into f.json, and its rows as
# "FEATURE<TAB>STATE<TAB>EVIDENCE" lines into f.tsv (python starts once)
features() {
	"$RTLA" features -J "$@" >"$tmp/f.json"
	python3 -c '
import json, sys
for r in json.load(open(sys.argv[1]))["features"]:
    print(r["feature"] + "\t" + r["state"] + "\t" + (r["evidence"] or ""))' "$tmp/f.json" >"$tmp/f.tsv"
}

# row FEATURE: "STATE<TAB>EVIDENCE" of that one row
row() {
	F=$1 awk -F'\t' '$1 == ENVIRON["F"] { print $2 "\t" $3; n++ } END { exit n != 1 }' "$tmp/f.tsv"
}

state() {
	row "$1" | cut -f1
}

# every mount of every namespace on the machine that came from the probe
probe_mounts() {
	cat /proc/[0-9]*/mountinfo 2>/dev/null | grep -c 'rtla-features' || true
}

@test "features: the record has every group, valid states, and exits 0" {
	features
	python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
groups = {r["group"] for r in doc["features"]}
want = {"tracing", "realtime", "mdwe", "caps", "damon", "parport", "fuse", "memfd", "bench"}
assert groups == want, groups
for r in doc["features"]:
    assert r["state"] in ("yes", "no", "partial", "unknown"), r
    assert r["since"] and r["needed_by"] and r["evidence"], r
    assert not r["evidence"].startswith("live only"), r
' "$tmp/f.json"
}

@test "features: the tracing rows say what available_tracers says" {
	features -g tracing
	tracers=$(cat /sys/kernel/tracing/available_tracers)
	for t in osnoise timerlat hwlat; do
		want=no
		if [[ " $tracers " == *" $t "* ]]; then want=yes; fi
		echo "$t: want $want, got $(row "$t tracer")"
		[ "$(state "$t tracer")" = "$want" ]
	done
	# this machine's kernel has no osnoise tracer: nothing of it can be there
	[ "$(state "osnoise tracer")" = no ]
	[ "$(state "osnoise/options")" = no ]
	[ "$(state "OSNOISE_IRQ_DISABLE")" = no ]
	[ "$(state "tracefs")" = yes ]
	[ "$(state "sched_switch tracepoint")" = yes ]
	want=no
	if [ -e /sys/kernel/btf/vmlinux ]; then want=yes; fi
	[ "$(state BTF)" = "$want" ]
}

@test "features: DAMON rows match its sysfs (read only: the kdamond is untouched)" {
	admin=/sys/kernel/mm/damon/admin/kdamonds
	[ -d "$admin" ] || skip "no DAMON sysfs on this kernel"
	n=$(cat "$admin/nr_kdamonds")
	on=0
	for k in $(seq 0 $((n - 1))); do
		if [ "$(cat "$admin/$k/state")" = on ]; then on=$((on + 1)); fi
	done
	before=$(cat "$admin"/*/state "$admin"/*/pid)
	features -g damon
	row "kdamonds running"
	[ "$(state "DAMON sysfs")" = yes ]
	[[ $(row "kdamonds running") == *"$on of $n running"* ]]
	ops=$(cat "$admin/0/contexts/0/avail_operations")
	[[ $(row avail_operations) == "yes"*": $ops" ]]
	if [ -d "$admin/0/contexts/0/schemes/0/core_filters" ]; then
		[ "$(state "core/ops filter layout")" = yes ]
	fi
	[ "$(cat "$admin"/*/state "$admin"/*/pid)" = "$before" ]
}

@test "features: MDWE rows agree with prctl called from python" {
	features -g mdwe
	for bits in 1 3; do
		got=$(python3 -c '
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
print("yes" if libc.prctl(65, int(sys.argv[1]), 0, 0, 0) == 0 else "no")' "$bits")
		feature=PR_SET_MDWE
		if [ "$bits" = 3 ]; then feature=PR_MDWE_NO_INHERIT; fi
		echo "$feature: python says $got, rtla $(row "$feature")"
		[ "$(state "$feature")" = "$got" ]
	done
	# rtla itself is not left under MDWE: the probe ran in a child
	[ "$(state PR_SET_MDWE)" = yes ]
}

@test "features: capability rows: cap_last_cap and the u64 sets of this machine" {
	features -g caps
	[[ $(row cap_last_cap) == "yes"*": $(cat /proc/sys/kernel/cap_last_cap)" ]]
	[ "$(cat /proc/sys/kernel/cap_last_cap)" -gt 31 ]
	# pid 1's bounding set holds every capability, bit 40 among them
	[ "$(state "u64 sets in use")" = yes ]
	[[ $(row "u64 sets in use") == *"(first: pid 1 "* ]]
	[ "$(state "file caps v3 (rootid)")" = yes ]
}

@test "features: FUSE INIT is read as libfuse reads it" {
	[ -c /dev/fuse ] || skip "no /dev/fuse"
	features -g fuse
	unshare -m sh -c 'mount --make-rprivate / && mount -t tmpfs t "$1" && mkdir "$1/m" &&
		python3 "$2" "$1/m"' sh "$tmp" "$BATS_TEST_DIRNAME/lib/libfuse_init.py" \
		2>"$tmp/libfuse.log"
	version=$(sed -n 's/^INIT: //p' "$tmp/libfuse.log" | head -1)
	low=$(sed -n 's/^flags=0x//p' "$tmp/libfuse.log" | head -1)
	echo "libfuse: INIT $version flags 0x$low; rtla: $(row "FUSE INIT")"
	[ -n "$version" ]
	[ -n "$low" ]
	[[ $(row "FUSE INIT") == "yes	protocol $version, flags 0x"*"$low: "* ]]
	[ "$(state FUSE_INIT_EXT)" = yes ]	# bit 30 of those low flags
	[ $((0x$low >> 30 & 1)) -eq 1 ]
	# this 6.18 kernel has FUSE 7.38's request extensions and supplementary groups
	[ "${version#7.}" -ge 38 ]
	[ "$(state "request extensions")" = yes ]
	[ "$(state FUSE_CREATE_SUPP_GROUP)" = yes ]
	[ "$(probe_mounts)" -eq 0 ]
}

@test "features: a FUSE probe killed with its mount in place leaves no mount anywhere" {
	[ -c /dev/fuse ] || skip "no /dev/fuse"
	for victim in parent child; do
		RTLA_TEST_FUSE_STOP=1 "$RTLA" features -g fuse >/dev/null 2>&1 &
		parent=$!
		pids+=("$parent")
		child=
		for _ in $(seq 500); do
			child=$(pgrep -P "$parent" || true)
			[ -n "$child" ] && [ "$(awk '{print $3}' "/proc/$child/stat" 2>/dev/null)" = T ] && break
			sleep 0.01
		done
		echo "$victim: rtla $parent, probe $child"
		[ -n "$child" ]
		# the mount is there, in the probe's namespace only
		grep -q 'fuse.rtla-features' "/proc/$child/mountinfo"
		! grep -q 'rtla-features' /proc/self/mountinfo || false
		if [ "$victim" = parent ]; then
			kill -9 "$parent"
		else
			kill -9 "$child"
		fi
		for _ in $(seq 500); do
			[ -e "/proc/$child" ] || break
			sleep 0.01
		done
		[ ! -e "/proc/$child" ]
		wait "$parent" 2>/dev/null || true
		echo "mounts left: $(probe_mounts)"
		[ "$(probe_mounts)" -eq 0 ]
	done
}

@test "features: under --sysroot the syscall probes say live only" {
	mkdir -p "$tmp/root/proc/sys/kernel"
	echo 40 >"$tmp/root/proc/sys/kernel/cap_last_cap"
	features --sysroot "$tmp/root"
	for f in PR_SET_MDWE PR_MDWE_NO_INHERIT "FUSE INIT" FUSE_INIT_EXT \
		FUSE_CREATE_SUPP_GROUP "perf cycles counter" "file caps v3 (rootid)"; do
		[[ $(row "$f") == "unknown	live only: "* ]]
	done
	[[ $(row cap_last_cap) == "yes"*": 40" ]]
	[ "$(state tracefs)" = unknown ]
	[ "$(state "DAMON sysfs")" = no ]
}
