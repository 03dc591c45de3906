# timerlat on 6.1 (no osnoise/options, no timerlat_fd: the kernel's threads
# always run): its settings are back within 1 s of any end, as on 6.12, and
# -u is refused before anything is written.
#
# Budget: about 40 s of guest time (8 killed runs of 0-3 s each).

load /vm/lib/kill

timerlat_args() {
	case $(($1 % 2)) in
	0) echo "timerlat top -T 100000 --dma-latency 0" ;;
	1) echo "timerlat hist -t -a 100000" ;;
	esac
}

@test "timerlat ended by a catchable signal: its teardown restores everything" {
	local i=0
	for sig in INT TERM USR1 RTMIN; do
		# shellcheck disable=SC2046
		kill_one "$sig" $(timerlat_args $((i++)))
		! $SETUP || [ "$status" -le 1 ] ||
			{ echo "SIG$sig: exit status $status"; cat err.txt; false; }
		[ ! -s err.txt ] || { echo "SIG$sig: $(cat err.txt)"; false; }
	done
}

@test "timerlat crashed or SIGKILLed: the guardian restores within 1 s" {
	local i=0
	for sig in SEGV KILL ABRT KILL; do
		# shellcheck disable=SC2046
		kill_one "$sig" $(timerlat_args $((i++)))
		[ "$status" -gt 128 ]
	done
}

@test "-u on a kernel without timerlat_fd: one line, exit 1, nothing changed" {
	run "$RTLA" timerlat top -u -c 1 -d 1s -q
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$output" = "rtla timerlat top: -u: the kernel has no osnoise/per_cpu/cpuN/timerlat_fd (Linux >= 6.5): use -k" ]
	all_unchanged
}
