# timerlat while it runs and right after: its workers are what upstream's
# scripts look for (timerlatu/N, pinned, SCHED_FIFO 95), the DMA latency
# request is held by rtla alone (not by the guardian, a worker or an
# action's shell), and a reader that leaves ends the run. Quick: about 15 s.

load /vm/lib/kill

@test "while it runs: the workers are timerlatu/N, pinned, SCHED_FIFO 95, and the DMA request holds" {
	"$RTLA" timerlat top -c 1 -d 30s -q --dma-latency 7 >out.txt 2>err.txt &
	pid=$!
	# the workers and the request come with the set-up: wait for them
	for _ in $(seq 100); do
		[ "$(dma_latency)" != 7 ] || break
		read -rt 0.05 -u 9 || true
	done
	ps -o pid,comm | awk '$2 == "timerlatu/1" { print $1 }' >workers.txt
	cat workers.txt
	[ "$(wc -l <workers.txt)" -eq 1 ]
	worker=$(cat workers.txt)
	[ "$(dma_latency)" -eq 7 ]
	taskset -p "$worker" | grep -q "mask: 2$"
	chrt -p "$worker" | grep -q "SCHED_FIFO"
	chrt -p "$worker" | grep -q "priority: 95"
	# nothing of rtla's but the workers runs FIFO, and the guardian keeps no DMA request
	guard=$(guardian_of "$pid")
	[ -n "$guard" ]
	# nobody's child: scripts take rtla's children for its workload
	children=$(grep -lx "PPid:[[:space:]]*$pid" /proc/[0-9]*/status | wc -l)
	echo "rtla's children: $children"
	[ "$children" -eq 1 ]
	run ls -l "/proc/$guard/fd"
	[ "$status" -eq 0 ]
	[[ $output != *cpu_dma_latency* ]]
	run ls -l "/proc/$worker/fd"
	[ "$status" -eq 0 ]
	[[ $output != *cpu_dma_latency* ]]
	[[ $output == *timerlat_fd* ]]
	kill -INT "$pid"
	wait "$pid"
	ended
	settled_in_time
}

@test "an action's shell that outlives rtla does not keep the DMA latency request" {
	"$RTLA" timerlat top -c 1 -d 1s -q --dma-latency 3 \
		--on-end 'shell,command=sleep 4 >/dev/null 2>&1 &' >out.txt 2>err.txt
	ended
	cat out.txt err.txt
	# the shell's sleep lives on; the request must not
	[ ! -s err.txt ]
	ps -o comm | grep -qx sleep
	[ "$(dma_latency)" -eq 2000000000 ]
	settled_in_time
}

@test "a reader that closes stdout ends the live view quietly and restores" {
	set +o pipefail
	"$RTLA" timerlat top -c 1 -d 30s 2>err.txt | head -c 1 >/dev/null
	set -o pipefail
	ended
	cat err.txt
	[ ! -s err.txt ]
	settled_in_time
}
