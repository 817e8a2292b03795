# shellcheck shell=sh
# cli_expect.sh - sourced by the test/unit/test_*_cli.sh scripts: a scratch
# directory ($tmp, removed on exit), fail, expect and finish, for running
# the dfrs program of this build ($DFRS, default ./dfrs).
DFRS=${DFRS:-./dfrs}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect STATUS NEEDLE -- ARGS: run $DFRS ARGS; its exit status must be
# STATUS and NEEDLE must be in its stdout + stderr (stdout with blanks and
# newlines removed when CLI_FLATTEN=1).  With CLI_ONE_MESSAGE=1 a failing
# run must print one line on stderr and nothing on stdout.
expect() {
	status=$1 needle=$2
	shift 3
	"$DFRS" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = "$status" ] || fail "dfrs $*: exit $rc, want $status ($(cat "$tmp/err"))"
	if [ "${CLI_FLATTEN:-0}" = 1 ]; then
		tr -d ' \n' <"$tmp/out" >"$tmp/all"
	else
		cat "$tmp/out" >"$tmp/all"
	fi
	cat "$tmp/err" >>"$tmp/all"
	grep -qF -- "$needle" "$tmp/all" ||
		fail "dfrs $*: output lacks '$needle': $(cat "$tmp/all")"
	if [ "${CLI_ONE_MESSAGE:-0}" = 1 ] && [ "$status" != 0 ]; then
		[ "$(wc -l <"$tmp/err")" = 1 ] || fail "dfrs $*: not one message: $(cat "$tmp/err")"
		[ ! -s "$tmp/out" ] || fail "dfrs $*: printed to stdout on error"
	fi
}

# finish WHAT: the summary line and the exit status
finish() {
	if [ "$fails" -gt 0 ]; then
		echo "$fails failure(s)"
		exit 1
	fi
	echo "ok: $1"
}
