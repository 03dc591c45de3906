load /vm/lib/noise
setup() { default_settings; cd "$BATS_TEST_TMPDIR"; }
teardown() { default_settings; }
@test "capture tracer records" {
	"$RTLA" osnoise hist -c 0-1 -d 4s --json-file osnoise.json >/dev/null
	"$RTLA" timerlat hist -c 0-1 -d 4s --json-file timerlat.json >/dev/null
	"$RTLA" hwlat hist -c 0 -d 4s -p 100000 -r 10000 --json-file hwlat.json >/dev/null
	for f in osnoise timerlat hwlat; do
		echo "# CAPTURE $f $(gzip -c $f.json | base64 -w0)" >&3
	done
}
