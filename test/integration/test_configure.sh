#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_configure.sh - configure refuses, with one line saying what to install
# or pass, a Slurm source of another version, an unconfigured tree, a path
# that is no Slurm tree, no Slurm source in DFRS_CACHE, a Slurm release it is
# not built against, a prefix without slurmctld, and a missing library;
# without cmocka it goes on and make check stops, saying what to install.
# The checks past the Slurm source need the one contribs/setup keeps in
# DFRS_CACHE (default /var/cache/slurm-dfrs), which configure finds there.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect_refusal MESSAGE CONFIGURE-ARGS...: configure fails and its last line
# is exactly "configure: error: MESSAGE"
expect_refusal() {
	local want=$1 got; shift
	got=$(cd "$tmp/b" && "$top/configure" -q "$@" 2>&1 | tail -n 1)
	[ "$got" = "configure: error: $want" ] || fail "configure $*: got '$got', want 'configure: error: $want'"
}

mkdir -p "$tmp/b" "$tmp/src/src/slurmctld" "$tmp/src/slurm"
touch "$tmp/src/src/slurmctld/slurmctld.h"
installed=$(/usr/sbin/slurmctld-wlm -V | awk '{print $NF}')

expect_refusal "$tmp/nowhere is not a Slurm source tree (no src/slurmctld/slurmctld.h): pass --with-slurm-source=DIR" \
	--with-slurm-source="$tmp/nowhere"
mkdir "$tmp/cache"
DFRS_CACHE=$tmp/cache expect_refusal "no Slurm source tree in $tmp/cache: pass --with-slurm-source=DIR (a configured slurm-wlm $installed source; contribs/setup fetches one into DFRS_CACHE)"
expect_refusal "$tmp/src is not configured (no config.h): run ./configure in it (contribs/setup does)" \
	--with-slurm-source="$tmp/src"
touch "$tmp/src/slurm/slurm_version.h"
echo '#define SLURM_VERSION_STRING "21.08.5"' > "$tmp/src/config.h"
expect_refusal "Slurm source in $tmp/src is version 21.08.5 but the installed slurmctld is $installed: pass --with-slurm-source=DIR for $installed" \
	--with-slurm-source="$tmp/src"
# a release between (or after) the tested ones, installed in a prefix
mkdir -p "$tmp/prefix/sbin"
printf '#!/bin/sh\necho slurm 23.11.4\n' > "$tmp/prefix/sbin/slurmctld"
chmod +x "$tmp/prefix/sbin/slurmctld"
expect_refusal "$tmp/prefix/sbin/slurmctld is Slurm 23.11.4: slurm-dfrs is built against Slurm 22.05, 24.11, 25.05, 25.11 and 26.05 only" \
	--with-slurm-prefix="$tmp/prefix"
expect_refusal "no slurmctld in $tmp/nowhere/sbin: pass --with-slurm-prefix=DIR where Slurm is installed" \
	--with-slurm-prefix="$tmp/nowhere"
# a missing library, simulated through autoconf's cache variables
expect_refusal "json-c library not found: install libjson-c-dev" ac_cv_lib_json_c_json_tokener_parse=no
expect_refusal "libcgroup headers not found: install libcgroup-dev" ac_cv_header_libcgroup_h=no

# cmocka is needed only by make check
out=$(cd "$tmp/b" && "$top/configure" -q ac_cv_header_cmocka_h=no 2>&1) ||
	fail "configure without cmocka failed: $(echo "$out" | tail -n 1)"
grep -qx "configure: WARNING: cmocka not found: make check will need libcmocka-dev" <<<"$out" ||
	fail "configure without cmocka did not warn: '$out'"
if out=$(make -s -C "$tmp/b" check-local 2>&1); then
	fail "make check without cmocka succeeded"
else
	grep -q "^make check: the unit tests need cmocka: install libcmocka-dev and run configure again$" <<<"$out" ||
		fail "make check without cmocka: got '$out'"
fi

finish
