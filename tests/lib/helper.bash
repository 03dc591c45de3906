# Shared set-up of the bats tiers on the host (cli, fixtures, host): $RTLA is
# the binary under test, $TOP the checkout. The guests of the VM tier have
# their own helpers in tests/kernel/guest-lib/.
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
: "${RTLA:=$TOP/build/rtla}"
RTLA=$(readlink -f "$RTLA")
# shellcheck source=tests/lib/untraced.bash
. "$TOP/tests/lib/untraced.bash"

# needs_root REASON: skip with the reason printed unless running as root
needs_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root: $1"
}

# command_table: the rows of the command table in src/main.c, one
# "NAME<TAB>SUMMARY" a line, read from the source so that a test never takes
# the list from rtla itself (an rtla that lists nothing would agree with
# itself). Fails, saying so, unless it finds one row per cmd_*() that
# src/commands.h declares. Use it in an assignment (rows=$(command_table)):
# in a $(...) inside a for list or a < <(...) its failure would be lost.
command_table() {
	local src=$TOP/src rows nrows ndecl
	rows=$(sed -n 's/^[[:space:]]*{ "\([^"]*\)", cmd_[a-z_]*, "\([^"]*\)",.*$/\1\t\2/p' "$src/main.c")
	nrows=$(grep -c . <<<"$rows" || true)
	ndecl=$(grep -c '^int cmd_[a-z_]*(int argc, char \*\*argv);' "$src/commands.h" || true)
	if [ "$nrows" -eq 0 ] || [ "$nrows" -ne "$ndecl" ]; then
		echo "command_table: $nrows rows read from src/main.c, $ndecl cmd_*() in src/commands.h" >&2
		return 1
	fi
	printf '%s\n' "$rows"
}

# command_names: the names of command_table, one a line, in table order
command_names() {
	local rows
	rows=$(command_table) || return 1
	cut -f1 <<<"$rows"
}

# verb_table: the names of the verb rows in the source (CLI_VERB("NAME", ...)
# in src/), one a line, sorted; the unnamed default (hwnoise's top) has no
# word. Fails, saying so, when it finds none: a loop over rtla's own list of
# verbs would pass on an rtla that lists nothing.
verb_table() {
	local names
	names=$(grep -rhoE 'CLI_VERB\("[a-z][a-z_-]*"' "$TOP/src" | sed -E 's/.*\("(.*)"/\1/' | sort)
	if [ -z "$names" ]; then
		echo "verb_table: no CLI_VERB(\"NAME\", ...) row in $TOP/src" >&2
		return 1
	fi
	printf '%s\n' "$names"
}

# guardian_of PID: the guardian of rtla run PID, if it started. It is
# nobody's child; it holds the run's pidfd, whose fdinfo names the run.
guardian_of() {
	local f
	f=$(grep -lx "Pid:[[:space:]]*$1" /proc/[0-9]*/fdinfo/* 2>/dev/null | head -n 1)
	f=${f#/proc/}
	echo "${f%%/*}"
}

# tagged: the live processes whose environment holds RTLA_GUARD_TAG=$TAG (a
# zombie has no environment left). A test that gives its runs a tag of its
# own (RTLA_GUARD_TAG=$TAG "$RTLA" ...) counts what they leave, the guardian
# included (a fork), and never another rtla run on the machine.
tagged() {
	grep -lsxz "RTLA_GUARD_TAG=$TAG" /proc/[0-9]*/environ | cut -d/ -f3
}

# smi_reason: sets SMI_WHY to why this machine gives rtla no SMI count of
# CPU 0, in rtla's words (src/smi.c); skips the test where it gives one (the
# msr driver loaded and the MSR readable: the VM tier tests that case).
# Not in $(...): a skip there would end the subshell, not the test.
# shellcheck disable=SC2034 # SMI_WHY is the caller's
smi_reason() {
	if [ ! -e /dev/cpu/0/msr ]; then
		SMI_WHY="no msr driver (/dev/cpu/0/msr missing)"
	elif [ "$(id -u)" -ne 0 ]; then
		SMI_WHY="not permitted (/dev/cpu/0/msr: Permission denied; reading MSRs needs root, CAP_SYS_RAWIO)"
	elif ! dd if=/dev/cpu/0/msr bs=8 count=1 skip=52 iflag=skip_bytes status=none >/dev/null 2>&1; then
		grep -qm1 'vendor_id.*AuthenticAMD' /proc/cpuinfo ||
			skip "MSR_SMI_COUNT gives EIO on a CPU that is not AMD's"
		SMI_WHY="MSR_SMI_COUNT not readable (/dev/cpu/0/msr: Input/output error: AuthenticAMD CPUs have no MSR 0x34)"
	else
		skip "this machine's SMI counts are readable: nothing to explain"
	fi
}
