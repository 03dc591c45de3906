# shellcheck shell=bash
# Windows with interrupts (or preemption) off on one CPU of the 6.12 guest,
# from the kernel's own test module preemptirq_delay_test.
# tests/kernel/modules-build.sh builds it; vm-tier.sh puts it in
# /vm/modules/6.12.  Loading it runs one window in a kthread on the chosen CPU
# (insmod returns when it is over); each write to its sysfs trigger runs
# another with the same parameters.

IRQOFF_MODDIR=/vm/modules/${VM_KERNEL:-6.12}
IRQOFF_SYSFS=/sys/kernel/preemptirq_delay_test

irqoff_have_module() { [ -f "$IRQOFF_MODDIR/preemptirq_delay_test.ko" ]; }
irqoff_loaded() { grep -q '^preemptirq_delay_test ' /proc/modules; }

# irqoff_load CPU DELAY_US [MODE [PARAM=VALUE...]]: load it (unloading it
# first if it is loaded), which runs one window of DELAY_US with interrupts
# off on CPU.  MODE: irq (the default), preempt (preemption off instead), or
# alternate (irq and preempt by turns within a burst: burst_size=N, at most
# 10 windows back to back).
irqoff_load() {
	local cpu=$1 delay=$2 mode=${3:-irq}
	shift $(($# < 3 ? $# : 3))
	irqoff_unload || return 1
	insmod "$IRQOFF_MODDIR/preemptirq_delay_test.ko" \
		cpu_affinity="$cpu" delay="$delay" test_mode="$mode" "$@"
}

# irqoff_trigger: one more window, as loaded; returns when it is over
irqoff_trigger() {
	echo 1 >"$IRQOFF_SYSFS/trigger"
}

# irqoff_setup_file: a file's setup_file: the module is there, and not loaded
irqoff_setup_file() {
	irqoff_have_module || {
		echo "# preemptirq_delay_test is missing from /vm/modules (tests/kernel/modules-build.sh failed?)" >&3
		return 1
	}
	irqoff_unload
}

irqoff_unload() {
	if irqoff_loaded; then rmmod preemptirq_delay_test || return 1; fi
	return 0
}
