# rtla damos on Debian's 6.1 RT kernel, built without DAMON's sysfs interface:
# every verb says so in one line, exit 1.

@test "no DAMON sysfs: show and every write verb say so in one line" {
	[ ! -e /sys/kernel/mm/damon/admin ]
	for args in "" "-J" "start --paddr" "filter add anon" "commit" "stop"; do
		# shellcheck disable=SC2086
		run "$RTLA" damos $args
		echo "damos $args -> $status: $output"
		[ "$status" -eq 1 ]
		# the prefix names the verb typed ("rtla damos filter add: ")
		[[ $output =~ ^rtla\ damos(\ (start|filter\ add|commit|stop))?:\ (.*)$ ]]
		[ "${BASH_REMATCH[3]}" = "no DAMON sysfs interface: /sys/kernel/mm/damon/admin is missing (this kernel was built without CONFIG_DAMON_SYSFS)" ]
	done
}
