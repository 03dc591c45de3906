# timerlat borrows what osnoise does and more: its period, print_stack,
# OSNOISE_WORKLOAD, the tracer in three instances (the table's, the
# analysis', the trace's), rtla's timerlatu/N workers reading timerlat_fd,
# and a /dev/cpu_dma_latency request. Whatever ends the run, every setting is
# back within 1 s, no timerlatu/N process (the only FIFO tasks rtla makes)
# is left, and the PM QoS request is gone (the snapshot reads the kernel's
# current cpu_dma_latency target).
#
# The signals are a sample: 25-osnoise-kill.bats tries every one on the
# teardown timerlat shares. Budget: about 50 s of guest time (11 killed runs
# of 0-3 s each).

load /vm/lib/kill

# timerlat's tools and workloads in turn, with a stop condition (the
# analysis instance), a trace (the record instance) and a DMA request
timerlat_args() {
	case $(($1 % 4)) in
	0) echo "timerlat top --dma-latency 0 -T 100000" ;;
	1) echo "timerlat hist -k -t --dma-latency 5" ;;
	2) echo "timerlat top -k -i 100000 --dump-tasks" ;;
	3) echo "timerlat hist --dma-latency 0 -a 100000" ;;
	esac
}

@test "every catchable signal that would end rtla ends a timerlat run through its teardown" {
	local i=0
	for sig in INT TERM HUP USR1 ALRM RTMIN; do
		# shellcheck disable=SC2046
		kill_one "$sig" $(timerlat_args $((i++)))
		! $SETUP || [ "$status" -le 1 ] ||
			{ echo "SIG$sig: exit status $status"; cat err.txt; false; }
		# ended by the signal, not by an error of its own before it
		[ ! -s err.txt ] || { echo "SIG$sig: $(cat err.txt)"; false; }
	done
}

@test "a crash signal: the guardian restores, no worker is left, the DMA request is gone" {
	local i=0
	for sig in SEGV ABRT; do
		# shellcheck disable=SC2046
		kill_one "$sig" $(timerlat_args $((i++)))
		[ "$status" -gt 128 ] || { echo "SIG$sig: exit status $status"; false; }
	done
}

@test "SIGKILL at random points: restored within 1 s, no timerlatu/N and no DMA request left" {
	local worst=0 i
	for i in 0 1 3; do
		# shellcheck disable=SC2046
		kill_one KILL $(timerlat_args "$i")
		[ "$status" -eq 137 ]
		[ "$MS" -le "$worst" ] || worst=$MS
	done
	echo "# timerlat SIGKILL: restored within $worst ms of the end at worst" >&3
}
