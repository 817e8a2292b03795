#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_rpm_packages.sh - the RPM packages of slurm-dfrs.spec that
# contribs/build-rpm built (DFRS_RPMS: its output directory), as an EL site
# gets them: the three packages (split as the Debian ones), each with exactly
# its files, the Slurm release in Release and as an exact Requires, the node
# agent's unit naming the installed paths and its systemd scriptlets.  When
# the build directory (DFRS_BUILD) is for the same Slurm release, the plugins
# taken out of the package with rpm2cpio (and nothing else of ours) are
# PluginDir's only sched/amcbf and select/dfrs in a local cluster: slurmctld
# maps those very files and runs jobs to completion, as its jobcomp records
# and scontrol say.  Without DFRS_RPMS, for a build against a Slurm that
# contribs/setup built from its tarball (24.11 and 26.05: in contribs/check's
# lists for both), it builds them first with contribs/build-rpm from that tarball
# (DFRS_SLURM_TARBALL, default <cache>/slurm-wlm_<release>.orig.tar.gz),
# about a minute; for Debian's 22.05 packages it skips (77) in one line.
set -uo pipefail
# shellcheck source=test/integration/lib.sh
. "$(dirname "$0")/lib.sh"

if ! command -v rpmbuild >/dev/null || ! command -v cpio >/dev/null; then
	echo "SKIP: $test_name: no rpmbuild or cpio (apt-get install rpm cpio; contribs/setup does)"
	exit 77
fi
rpms=${DFRS_RPMS:-}
if [ -z "$rpms" ]; then
	tarball=${DFRS_SLURM_TARBALL:-${DFRS_CACHE:-/var/cache/slurm-dfrs}/slurm-wlm_$DFRS_SLURM_VERSION.orig.tar.gz}
	if [ -z "$DFRS_SLURM_PREFIX" ]; then
		echo "SKIP: $test_name: a build for Debian's Slurm packages; RPMs are built here for a Slurm built from its tarball (24.11), or given (DFRS_RPMS=DIR)"
		exit 77
	fi
	[ -f "$tarball" ] || { echo "SKIP: $test_name: no $tarball to build the RPMs from (DFRS_SLURM_TARBALL)"; exit 77; }
	t0=$SECONDS
	DFRS_BUILD=$build "$top/contribs/build-rpm" "$tarball" >/dev/null || { fail "contribs/build-rpm $tarball failed"; finish; }
	rpms=$build/rpm-$DFRS_SLURM_VERSION
	echo "  built by contribs/build-rpm in $((SECONDS - t0)) s"
fi
rpms=$(cd "$rpms" && pwd) || { fail "DFRS_RPMS=$rpms: no such directory"; finish; }

# pkg NAME: the binary package NAME in DFRS_RPMS
pkg() {
	find "$rpms/RPMS" -name "$1-[0-9]*.rpm" | head -n 1
}
# q RPM ARGS...: rpm -qp (no RPM database here, hence no warnings kept)
q() { local f=$1; shift; rpm -qp "$@" "$f" 2>/dev/null; }

plugins=$(pkg slurm-dfrs-plugins) agent=$(pkg slurm-dfrs-nodeagent) tools=$(pkg slurm-dfrs)
for f in "$plugins" "$agent" "$tools"; do
	[ -f "$f" ] || { fail "$rpms/RPMS: not the three packages slurm-dfrs-plugins, -nodeagent and slurm-dfrs"; finish; }
done
sver=$(q "$plugins" --requires | awk '$1 == "slurm" && $2 == "=" { print $3 }')
ver=$(q "$plugins" --qf '%{VERSION}')
echo "  slurm-dfrs $ver for Slurm ${sver:-?}"
[ -n "$sver" ] || { fail "slurm-dfrs-plugins: no 'Requires: slurm = X'"; finish; }

# the files of each package, exactly (rpm's /usr/lib/.build-id links aside)
files_are() {
	local got want
	got=$(q "$1" -l | grep -v '^/usr/lib/\.build-id')
	want=$(printf '%s\n' "${@:2}")
	[ "$got" = "$want" ] ||
		fail "$(basename "$1"): files differ (-want +got): $(diff <(echo "$want") <(echo "$got") | grep '^[<>]' | tr '\n' ' ')"
}
files_are "$plugins" \
	/usr/lib64/slurm/sched_amcbf.so /usr/lib64/slurm/select_dfrs.so \
	"/usr/share/doc/slurm-dfrs-plugins-$ver" "/usr/share/doc/slurm-dfrs-plugins-$ver/README.md" \
	"/usr/share/doc/slurm-dfrs-plugins-$ver/admin-guide.md" "/usr/share/doc/slurm-dfrs-plugins-$ver/tuning-guide.md" \
	"/usr/share/licenses/slurm-dfrs-plugins-$ver" "/usr/share/licenses/slurm-dfrs-plugins-$ver/COPYING"
files_are "$agent" \
	/etc/default/dfrs-nodeagent /usr/lib/systemd/system/dfrs-nodeagent.service \
	/usr/sbin/dfrs-nodeagent \
	"/usr/share/licenses/slurm-dfrs-nodeagent-$ver" "/usr/share/licenses/slurm-dfrs-nodeagent-$ver/COPYING" \
	/usr/share/man/man8/dfrs-nodeagent.8
