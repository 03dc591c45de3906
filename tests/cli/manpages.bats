#!/usr/bin/env bats
# The man pages: what make install puts where man finds it, the pages that
# SEE ALSO names, and every option of a command's --help in its page.
# cli-asan: skip, the pages (the examples they give run in the cli tier)

load ../lib/helper

setup() {
	tmp=$(mktemp -d)
	top=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	build=$(dirname "$RTLA")
	docs=$top/Documentation
}

teardown() {
	rm -rf "$tmp"
}

needs_man_tools() {
	command -v rst2man >/dev/null || command -v rst2man.py >/dev/null ||
		skip "rst2man is not installed (python3-docutils): make builds no man pages"
	command -v man >/dev/null || skip "man is not installed (man-db)"
}

# install_into DIR: make install with DESTDIR=DIR PREFIX=/usr, output shown on failure
install_into() {
	run make -C "$top" -s install DESTDIR="$1" PREFIX=/usr O="$build"
	if [ "$status" -ne 0 ]; then
		echo "make install failed (status $status):"
		echo "$output"
		return 1
	fi
}

@test "make install: man rtla, osnoise, hwnoise, timerlat and every rtla page reach a page" {
	needs_man_tools
	install_into "$tmp/root"
	export MANPATH=$tmp/root/usr/share/man
	local name path missing=()
	for name in rtla osnoise hwnoise rtla-osnoise rtla-osnoise-top rtla-osnoise-hist rtla-hwnoise \
		timerlat rtla-timerlat rtla-timerlat-top rtla-timerlat-hist \
		rtla-dhry rtla-capdump rtla-mdwe rtla-parport rtla-damos rtla-features rtla-capture rtla-compare; do
		path=$(man -w "$name" 2>&1) || { missing+=("$name: $path"); continue; }
		[[ $path == "$MANPATH"/man1/* ]] || missing+=("$name: found $path, outside DESTDIR")
	done
	if ((${#missing[@]})); then
		printf 'man -w found no page for %s\n' "${missing[@]}"
		return 1
	fi
}

@test "make install: the alias pages are .so stubs that show the command's page" {
	needs_man_tools
	install_into "$tmp/root"
	local dir=$tmp/root/usr/share/man/man1 alias page text
	for alias in osnoise:rtla-osnoise-top rtla-osnoise:rtla-osnoise-top hwnoise:rtla-hwnoise \
		timerlat:rtla-timerlat-top rtla-timerlat:rtla-timerlat-top; do
		page=${alias#*:} alias=${alias%%:*}
		[ "$(cat "$dir/$alias.1")" = ".so man1/$page.1" ] || {
			echo "$alias.1 holds: $(cat "$dir/$alias.1")"
			return 1
		}
		text=$(MANPATH=$tmp/root/usr/share/man MANWIDTH=100 LC_ALL=C man -P cat "$alias" 2>&1)
		[[ $text == *"$page - "* ]] || {
			echo "man $alias does not show $page:"
			echo "$text" | head -20
			return 1
		}
	done
}

@test "make install: the bash completion for rtla, osnoise and hwnoise; uninstall removes everything" {
	[ -f "$top/scripts/rtla-completion.bash" ] ||
		skip "scripts/rtla-completion.bash does not exist yet: make install has none to install"
	install_into "$tmp/root"
	local dir=$tmp/root/usr/share/bash-completion/completions
	[ -f "$dir/rtla" ] || { echo "no $dir/rtla"; ls -lR "$tmp/root/usr/share"; return 1; }
	[ "$(readlink "$dir/osnoise")" = rtla ]
	[ "$(readlink "$dir/hwnoise")" = rtla ]
	# bash-completion loads the file by the name completed: it must register all three
	run bash -c 'source "$1" && complete -p rtla && complete -p osnoise && complete -p hwnoise' \
		_ "$dir/rtla"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	run make -C "$top" -s uninstall DESTDIR="$tmp/root" PREFIX=/usr O="$build"
	[ "$status" -eq 0 ]
	run find "$tmp/root" ! -type d
	[ -z "$output" ] || { echo "left behind by make uninstall:"; echo "$output"; return 1; }
}

@test "make uninstall removes the man pages and their aliases" {
	needs_man_tools
	install_into "$tmp/root"
	run make -C "$top" -s uninstall DESTDIR="$tmp/root" PREFIX=/usr O="$build"
	[ "$status" -eq 0 ]
	run find "$tmp/root/usr/share/man" ! -type d
	[ -z "$output" ] || { echo "left behind by make uninstall:"; echo "$output"; return 1; }
}

@test "every page's SEE ALSO cites rtla(1), and every rtla page cited exists" {
	local f ref bad=()
	for f in "$docs"/rtla*.rst; do
		if [[ $f != */rtla.rst ]] &&
			! sed -n '/^SEE ALSO$/,$p' "$f" | grep -qE '\*\*rtla\*\*\\ ?\(1\)'; then
			bad+=("${f##*/}: SEE ALSO does not cite rtla(1)")
		fi
		while read -r ref; do
			[ -f "$docs/$ref.rst" ] || bad+=("${f##*/}: cites $ref(1), which has no page")
		done < <(grep -oE '\*\*rtla(-[a-z0-9-]+)?\*\*\\ ?\(1\)' "$f" | sed -E 's/\*\*(.*)\*\*.*/\1/' | sort -u)
	done
	if ((${#bad[@]})); then
		printf '%s\n' "${bad[@]}"
		return 1
	fi
}

# page_text PAGE: the page's source and the files it includes (".. include::"),
# and theirs (timerlat hist includes timerlat top, which includes osnoise top's
# --require)
page_text() {
	local src=$docs/$1.rst inc
	cat "$src"
	sed -n 's/^\.\. include:: *//p' "$src" | sort -u | while read -r inc; do
		[ "$inc" = "$1.rst" ] || page_text "${inc%.rst}"
	done
}

# check_help_in_page PAGE COMMAND...: every --long option that "rtla COMMAND
# --help" prints appears in Documentation/PAGE.rst (or a file it includes)
check_help_in_page() {
	local page=$1 help text opt missing=()
	shift
	help=$("$RTLA" "$@" --help 2>&1) || {
		echo "rtla $* --help failed:"
		echo "$help"
		return 1
	}
	text=$(page_text "$page")
	while read -r opt; do
		[ -n "$opt" ] || continue
		grep -qE -- "(^|[^A-Za-z0-9-])$opt([^A-Za-z0-9-]|\$)" <<<"$text" || missing+=("$opt")
	done < <(grep -oE -- '--[A-Za-z][A-Za-z0-9-]*' <<<"$help" | sed 's/-*$//' | sort -u)
	if ((${#missing[@]})); then
		echo "rtla $* --help has options that Documentation/$page.rst does not mention:"
		printf '  %s\n' "${missing[@]}"
		return 1
	fi
	# a help text with no long option at all would pass for nothing
	grep -q -- '--help' <<<"$help"
}

@test "every option of rtla osnoise top --help is in rtla-osnoise-top.rst" {
	check_help_in_page rtla-osnoise-top osnoise top
}

@test "every option of rtla osnoise hist --help is in rtla-osnoise-hist.rst" {
	check_help_in_page rtla-osnoise-hist osnoise hist
}

@test "every option of rtla hwnoise hist --help is in rtla-osnoise-hist.rst" {
	check_help_in_page rtla-osnoise-hist hwnoise hist
}

@test "every option of rtla hwnoise --help is in rtla-hwnoise.rst" {
	check_help_in_page rtla-hwnoise hwnoise
}

@test "every option of rtla timerlat top --help is in rtla-timerlat-top.rst" {
	check_help_in_page rtla-timerlat-top timerlat top
}

@test "every option of rtla timerlat hist --help is in rtla-timerlat-hist.rst" {
	check_help_in_page rtla-timerlat-hist timerlat hist
}

@test "every option of rtla hwlat top and hwlat hist --help is in rtla-hwlat.rst" {
	check_help_in_page rtla-hwlat hwlat top
	check_help_in_page rtla-hwlat hwlat hist
}

# every other command of the table, each with its page rtla-COMMAND.rst (a
# new command is checked without a new test, and fails until its page exists)
@test "every option of each other command's --help is in its rtla-COMMAND.rst" {
	local cmd names failed=0
	# from the source's table: a list rtla gave could be empty and pass
	names=$(command_names)
	for cmd in $names; do
		case $cmd in osnoise | hwnoise | timerlat | hwlat | help) continue ;; esac
		echo "rtla $cmd --help against rtla-$cmd.rst"
		check_help_in_page "rtla-$cmd" "$cmd" || failed=1
	done
	[ "$failed" -eq 0 ]
}

@test "every option of rtla damos and its verbs' --help is in rtla-damos.rst" {
	for verb in "" show start stop filter commit; do
		# shellcheck disable=SC2086
		check_help_in_page rtla-damos damos $verb
	done
}

@test "every option of rtla mdwe, mdwe selftest and mdwe run --help is in rtla-mdwe.rst" {
	check_help_in_page rtla-mdwe mdwe
	check_help_in_page rtla-mdwe mdwe selftest
	check_help_in_page rtla-mdwe mdwe run
}

# man_example PAGE LEAD: the literal block after the paragraph of
# Documentation/PAGE that begins with LEAD, without its indent
man_example() {
	awk -v lead="$2" '
		state == 0 && index($0, lead) == 1 { state = 1 }
		state == 1 && /::$/ { state = 2; next }
		state == 2 && /^    / { print substr($0, 5); seen = 1; next }
		state == 2 && seen && !/^$/ { exit }
	' "$docs/$1"
}

@test "the man pages' examples that can run here run as written" {
	mkdir "$tmp/bin" "$tmp/work"
	ln -s "$RTLA" "$tmp/bin/rtla"
	# the examples this machine can run without root, a board or a kernel
	# feature; the others need /srv/board-7, a parport, MDWE or a live DAMON
	while IFS='|' read -r page lead; do
		example=$(man_example "$page" "$lead")
		echo "$page, '$lead':"
		echo "$example"
		[ -n "$example" ]
		run bash -e -o pipefail -c "cd '$tmp/work' && PATH='$tmp/bin':\$PATH && $example"
		echo "-> $status: $output" | head -20
		[ "$status" -eq 0 ]
		rm -rf "${tmp:?}/work"/*
	done <<-'EOF'
		rtla-features.rst|What this board's kernel offers
		rtla-features.rst|Only what rtla hwnoise and the noise sampler need
		rtla-features.rst|A board's capture, on a workstation
		rtla-capdump.rst|Processes whose sets are unusual
		rtla-capdump.rst|Which processes hold more than their parent
		rtla-mdwe.rst|Who runs under MDWE
		rtla-mdwe.rst|Every process, as JSON
	EOF
}
