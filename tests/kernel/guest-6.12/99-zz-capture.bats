load /vm/lib/noise
setup() { default_settings; cd "$BATS_TEST_TMPDIR"; }
teardown() { default_settings; }
@test "capture tracer records" {
	"$RTLA" osnoise hist -c 0-1 -d 5s --json-file osnoise-hist.json >/dev/null
	"$RTLA" hwnoise hist -c 0-1 -d 5s --json-file hwnoise-hist.json >/dev/null
	"$RTLA" hwnoise hist -c 0-1 -d 5s --json-file hwnoise-hist-2.json >/dev/null
	"$RTLA" timerlat hist -c 0-1 -d 5s --json-file timerlat-hist.json >/dev/null
	"$RTLA" timerlat top -c 0-1 -d 10s -a 2000 -q --json-file timerlat-top.json >/dev/null || true
	"$RTLA" hwlat hist -c 0 -d 4s -p 100000 -r 10000 --json-file hwlat-hist.json >/dev/null
	"$RTLA" dhry -c 0-1 -d 1s --json-file dhry.json >/dev/null
	for f in *.json; do
		echo "# CAPTURE $f $(gzip -c $f | base64 -w0)" >&3
	done
}