files_are "$tools" \
	/usr/bin/dfrs /usr/bin/dfrs-work \
	"/usr/share/licenses/slurm-dfrs-$ver" "/usr/share/licenses/slurm-dfrs-$ver/COPYING" \
	/usr/share/man/man1/dfrs.1 /usr/share/man/man5/slurm-dfrs.5

# the Slurm release: in Release, and required exactly by what runs with it
for f in "$plugins" "$agent" "$tools"; do
	rel=$(q "$f" --qf '%{RELEASE}')
	case $rel in 1.slurm"$sver"|1.slurm"$sver".*) ;; *) fail "$(basename "$f"): Release $rel, not 1.slurm${sver}[.dist]" ;; esac
done
for f in "$plugins" "$agent"; do
	q "$f" --requires | grep -x "slurm = $sver" >/dev/null || fail "$(basename "$f"): no 'Requires: slurm = $sver'"
done
q "$tools" --requires | grep '^slurm ' >/dev/null && fail "slurm-dfrs requires slurm (the dfrs command needs none)"
q "$agent" --configfiles | grep -x /etc/default/dfrs-nodeagent >/dev/null ||
	fail "slurm-dfrs-nodeagent: /etc/default/dfrs-nodeagent is not a config file"

# the unit and the scriptlets
tmp=$build/test-rpm
rm -rf "$tmp"
mkdir -p "$tmp/root"
for f in "$plugins" "$agent"; do
	(cd "$tmp/root" && rpm2cpio "$f" | cpio -idm --quiet) || fail "rpm2cpio $(basename "$f") failed"
done
unit=$tmp/root/usr/lib/systemd/system/dfrs-nodeagent.service
# shellcheck disable=SC2016 # the unit's own $DFRS_NODEAGENT_OPTIONS
grep -qx 'ExecStart=/usr/sbin/dfrs-nodeagent $DFRS_NODEAGENT_OPTIONS' "$unit" ||
	fail "dfrs-nodeagent.service: no 'ExecStart=/usr/sbin/dfrs-nodeagent \$DFRS_NODEAGENT_OPTIONS'"
grep -qx 'EnvironmentFile=-/etc/default/dfrs-nodeagent' "$unit" ||
	fail "dfrs-nodeagent.service: no 'EnvironmentFile=-/etc/default/dfrs-nodeagent'"
# %systemd_post, %systemd_preun, %systemd_postun_with_restart: each names the unit
for s in postinstall preuninstall postuninstall; do
	q "$agent" --scripts | awk -v s="$s" '/scriptlet/ { in_s = ($1 == s) } in_s' |
		grep 'dfrs-nodeagent\.service' >/dev/null || fail "slurm-dfrs-nodeagent: no $s scriptlet for dfrs-nodeagent.service"
done
echo "  packages: files, Release, Requires, unit and scriptlets checked"

# the plugins from the package in a local cluster of that Slurm: a build
# directory of their own holding only slurm.env (which Slurm) and plugins/
if [ "$DFRS_SLURM_VERSION" != "$sver" ]; then
	echo "  live: skipped (the build in $build is for Slurm ${DFRS_SLURM_VERSION:-?}, the packages for $sver)"
	finish
fi
mkdir -p "$tmp/build"
cp "$build/slurm.env" "$tmp/build/"
ln -s "$tmp/root/usr/lib64/slurm" "$tmp/build/plugins"
build=$tmp/build
export DFRS_BUILD=$build
start_cluster rpm --nodes 3 --port 17400 --sched sched/amcbf --select select/dfrs ||
	{ fail "cluster with the package's plugins did not start"; finish; }
pid=$(ctld_pid)
for p in sched_amcbf select_dfrs; do
	grep -q " $tmp/root/usr/lib64/slurm/$p.so\$" "/proc/$pid/maps" ||
		fail "slurmctld has not mapped the package's $p.so"
done
log_has 'sched/amcbf: init: plugin loaded' || fail "slurmctld log: sched/amcbf not loaded"
log_has 'select/dfrs: init: loaded' || fail "slurmctld log: select/dfrs not loaded"
ids=()
ids+=("$(submit -N1 --wrap 'sleep 2')")
ids+=("$(submit -N3 --wrap 'sleep 1')")
ids+=("$(submit -N2 --wrap 'sleep 2')")
ids+=("$(submit -N1 --wrap 'sleep 1')")
for id in "${ids[@]}"; do [ -n "$id" ] || fail "sbatch did not return a job id"; done
wait_jobs_done 120 "${ids[@]}"
assert_completed_once "${ids[@]}"
for id in "${ids[@]}"; do
	st=$(scontrol show job "$id" | sed -n 's/.*JobState=\([A-Z_]*\) .*/\1/p')
	[ "$st" = COMPLETED ] || fail "job $id: scontrol says JobState=$st, not COMPLETED"
done
echo "  live: ${#ids[@]} jobs COMPLETED under the package's sched_amcbf.so and select_dfrs.so (Slurm $sver)"
stop_cluster
finish
