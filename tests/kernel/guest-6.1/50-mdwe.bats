# rtla mdwe on 6.1, which has no MDWE (PR_SET_MDWE came in 6.3): selftest
# and run fail with one line; the audit still runs and says why.

@test "selftest: one line, exit 1" {
	run "$RTLA" mdwe selftest
	[ "$status" -eq 1 ]
	[ "$output" = "rtla mdwe selftest: this kernel has no MDWE: PR_GET_MDWE: Invalid argument (Linux 6.3 and later have it)" ]
}

@test "run and run --no-inherit: one line, exit 1, the command never runs" {
	run "$RTLA" mdwe run -- touch /tmp/ran
	[ "$status" -eq 1 ]
	[ "$output" = "rtla mdwe run: this kernel has no MDWE: PR_GET_MDWE: Invalid argument (Linux 6.3 and later have it)" ]
	run "$RTLA" mdwe run --no-inherit -- touch /tmp/ran
	[ "$status" -eq 1 ]
	[ "$output" = "rtla mdwe run: this kernel has no MDWE: PR_GET_MDWE: Invalid argument (Linux 6.3 and later have it)" ]
	[ ! -e /tmp/ran ]
}

@test "audit: every process without MDWE, one line saying why, exit 0" {
	run "$RTLA" mdwe --all --raw -n -o PID,MDWE
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "rtla mdwe: this kernel has no MDWE (Linux 6.3 and later have it): no process runs under it" ]
	[ "${#lines[@]}" -gt 5 ]
	[ -z "$(printf '%s\n' "${lines[@]:1}" | grep -v ' -$')" ]
}
