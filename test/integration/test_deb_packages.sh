#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_deb_packages.sh - the Debian packages (contribs/build-deb) on this
# machine's Slurm, from install to purge:
#  1. builds them, or reuses those in <build>/deb when nothing in src/,
#     debian/ or the build files changed since (DFRS_DEB_REBUILD=1: always);
#  2. apt refuses a plugins package pinned to another Slurm build beside this
#     one, and a Slurm upgrade under the installed plugins (hand-made .debs of
#     another version, `apt-get install --simulate`);
#  3. apt-get installs the three packages; a 2-node local cluster with NO
#     PluginDir line (local-cluster --installed-plugins) loads sched/amcbf and
#     select/dfrs from Slurm's own PluginDir, whose first log lines name
#     slurm-dfrs's version and Slurm's release, and runs jobs to one
#     COMPLETED record each; the installed dfrs-nodeagent, started as its
#     systemd unit starts it, stops within a second of SIGTERM;
#     systemd-analyze verify accepts the installed unit;
#  4. rolls back as doc/admin-guide.md says (slurm.conf back to Slurm's
#     schedulers, daemons restarted, then apt-get purge) and checks the
#     machine is as it was before the install: none of the packages'
#     files left, Debian's Slurm packages untouched, and jobs run under
#     sched/backfill + select/cons_tres.
# Refuses to run (exit 1) if a slurm-dfrs package is installed already: it
# would purge what someone else installed.  Run it under
# flock /tmp/dfrs-cluster.lock: while the packages are installed, Slurm's own
# PluginDir holds sched_amcbf.so and select_dfrs.so, which it searches before
# any other test's build directory.
set -uo pipefail
# shellcheck source=test/integration/lib.sh
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || { echo "SKIP: $test_name needs root (apt-get)"; exit 77; }
[ -z "$DFRS_SLURM_PREFIX" ] ||
	{ echo "SKIP: $test_name is for Debian's Slurm packages (build configured for $DFRS_SLURM_PREFIX)"; exit 77; }

pkgs=(slurm-dfrs slurm-dfrs-plugins slurm-dfrs-nodeagent)
debs=$build/deb
version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
arch=$(dpkg --print-architecture)
slurm_deb=$(dpkg-query -W -f='${Version}' slurmctld)
# each binary package's version names the Slurm release it is for
bversion=$version+slurm${slurm_deb%%-*}
plugindir=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/slurm-wlm
tmp=$(mktemp -d)
agent_pid=""

installed() { dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep '^install ok installed' >/dev/null; }
for p in "${pkgs[@]}"; do
	installed "$p" && { echo "FAIL: $test_name: $p is installed already; purge it first"; exit 1; }
done
slurm_before=$(dpkg-query -W -f='${Package} ${Version} ${Status}\n' 'slurm*' 'libslurm*' 2>/dev/null | sort)

cleanup() {
	[ -z "$agent_pid" ] || kill -9 "$agent_pid" 2>/dev/null
	stop_cluster
	for p in "${pkgs[@]}"; do
		if dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -v '^unknown ok not-installed' >/dev/null; then
			DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "${pkgs[@]}" >/dev/null 2>&1
			break
		fi
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
# start_cluster sets its own EXIT trap: put ours back, which also stops it
start() {
	local rc=0
	start_cluster "$@" || rc=$?
	trap cleanup EXIT
	return $rc
}

# --- 1. the packages ---
t0=$SECONDS
deb_plugins=$debs/slurm-dfrs-plugins_${bversion}_$arch.deb
stale=1
if [ "${DFRS_DEB_REBUILD:-0}" != 1 ] && [ -f "$deb_plugins" ] &&
   [ -f "$debs/slurm-dfrs_${bversion}_$arch.deb" ] && [ -f "$debs/slurm-dfrs-nodeagent_${bversion}_$arch.deb" ] &&
   [ -z "$(find "$top/src" "$top/debian" "$top/configure.ac" "$top/Makefile.am" "$top/doc/man" \
	-newer "$deb_plugins" -print -quit)" ]; then
	stale=0
	echo "  reusing the packages in $debs (nothing changed since they were built)"
fi
if [ "$stale" = 1 ]; then
	# without the unit tests (make check) inside the package build: the
	# tree's own build has run them (contribs/check runs them first)
	DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS:-nocheck} "$top/contribs/build-deb" ||
		{ fail "contribs/build-deb failed"; finish; }
