# rtla features on both kernels: the rows differ as the kernels do (6.12:
# osnoise/options, MDWE, memfd_noexec, DAMON and FUSE built in; 6.1 before
# 6.1.188: none of them), each also checked against the file or the version
# it stands for. Then a capture read back through --sysroot. DAMON is written
# here only, in the guest, to give the DAMON rows a kdamond to read.

DAMON=/sys/kernel/mm/damon/admin/kdamonds

setup() {
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	[ -w "$DAMON/nr_kdamonds" ] && echo 0 >"$DAMON/nr_kdamonds" || true
}

# state FEATURE: the STATE of that row in features.txt (--raw writes a
# space in a cell as \x20; ENVIRON keeps awk from reading the escape)
state() {
	NAME=${1// /\\x20} awk '$1 == ENVIRON["NAME"] { print $2 }' features.txt
}

# expect FEATURE STATE: that row, or both the table and the row printed
expect() {
	local got
	got=$(state "$1")
	echo "$1: want $2, got '$got'"
	[ "$got" = "$2" ]
}

@test "features: the tracing and real-time rows of $VM_KERNEL" {
	rtla features -g tracing,realtime >table.txt
	cat table.txt
	rtla features -g tracing,realtime --raw -n -o FEATURE,STATE >features.txt
	expect tracefs yes
	expect "osnoise tracer" yes
	expect "timerlat tracer" yes
	expect "hwlat tracer" yes
	expect "sched_switch tracepoint" yes
	expect PREEMPT_RT yes
	[ "$(cat /sys/kernel/realtime)" = 1 ]
	if [ "$VM_KERNEL" = 6.12 ]; then
		[ -e /sys/kernel/tracing/osnoise/options ]
		expect osnoise/options yes
		expect OSNOISE_IRQ_DISABLE yes
		expect "timerlat_fd (user space)" yes
		grep -q 'osnoise/options: .*OSNOISE_IRQ_DISABLE' table.txt
	else
		[ ! -e /sys/kernel/tracing/osnoise/options ]
		expect osnoise/options no
		expect OSNOISE_IRQ_DISABLE no
		expect "timerlat_fd (user space)" no
		grep -q 'no /sys/kernel/tracing/osnoise/options' table.txt
	fi
}

@test "features: MDWE, memfd, capabilities and FUSE rows of $VM_KERNEL" {
	rtla features -g mdwe,memfd,caps,fuse >table.txt
	cat table.txt
	rtla features -g mdwe,memfd,caps,fuse --raw -n -o FEATURE,STATE >features.txt
	expect cap_last_cap yes
	grep -q "cap_last_cap: $(cat /proc/sys/kernel/cap_last_cap)\$" <(sed 's/ *$//' table.txt)
	expect "file caps v3 (rootid)" yes
	if [ "$VM_KERNEL" = 6.12 ]; then
		expect PR_SET_MDWE yes
		expect PR_MDWE_NO_INHERIT yes
		expect vm.memfd_noexec yes
		# FUSE is built in: INIT is read, its extended flags decoded
		expect "FUSE INIT" yes
		expect FUSE_INIT_EXT yes
		expect "request extensions" yes
		expect FUSE_CREATE_SUPP_GROUP yes
		grep -q 'protocol 7\.[0-9]*, flags 0x' table.txt
	else
		expect PR_SET_MDWE no
		expect PR_MDWE_NO_INHERIT no
		grep -q 'PR_SET_MDWE(1): Invalid argument' table.txt
		expect vm.memfd_noexec no
		[ ! -e /proc/sys/vm/memfd_noexec ]
	fi
	! grep -q rtla-features /proc/self/mountinfo || false
}

@test "features: DAMON rows read a kdamond's files and write none" {
	[ -d "$DAMON" ] || {
		[ "$VM_KERNEL" = 6.1 ]
		rtla features -g damon --raw -n -o FEATURE,STATE >features.txt
		expect "DAMON sysfs" no
		return 0
	}
	rtla features -g damon --raw -n -o FEATURE,STATE >features.txt
	expect "avail_operations" unknown	# no kdamond yet: nothing made to read it
	echo 1 >"$DAMON/nr_kdamonds"
	echo 1 >"$DAMON/0/contexts/nr_contexts"
	echo 1 >"$DAMON/0/contexts/0/schemes/nr_schemes"
	rtla features -g damon | tee table.txt
	rtla features -g damon --raw -n -o FEATURE,STATE >features.txt
	expect "avail_operations" yes
	grep -q "avail_operations: $(paste -sd, "$DAMON/0/contexts/0/avail_operations")" table.txt
	# 6.12 has the legacy filters/ only; core_filters/ and ops_filters/ came in 6.15
	expect "core/ops filter layout" partial
	expect "kdamonds running" no
	[ "$(cat "$DAMON/0/state")" = off ]
}

@test "capture: --sysroot on the capture gives the live rows" {
	rtla capture -x '/proc/*/maps' cap >report.txt
	cat report.txt
	rtla features -g tracing,realtime,damon,parport,memfd >live.txt
	rtla --sysroot cap features -g tracing,realtime,damon,parport,memfd >captured.txt
	diff live.txt captured.txt
	diff <(rtla capdump -a 1 2) <(rtla --sysroot cap capdump -a 1 2)
	rtla --sysroot cap features -g mdwe --raw -n -o FEATURE,STATE >features.txt
	expect PR_SET_MDWE unknown
}
