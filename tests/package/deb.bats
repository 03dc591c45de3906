#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
#
# The Debian package of "make deb" ($BUILD/deb, or RTLA_DEB_DIR): lintian,
# its files and fields, and a user's life with it in a clean bookworm root
# (scripts/deb-root.sh, cached): Debian's rtla installed first and replaced by
# ours through apt, which fetches our dependencies from the archive; rtla,
# its man pages, completion and links used there; then purged, after which
# the root holds exactly the files it held before (piuparts' check).
# The arm64 package ("make deb DEB_ARCH=arm64") is linted and compared too.

load ../lib/helper

# What a root's file list leaves out: the kernel's file systems, apt's and
# dpkg's own state and caches, logs and man-db's index, which any install changes.
ROOT_SKIP='^/(proc|dev|sys|run|tmp|srv/deb)(/|$)|^/var/(cache|log)/|^/var/lib/(apt|dpkg|man-db)/|^/etc/ld\.so\.cache$'

setup_file() {
	DEB_DIR=${RTLA_DEB_DIR:-$(dirname "$RTLA")/deb}
	VERSION=$(cat "$TOP/VERSION")
	ARCH=$(dpkg --print-architecture)
	DEB=$DEB_DIR/rtla-suite_${VERSION}_$ARCH.deb
	ROOT=$BATS_FILE_TMPDIR/root
	export DEB_DIR VERSION ARCH DEB ROOT
	[ -f "$DEB" ] || {
		echo "no $DEB: make deb" >&2
		return 1
	}
	[ "$(id -u)" -eq 0 ] || return 0
	command -v mmdebstrap >/dev/null || return 0
	local tar
	tar=$("$TOP/scripts/deb-root.sh" make deb-test man-db bash-completion)
	"$TOP/scripts/deb-root.sh" unpack "$tar" "$ROOT"
	in_root true
	root_files >"$BATS_FILE_TMPDIR/before"
	# a user of Debian's rtla, who then installs ours from the file; what
	# came of it is for the tests below to say
	in_root apt-get install -y -q rtla >"$BATS_FILE_TMPDIR/install.log" 2>&1
	in_root apt-get install -y -q "/srv/deb/${DEB##*/}" >>"$BATS_FILE_TMPDIR/install.log" 2>&1 ||
		echo "apt-get install of ${DEB##*/} failed: $?" >>"$BATS_FILE_TMPDIR/install.log"
}

# in_root COMMAND...: run it in the test's root, the packages in /srv/deb
in_root() {
	"$TOP/scripts/deb-root.sh" run "$ROOT" --bind "$DEB_DIR:/srv/deb" -- "$@"
}

# root_files: every path in the root with its type, sorted, less ROOT_SKIP
root_files() {
	in_root find / -xdev -printf '%p %y\n' | grep -Ev "$ROOT_SKIP" | sort
}

needs_root_tools() {
	needs_root "the package is installed into a chroot"
	command -v mmdebstrap >/dev/null || skip "mmdebstrap is not installed (scripts/deps.sh check)"
}

# makefile_list NAME: the words of the Makefile's "NAME := ...", continuation lines joined
makefile_list() {
	sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' "$TOP/Makefile" |
		sed -n "s/^$1[[:space:]]*:=[[:space:]]*//p" | tr ' \t' '\n\n' | grep .
}

# lint CHANGES: lintian's tags, every level, pedantic; overridden tags are
# explained in debian/*.lintian-overrides and not printed
lint() {
	command -v lintian >/dev/null || skip "lintian is not installed (scripts/deps.sh check)"
	run lintian --pedantic --display-info --display-experimental \
		--fail-on error,warning,info,pedantic,experimental "$1"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$(grep -v '^running with root privileges' <<<"$output")" ]
}

@test "lintian reports no tag on the package ($ARCH)" {
	lint "$DEB_DIR/rtla-suite_${VERSION}_$ARCH.changes"
}

@test "the package ships rtla, its links, every man page with its aliases, the completion and the README" {
	local want got l a
	want=$(
		echo ./usr/bin/rtla
		for l in $(makefile_list TOOL_LINKS); do
			echo "./usr/bin/$l -> rtla"
			echo "./usr/share/bash-completion/completions/$l -> rtla"
		done
		echo ./usr/share/bash-completion/completions/rtla
		for l in "$TOP"/Documentation/rtla*.rst; do
			l=${l##*/}
			echo "./usr/share/man/man1/${l%.rst}.1.gz"
		done
		for a in $(makefile_list MAN_ALIASES); do
			echo "./usr/share/man/man1/${a%%:*}.1.gz -> ${a#*:}.1.gz"
		done
		echo ./usr/share/doc/rtla-suite/README.md.gz
		echo ./usr/share/doc/rtla-suite/changelog.gz
		echo ./usr/share/doc/rtla-suite/copyright
	)
	got=$(dpkg-deb -c "$DEB" | grep -v '/$' | sed -E 's/^([^ ]+ +){5}//' | sort)
	diff -u <(sort <<<"$want") <(echo "$got")
}

@test "the package replaces Debian's rtla: Conflicts, Replaces and Provides rtla" {
	run dpkg-deb -f "$DEB" Package Conflicts Replaces Provides
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'Package: rtla-suite\nConflicts: rtla\nReplaces: rtla\nProvides: rtla')" ]
}

@test "its dependencies are the libraries' own (dh_shlibdeps), with versions" {
	run dpkg-deb -f "$DEB" Depends
	[ "$status" -eq 0 ]
	[[ $output == *"libc6 (>= "* ]]
	[[ $output == *"libtracefs1 (>= "* ]]
	[[ $output == *"libsmartcols1 (>= "* ]]
}

