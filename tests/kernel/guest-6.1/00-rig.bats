# The rig on the old 6.1 RT kernel: osnoise from before the 6.1.188 stable
# update, so without osnoise/options (the old-kernel path).

@test "osnoise is an available tracer" {
	grep -qw osnoise /sys/kernel/tracing/available_tracers
}

@test "osnoise/options does not exist" {
	[ -d /sys/kernel/tracing/osnoise ]
	[ ! -e /sys/kernel/tracing/osnoise/options ]
}

@test "the kernel is a 6.1 stable release older than 6.1.188" {
	v=$(sed -n 's/.* Debian \(6\.1\.[0-9]*\)-.*/\1/p' /proc/version)
	echo "version: $v"
	[ -n "$v" ]
	[ "${v##*.}" -lt 188 ]
}
