# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# contribs/lib.sh - helpers the contribs scripts share: their messages, their
# usage text, and stopping the local cluster one of them started.  Sourced
# (bash) by a script of contribs/ after it sets say_prog, the prefix of its
# messages (default: the script's file name):
#   say_prog=setup; . "$(dirname "$0")/lib.sh"      (contribs/*)
#   . "$(dirname "$0")/../lib.sh"                   (contribs/*/*)
# Settings a script may change after sourcing:
#   say_fd      where say writes: 1 (stdout, the default) or 2 (stderr, for
#               a script whose stdout is its report)
#   say_clock   a value of $SECONDS: say then begins its lines with
#               "[  12s] ", the seconds since then, instead of "say_prog: "
#   usage_stop  an extended regular expression: print_usage stops at the
#               first line of the header comment that matches it
# The integration tests have their own helpers (test/integration/lib.sh).

say_prog=${say_prog:-$(basename "$0")}
say_fd=1
say_clock=""
usage_stop=""
contribs_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# say MESSAGE...: one line "say_prog: MESSAGE" (or "[  12s] MESSAGE")
say() {
	if [ -n "$say_clock" ]; then
		printf '[%4ds] %s\n' $((SECONDS - say_clock)) "$*" >&"$say_fd"
	else
		printf '%s: %s\n' "$say_prog" "$*" >&"$say_fd"
	fi
}

# die MESSAGE...: say "error: MESSAGE" on stderr, exit status 1
die() {
	say "error: $*" >&2
	exit 1
}

# print_usage: the script's header comment without its "# ", from its third
# line (after the #! line and the licence) to the first line that is not a
# comment or matches usage_stop
print_usage() {
	awk -v stop="$usage_stop" '
		NR < 3 { next }
		!/^#/ || (stop != "" && $0 ~ stop) { exit }
		{ sub(/^# ?/, ""); print }' "$0"
}

# usage: print_usage, exit status 2
usage() {
	print_usage
	exit 2
}

# stop_cluster: stop the cluster contribs/local-cluster runs in $CLUSTER_DIR,
# if any, and forget it (a second call, e.g. from the EXIT trap, does nothing)
stop_cluster() {
	[ -n "${CLUSTER_DIR:-}" ] || return 0
	"$contribs_dir/local-cluster" stop --dir "$CLUSTER_DIR" >/dev/null 2>&1 || true
	CLUSTER_DIR=""
}

# run_on_exit FUNCTION: run FUNCTION (e.g. stop_cluster) when the script
# exits; Ctrl-C and SIGTERM exit (status 130) and so run it too
run_on_exit() {
	on_exit=$1
	trap '"$on_exit"' EXIT
	trap 'exit 130' INT TERM
}