@test "libproc2 is linked from its archive: no libproc2 or libsystemd dependency, procps in Built-Using" {
	run dpkg-deb -f "$DEB" Depends
	[ "$status" -eq 0 ]
	[[ $output != *libproc2* ]]
	[[ $output != *libsystemd* ]]
	run dpkg-deb -f "$DEB" Built-Using
	[ "$status" -eq 0 ]
	[[ $output =~ ^procps\ \(=\ [0-9]+:[0-9.]+-[0-9.+a-z~]+\)$ ]]
}

@test "rtla is built with dpkg-buildflags' hardening: PIE, BIND_NOW, fortified calls, stack protector" {
	local bin=$BATS_TEST_TMPDIR/x
	dpkg-deb -x "$DEB" "$bin"
	run readelf -d "$bin/usr/bin/rtla"
	[[ $output == *"BIND_NOW"* ]]
	[[ $output == *"PIE"* ]]
	run readelf --dyn-syms -W "$bin/usr/bin/rtla"
	[[ $output == *"__stack_chk_fail"* ]]
	[[ $output =~ __[a-z]+_chk@ ]]
}

@test "apt installs it over Debian's rtla, which it removes, and fetches its dependencies" {
	needs_root_tools
	cat "$BATS_FILE_TMPDIR/install.log"
	grep -E '^Removing rtla \([^)]*\) \.\.\.' "$BATS_FILE_TMPDIR/install.log"
	run in_root dpkg-query -W -f '${Package} ${Version} ${db:Status-Status}\n'
	[[ $output == *"rtla-suite $VERSION installed"* ]]
	[[ $output != *"rtla 6"*" installed"* ]]
	run in_root dpkg -S /usr/bin/rtla
	[ "$output" = "rtla-suite: /usr/bin/rtla" ]
	run in_root dpkg-query -W -f '${db:Status-Status}' libtracefs1
	[ "$output" = installed ]
}

@test "in the root: rtla --help and the hwnoise link" {
	needs_root_tools
	run in_root rtla --help
	[ "$status" -eq 0 ]
	[[ $output == *capdump* ]]
	run in_root hwnoise --version
	[ "$status" -eq 0 ]
	[ "$output" = "rtla $VERSION" ]
}

@test "in the root: man rtla and man hwnoise (man-db)" {
	needs_root_tools
	run in_root man -P cat rtla
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == "RTLA(1)"* ]]
	run in_root man -P cat hwnoise
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == "RTLA-HWNOISE(1)"* ]]
}

@test "in the root: bash-completion loads the completion of rtla and of its links" {
	needs_root_tools
	local script='. /usr/share/bash-completion/bash_completion
		for c in rtla osnoise hwnoise timerlat; do _completion_loader "$c"; complete -p "$c"; done
		COMP_WORDS=(rtla capd); COMP_CWORD=1; COMP_LINE="rtla capd"; COMP_POINT=9
		_rtla rtla capd rtla; printf "%s\n" "${COMPREPLY[@]}"'
	run in_root bash -c "$script"
	echo "$output"
	[ "${lines[0]}" = "complete -F _rtla rtla" ]
	[ "${lines[1]}" = "complete -F _rtla osnoise" ]
	[ "${lines[2]}" = "complete -F _rtla hwnoise" ]
	[ "${lines[3]}" = "complete -F _rtla timerlat" ]
	[ "${lines[4]}" = capdump ]
}

@test "in the root: rtla capdump 1 reads /proc" {
	needs_root_tools
	run in_root rtla capdump 1
	echo "$output"
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == *PID*CAPEFF* ]]
	[[ ${lines[1]} =~ ^\ *1\  ]]
}

@test "purged with its dependencies, it leaves the root as it was" {
	needs_root_tools
	in_root apt-get purge -y -q --autoremove rtla-suite
	run in_root dpkg-query -W -f '${Package} ${db:Status-Status}\n'
	[[ $output != *"rtla-suite installed"* ]]
	root_files >"$BATS_FILE_TMPDIR/after"
	diff -u "$BATS_FILE_TMPDIR/before" "$BATS_FILE_TMPDIR/after"
}

@test "the arm64 package: lintian reports no tag" {
	[ -f "$DEB_DIR/rtla-suite_${VERSION}_arm64.changes" ] || skip "no arm64 package: make deb DEB_ARCH=arm64"
	lint "$DEB_DIR/rtla-suite_${VERSION}_arm64.changes"
}

@test "the arm64 package holds the same files, an arm64 rtla, with arm64 dependencies" {
	local arm=$DEB_DIR/rtla-suite_${VERSION}_arm64.deb bin=$BATS_TEST_TMPDIR/x
	[ -f "$arm" ] || skip "no arm64 package: make deb DEB_ARCH=arm64"
	# mode, owner and path (and a link's target), not the sizes
	diff -u <(dpkg-deb -c "$DEB" | awk '{ $3 = $4 = $5 = ""; print }') \
		<(dpkg-deb -c "$arm" | awk '{ $3 = $4 = $5 = ""; print }')
	dpkg-deb -x "$arm" "$bin"
	run file -b "$bin/usr/bin/rtla"
	[[ $output == *"ARM aarch64"* ]]
	run dpkg-deb -f "$arm" Architecture Depends
	[ "${lines[0]}" = "Architecture: arm64" ]
	[[ ${lines[1]} == *"libtracefs1 (>= "* ]]
}
