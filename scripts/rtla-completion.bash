# SPDX-License-Identifier: GPL-2.0-only
# bash completion for rtla, and for its osnoise and hwnoise links.
#
# The candidates come from rtla itself ("rtla __complete CWORD WORD..."),
# which reads them from each command's option description, so this file
# never lists an option and never goes stale. rtla answers one candidate a
# line, or "@file" / "@dir" to let bash complete names.

_rtla()
{
	local cur words cword reply line
	local -a candidates=()

	if declare -F _get_comp_words_by_ref >/dev/null; then
		_get_comp_words_by_ref -n : cur words cword
	else
		cur=${COMP_WORDS[COMP_CWORD]}
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
	fi
	reply=$("${words[0]}" __complete "$cword" "${words[@]}" 2>/dev/null) || return 0

	while IFS= read -r line; do
		case $line in
		@file) mapfile -t -O "${#candidates[@]}" candidates < <(compgen -f -- "$cur")
			compopt -o filenames 2>/dev/null ;;
		@dir) mapfile -t -O "${#candidates[@]}" candidates < <(compgen -d -- "$cur")
			compopt -o filenames 2>/dev/null ;;
		"$cur"*) candidates+=("$line") ;;
		esac
	done <<<"$reply"
	[ "$cur" = "=" ] && mapfile -t candidates <<<"$reply"
	COMPREPLY=("${candidates[@]}")
}

complete -F _rtla rtla osnoise hwnoise
