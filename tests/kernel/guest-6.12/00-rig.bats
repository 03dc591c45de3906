# The rig on the 6.12 RT kernel: osnoise with options (so hwnoise works), DAMON sysfs.

@test "osnoise is an available tracer" {
	grep -qw osnoise /sys/kernel/tracing/available_tracers
}

@test "osnoise/options offers OSNOISE_IRQ_DISABLE" {
	run cat /sys/kernel/tracing/osnoise/options
	[ "$status" -eq 0 ]
	[[ " $output " =~ \ (NO_)?OSNOISE_IRQ_DISABLE\  ]]
}

@test "the peer's hwnoise runs and prints its header" {
	run rtla-peer hwnoise -c 0 -d 3s -q
	echo "$output"
	[ "$status" -eq 0 ]
	[[ ${lines[0]} =~ ^\ +Hardware-related\ Noise ]]
	[[ $output == *$'\n'"CPU Period       Runtime        Noise  % CPU Aval"* ]]
	[[ ${lines[3]} =~ ^\ \ 0\ # ]]
}

@test "DAMON sysfs offers the vaddr and paddr operations" {
	cd /sys/kernel/mm/damon/admin/kdamonds
	echo 1 >nr_kdamonds
	echo 1 >0/contexts/nr_contexts
	ops=$(cat 0/contexts/0/avail_operations)
	echo "avail_operations: $ops"
	[[ $'\n'$ops$'\n' == *$'\n'vaddr$'\n'* ]]
	[[ $'\n'$ops$'\n' == *$'\n'paddr$'\n'* ]]
	echo vaddr >0/contexts/0/operations
	[ "$(cat 0/contexts/0/operations)" = vaddr ]
	echo paddr >0/contexts/0/operations
	[ "$(cat 0/contexts/0/operations)" = paddr ]
}

teardown() {
	if [ -f /sys/kernel/mm/damon/admin/kdamonds/nr_kdamonds ]; then
		echo 0 >/sys/kernel/mm/damon/admin/kdamonds/nr_kdamonds
	fi
}
