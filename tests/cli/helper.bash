# Shared set-up for the bats tiers: $RTLA is the binary under test.
: "${RTLA:=$BATS_TEST_DIRNAME/../../build/rtla}"
RTLA=$(readlink -f "$RTLA")

# needs_root REASON: skip with the reason printed unless running as root
needs_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root: $1"
}
