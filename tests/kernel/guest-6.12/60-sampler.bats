# The sampler backend on a kernel that also has the osnoise tracer: both
# backends run, the sampler leaves no instance and no osnoise setting behind,
# and over the same 10 s the two count HW, NMI and IRQ noise of the same
# order (they measure differently: see the relation below).

load /vm/lib/noise

setup() {
	default_settings
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	if [ -n "${BUSY:-}" ]; then kill "$BUSY" 2>/dev/null || true; fi
}

# $output's lines without rtla's warnings (a guest whose TSC the kernel marked
# unstable warns that the spinners' clock has no vDSO read): the table's lines
table_lines() {
	mapfile -t lines < <(grep -v '^rtla [a-z ]*: warning: ' <<<"$output")
}

# the columns of the CPU's row: runtime noise avail maxnoise maxsingle hw nmi [irq softirq thread]
row() {
	grep -E "^ {0,2}$1 #" | sed -E 's/^ *[0-9]+ #[0-9]+ +//'
}

@test "sampler: osnoise top and hwnoise run next to the tracer and leave nothing behind" {
	before=$(snapshot)
	run "$RTLA" hwnoise --backend sampler -c 1 -d 3s -q
	echo "$output"
	[ "$status" -eq 0 ]
	table_lines
	[[ ${lines[3]} =~ $HW_ROW ]]
	# the note is on stderr, after the table
	[[ ${lines[4]} == "rtla hwnoise: sampler backend"* ]]
	run "$RTLA" osnoise top --backend sampler -c 0-1 -d 3s -q
	echo "$output"
	[ "$status" -eq 0 ]
	table_lines
	[[ ${lines[3]} =~ $OS_ROW ]]
	[[ ${lines[4]} =~ $OS_ROW ]]
	assert_state_unchanged "$before"
	run "$RTLA" hwnoise --backend tracer -c 1 -d 2s -q
	[ "$status" -eq 0 ]
	[[ ${lines[3]} =~ $HW_ROW ]]
}

# Same order: each count within a factor of 10 of the other, counts below 50
# taken as 50 (a quiet CPU has a handful of HW gaps, and 3 against 30 says
# nothing). IRQ and NMI count the same kernel events in both backends; HW
# counts gaps nothing explains, which the kernel sees from inside the kernel
# and the sampler from user space, so only the order is asserted.
same_order() {
	local name=$1 a=$2 b=$3
	if [ "$a" -lt 50 ]; then a=50; fi
	if [ "$b" -lt 50 ]; then b=50; fi
	echo "$name: sampler $2, tracer $3"
	[ "$a" -le $((10 * b)) ] && [ "$b" -le $((10 * a)) ]
}

@test "sampler and tracer: HW, NMI and IRQ counts of the same order over 10 s" {
	run "$RTLA" osnoise top --backend tracer -c 1 -d 10s -q
	[ "$status" -eq 0 ]
	read -r _ _ _ _ _ t_hw t_nmi t_irq _ <<<"$(row 1 <<<"$output")"
	run "$RTLA" osnoise top --backend sampler -c 1 -d 10s -q
	[ "$status" -eq 0 ]
	read -r _ _ _ _ _ s_hw s_nmi s_irq _ <<<"$(row 1 <<<"$output")"
	[ -n "$t_irq" ]
	[ -n "$s_irq" ]
	same_order HW "$s_hw" "$t_hw"
	same_order NMI "$s_nmi" "$t_nmi"
	same_order IRQ "$s_irq" "$t_irq"
}

# Runtime and noise of CPU 1 from a table: "RUNTIME NOISE PERIODS"
runtime_noise() {
	grep -E '^ {0,2}1 #' | sed -E 's/^ *1 #([0-9]+) +([0-9]+) +([0-9]+) .*/\2 \3 \1/'
}

@test "under load, tracer and sampler alike: Runtime >= periods x runtime, Runtime - Noise <= periods x runtime" {
	# SCHED_FIFO bursts of 230 ms every 400 ms on CPU 1: a period whose end
	# falls into one lasts longer than -r, in the kernel's tracer as in the sampler
	taskset -c 1 chrt -f 1 bash -c '
		while :; do
			end=$((${EPOCHREALTIME/./} + 230000))
			while [ "${EPOCHREALTIME/./}" -lt "$end" ]; do :; done
			sleep 0.17
		done' 3>&- &
	BUSY=$!
	for backend in tracer sampler; do
		run timeout 60 "$RTLA" osnoise top --backend "$backend" -c 1 -p 500000 -r 250000 -d 4s -q
		echo "$backend: status $status"
		echo "$output"
		[ "$status" -eq 0 ]
		read -r runtime noise periods <<<"$(runtime_noise <<<"$output")"
		echo "$backend: $periods periods, runtime $runtime us, noise $noise us"
		[ "$periods" -ge 2 ]
		[ "$runtime" -ge $((periods * 250000)) ]
		[ $((runtime - noise)) -le $((periods * 250001)) ]
	done
}