fi
echo "  packages ready in $((SECONDS - t0)) s"
[ -f "$deb_plugins" ] ||
	{ fail "no $(basename "$deb_plugins"): the packages' version does not name Slurm's release"; finish; }
deps=$(dpkg-deb -f "$deb_plugins" Depends)
grep -qF "slurm-wlm-basic-plugins (= $slurm_deb)" <<<"$deps" ||
	fail "slurm-dfrs-plugins Depends '$deps' does not pin slurm-wlm-basic-plugins (= $slurm_deb)"

# --- 2. apt refuses another Slurm ---
# (a) the plugins package as it would be built for another Slurm build,
# beside this machine's Slurm
other=${slurm_deb%u*}u$((${slurm_deb##*u} + 1))
[ "$other" != "$slurm_deb" ] || other=$slurm_deb.1
dpkg-deb -R "$deb_plugins" "$tmp/other" || fail "dpkg-deb -R $deb_plugins"
sed -i "s/slurm-wlm-basic-plugins (= [^)]*)/slurm-wlm-basic-plugins (= $other)/" "$tmp/other/DEBIAN/control"
dpkg-deb -b "$tmp/other" "$tmp/slurm-dfrs-plugins-other.deb" >/dev/null
if out=$(apt-get install --simulate "$tmp/slurm-dfrs-plugins-other.deb" 2>&1) ||
   ! grep -qF "Depends: slurm-wlm-basic-plugins (= $other) but $slurm_deb is to be installed" <<<"$out"; then
	fail "apt did not refuse plugins built for Slurm $other beside $slurm_deb:"
	echo "$out" | tail -n 8
else
	echo "  apt refuses plugins for Slurm $other beside $slurm_deb: $(grep -F "Depends: slurm-wlm-basic-plugins" <<<"$out" | sed 's/^ *//')"
fi

# (b, before the install) the same Slurm upgrade that 3. tries under the
# installed plugins, tried here without them: apt must accept it
mkdir -p "$tmp/fake"
while read -r pkg; do
	d=$tmp/fake-$pkg
	mkdir -p "$d/DEBIAN"
	{
		echo "Package: $pkg"
		echo "Version: $other"
		echo "Architecture: $(dpkg-query -W -f='${Architecture}' "$pkg")"
		echo "Maintainer: test_deb_packages.sh <root@localhost>"
		for field in Pre-Depends Depends; do
			v=$(dpkg-query -W -f="\${$field}" "$pkg")
			[ -z "$v" ] || echo "$field: ${v//$slurm_deb/$other}"
		done
		echo "Description: an empty stand-in for a Slurm upgrade (test only)"
	} >"$d/DEBIAN/control"
	dpkg-deb -b "$d" "$tmp/fake/$pkg.deb" >/dev/null || fail "dpkg-deb -b $d"
done < <(dpkg-query -W -f='${Package} ${Status} ${source:Package}\n' |
	awk '$NF == "slurm-wlm" && $4 == "installed" { print $1 }')
if out=$(apt-get install --simulate --no-remove "$tmp"/fake/*.deb 2>&1); then
	echo "  without slurm-dfrs-plugins, apt would upgrade Slurm to $other ($(find "$tmp/fake" -name "*.deb" | wc -l) packages)"
else
	fail "apt refuses the stand-in Slurm $other even without our packages (the next check would prove nothing):"
	echo "$out" | tail -n 8
fi

# --- 3. install, run a cluster on the installed plugins ---
t0=$SECONDS
out=$(DEBIAN_FRONTEND=noninteractive apt-get install -y "$debs"/slurm-dfrs_"${bversion}"_"$arch".deb \
	"$debs"/slurm-dfrs-plugins_"${bversion}"_"$arch".deb \
	"$debs"/slurm-dfrs-nodeagent_"${bversion}"_"$arch".deb 2>&1) ||
	{ echo "$out" | tail -n 10; fail "apt-get install of the packages failed"; finish; }
echo "  apt-get install: $((SECONDS - t0)) s"
for f in "$plugindir/sched_amcbf.so" "$plugindir/select_dfrs.so" /usr/bin/dfrs \
	 /usr/sbin/dfrs-nodeagent /lib/systemd/system/dfrs-nodeagent.service \
	 /etc/default/dfrs-nodeagent /usr/share/man/man5/slurm-dfrs.5.gz; do
	[ -e "$f" ] || fail "not installed: $f"
done
upstream=${version%-*}
want_version="slurm-dfrs $upstream (built for Slurm ${slurm_deb%%-*})"
[ "$(dfrs --version)" = "$want_version" ] ||
	fail "dfrs --version says '$(dfrs --version)', not '$want_version'"
if command -v systemd-analyze >/dev/null; then
	out=$(systemd-analyze verify /lib/systemd/system/dfrs-nodeagent.service 2>&1) ||
		fail "systemd-analyze verify refuses the installed unit: $out"
	[ -z "$out" ] || echo "  systemd-analyze verify says: $out"
fi

# (b) a Slurm upgrade under the installed plugins: every installed package of
# Debian's slurm-wlm at version $other (hand-made, empty, their Depends
# moved to $other too), as a security update would bring them.  Without
# slurm-dfrs-plugins apt would take them (checked before the install,
# above); with it, apt refuses when it may not remove anything (as
# `apt-get upgrade` and unattended-upgrades never do), and otherwise names
# slurm-dfrs-plugins for removal: it is never left behind, installed
if out=$(apt-get install --simulate --no-remove "$tmp"/fake/*.deb 2>&1) ||
   ! grep -qx "E: Packages need to be removed but remove is disabled." <<<"$out"; then
	fail "apt did not refuse a Slurm upgrade to $other under the installed plugins:"
	echo "$out" | tail -n 8
else
	echo "  apt-get install --no-remove refuses a Slurm upgrade to $other under the plugins: $(tail -n 1 <<<"$out")"
fi
out=$(apt-get install --simulate "$tmp"/fake/*.deb 2>&1)
removed=$(sed -n '/^The following packages will be REMOVED:/,/^[^ ]/{/^ /p}' <<<"$out" | xargs)
if [ "$removed" = slurm-dfrs-plugins ]; then
	echo "  apt-get install of that upgrade, removals allowed: would remove slurm-dfrs-plugins (asks first)"
else
	fail "apt-get install --simulate of Slurm $other, removals allowed: removes '$removed', not slurm-dfrs-plugins alone"
	echo "$out" | tail -n 12
fi

start deb --installed-plugins --nodes 2 --port 17950 \
	--sched sched/amcbf --select select/dfrs ||
	{ fail "cluster on the installed plugins did not start"; finish; }
grep -q '^PluginDir' "$SLURM_CONF" && fail "slurm.conf has a PluginDir line"
conf=$(scontrol show config)
grep -qE "^PluginDir += $plugindir\$" <<<"$conf" ||
	fail "scontrol show config: PluginDir is not Slurm's own $plugindir"
grep -qE "^SchedulerType += sched/amcbf\$" <<<"$conf" || fail "SchedulerType is not sched/amcbf"
grep -qE "^SelectType += select/dfrs\$" <<<"$conf" || fail "SelectType is not select/dfrs"
log=$CLUSTER_DIR/slurmctld.log
for p in sched/amcbf select/dfrs; do
	line="$p: init: slurm-dfrs $upstream built for Slurm ${slurm_deb%%-*}"
	grep -qF "$line" "$log" || fail "slurmctld log: no '$line'"
done
ids=()
ids+=("$(submit -N1 --wrap 'sleep 1')")
ids+=("$(submit -N2 --wrap 'sleep 2')")
ids+=("$(submit -N1 --wrap 'sleep 1')")
wait_jobs_done 60 "${ids[@]}"
assert_completed_once "${ids[@]}"
echo "  ${#ids[@]} jobs under the installed sched/amcbf + select/dfrs: $(grep -c 'JobState=COMPLETED' "$CLUSTER_DIR/jobcomp.txt") COMPLETED records"

# the installed agent as dfrs-nodeagent.service runs it: its options file,
# then SIGTERM (systemctl stop's signal) while the cluster answers
DFRS_NODEAGENT_OPTIONS=""
# shellcheck source=/dev/null
. /etc/default/dfrs-nodeagent
# shellcheck disable=SC2086 # the options file's words, as systemd splits them
/usr/sbin/dfrs-nodeagent $DFRS_NODEAGENT_OPTIONS --node n1 --log "$tmp/agent.log" </dev/null &
agent_pid=$!
wait_for "the installed dfrs-nodeagent logs its first pass" \
	grep -qs "cgroup hierarchy\|not enforcing" "$tmp/agent.log"
sleep 1
t0=$(date +%s%N)
kill -TERM "$agent_pid"
for ((i = 0; i < 50; i++)); do kill -0 "$agent_pid" 2>/dev/null || break; sleep 0.02; done
ms=$((($(date +%s%N) - t0) / 1000000))
if kill -0 "$agent_pid" 2>/dev/null; then
	fail "dfrs-nodeagent still runs 1 s after SIGTERM"
else
	wait "$agent_pid"
	rc=$?
	agent_pid=""
	[ "$rc" = 0 ] || fail "dfrs-nodeagent exited with status $rc after SIGTERM"
	echo "  the installed dfrs-nodeagent stopped $ms ms after SIGTERM"
fi

# --- 4. roll back as the admin guide says: slurm.conf back to Slurm's own
# schedulers and the daemons restarted, then the packages purged ---
stop_cluster
start backfill --installed-plugins --nodes 2 --port 17950 \
	--sched sched/backfill --select select/cons_tres ||
	{ fail "cluster on Slurm's own schedulers did not start"; finish; }
t0=$SECONDS
DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "${pkgs[@]}" >/dev/null 2>&1 ||
	fail "apt-get purge ${pkgs[*]} failed"
echo "  apt-get purge: $((SECONDS - t0)) s"
for p in "${pkgs[@]}"; do
	! installed "$p" || fail "$p still installed after the purge"
done
for f in "$plugindir/sched_amcbf.so" "$plugindir/select_dfrs.so" /usr/bin/dfrs \
	 /usr/sbin/dfrs-nodeagent /lib/systemd/system/dfrs-nodeagent.service /etc/default/dfrs-nodeagent \
	 /etc/systemd/system/multi-user.target.wants/dfrs-nodeagent.service \
	 /var/lib/systemd/deb-systemd-helper-enabled/dfrs-nodeagent.service.dsh-also; do
	[ ! -e "$f" ] || fail "left after the purge: $f"
done
slurm_after=$(dpkg-query -W -f='${Package} ${Version} ${Status}\n' 'slurm*' 'libslurm*' 2>/dev/null | sort)
[ "$slurm_after" = "$slurm_before" ] || {
	fail "Debian's Slurm packages changed:"
	diff <(echo "$slurm_before") <(echo "$slurm_after")
}
[ -z "$(dpkg --audit 2>&1)" ] || fail "dpkg --audit: $(dpkg --audit 2>&1 | head -3)"
# the cluster on Slurm's own schedulers runs jobs with the packages gone
ids=("$(submit -N2 --wrap 'sleep 1')" "$(submit -N1 --wrap 'sleep 1')")
wait_jobs_done 60 "${ids[@]}"
assert_completed_once "${ids[@]}"
echo "  after the purge, sched/backfill + select/cons_tres: $(grep -c 'JobState=COMPLETED' "$CLUSTER_DIR/jobcomp.txt") COMPLETED records"
stop_cluster
echo "  whole test: $SECONDS s"

finish
