# rtla capdump's BPF pass on both kernels: 6.1 keeps a capability set as two
# u32 (kernel_cap_t before 6.3), 6.12 as one u64; the same BPF object must
# read both, and agree with /proc/PID/status on every process.

bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR"
	pids=()
}

teardown() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null || true
	done
}

@test "the BPF pass loads, a nobody child's chosen sets read right, every process agrees with /proc" {
	setpriv --reuid=65534 --regid=65534 --clear-groups --no-new-privs \
		--bounding-set -all,+net_raw,+bpf,+sys_nice --inh-caps +net_raw,+bpf \
		--ambient-caps +net_raw,+bpf -- sleep 60 &
	pids+=($!)
	for _ in $(seq 300); do
		[ "$(cat "/proc/$!/comm" 2>/dev/null)" = sleep ] && break
		sleep 0.01
	done
	cols=PID,PPID,UID,COMMAND,CAPINH,CAPPRM,CAPEFF,CAPBND,CAPAMB,NNP,SECCOMP
	"$RTLA" capdump -a --raw -o "$cols" --method proc >proc
	run -0 --separate-stderr "$RTLA" capdump -a --raw -o "$cols" --method bpf -D
	echo "$stderr"
	[[ $stderr =~ ^"rtla capdump: debug: BPF: load "[0-9.]+" ms, iteration "[0-9.]+" ms, "[0-9]+" processes"$ ]]
	printf '%s\n' "$output" >bpf
	"$RTLA" capdump -a --raw -o "$cols" --method proc >proc2
	grep "^$! " bpf
	[ "$(grep "^$! " bpf | cut -d' ' -f3-)" = "65534 sleep 0000008000002000 0000008000002000 0000008000002000 0000008000802000 0000008000002000 yes disabled" ]
	python3 /vm/lib/capdump-agree.py proc bpf proc2
}
