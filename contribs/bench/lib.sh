# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# contribs/bench/lib.sh - what the live benchmarks (bench_amcbf_cycle.sh,
# bench_scale_live.sh) share: one local cluster at a time, its nodes made
# busy, a deep queue submitted, and the figures read from slurmctld's log and
# sdiag.  Sourced after contribs/lib.sh (say, die, stop_cluster):
#   . "$(dirname "$0")/../lib.sh"; . "$(dirname "$0")/lib.sh"
# CLUSTER_DIR names the running cluster ("" when none); start_cluster sets
# it, stop_bench clears it.

CLUSTER_DIR=${CLUSTER_DIR:-}
bench_cluster=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/local-cluster

# stop_bench: cancel the pending jobs (one bulk RPC; local-cluster stop ends
# the rest), then stop_cluster
stop_bench() {
	[ -n "$CLUSTER_DIR" ] || return 0
	say "stopping the cluster in $CLUSTER_DIR"
	scancel --quiet --state=PENDING 2>/dev/null || true
	stop_cluster
}

# start_cluster DIR PORT OPTIONS...: a local cluster in DIR, slurmctld on
# PORT, the rest contribs/local-cluster start's OPTIONS; sets CLUSTER_DIR and
# SLURM_CONF
start_cluster() {
	local dir=$1 port=$2 s=$SECONDS
	shift 2
	CLUSTER_DIR=$dir
	export SLURM_CONF=$CLUSTER_DIR/slurm.conf
	mkdir -p "$(dirname "$dir")"
	say "starting a cluster in $dir (port $port): $*; $(loadavg)"
	"$bench_cluster" start --dir "$dir" --port "$port" "$@" \
		>/dev/null || die "the cluster in $dir did not start"
	say "up in $((SECONDS - s)) s; $(free -m | awk '/^Mem:/ { print $3 " MB used" }')"
}

# the machine has 2 cores: anything else running shows in the figures
loadavg() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"; }
# count STATE: how many jobs squeue shows in STATE (R, PD, ...)
count() { squeue -h -t "$1" -o %i 2>/dev/null | wc -l; }
# the nodes the running jobs hold
busy_nodes() { squeue -h -t R -o %D 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }

# fill_nodes NODES WIDTH MINUTES [SBATCH-OPTIONS...]: every node busy, in
# sleep jobs of WIDTH nodes (the last one narrower) and a time limit of
# MINUTES that outlive the bench, running within 2 minutes
fill_nodes() {
	local n=$1 width=$2 minutes=$3 left=$1 w i
	shift 3
	while [ "$left" -gt 0 ]; do
		w=$width
		[ "$w" -le "$left" ] || w=$left
		sbatch -Q -N "$w" -t "$minutes" -J busy "$@" -o /dev/null \
			--wrap 'sleep 1000000' >/dev/null
		left=$((left - w))
	done
	for ((i = 0; i < 240; i++)); do
		[ "$(busy_nodes)" -ge "$n" ] && return 0
		sleep 0.5
	done
	die "$(busy_nodes) of $n nodes busy after 2 minutes"
}

# submit_pending JOBS MAX_NODES PARALLEL SINGLETON [SBATCH-OPTIONS...]: JOBS
# pending jobs by PARALLEL sbatch loops at once; job i asks for
# 1 + i % MAX_NODES nodes and 10 + i % 50 minutes and is named pend, or with
# SINGLETON G > 0 pend<i % G> with --dependency=singleton (jobs G apart wait
# for each other).  Sets submit_s (its seconds) and submitted (the jobs
# squeue shows by those names: the DFRS policy starts some as they come);
# fewer than JOBS is an error (sbatch's own in CLUSTER_DIR/sbatch.err).
submit_pending() {
	local jobs=$1 max_nodes=$2 parallel=$3 singleton=$4 start=$SECONDS
	shift 4
	# shellcheck disable=SC2016  # a script for the inner bash, which expands it
	seq 1 "$jobs" | max_nodes=$max_nodes singleton=$singleton \
		xargs -P "$parallel" -n 50 bash -c '
		err=$1 opts=("${@:3:$2}")
		shift $(($2 + 2))
		for i; do
			name=(-J pend)
			[ "$singleton" -gt 0 ] &&
				name=(-J "pend$((i % singleton))" --dependency=singleton)
			for try in 1 2 3; do
				sbatch -Q -N $((1 + i % max_nodes)) -t $((10 + i % 50)) "${name[@]}" \
					"${opts[@]}" -o /dev/null --wrap "sleep 60" >/dev/null 2>>"$err" && break
				sleep 1
			done
		done' submit "$CLUSTER_DIR/sbatch.err" $# "$@" || true
	submit_s=$((SECONDS - start))
	submitted=$(squeue -h -o %j 2>/dev/null | grep -c '^pend' || true)
	say "submitted $submitted of $jobs in $submit_s s ($parallel sbatch loops; $(awk -v n="$submitted" -v s="$submit_s" 'BEGIN { printf "%.0f", n / (s ? s : 1) }') jobs/s); $(loadavg)"
	[ "$submitted" -ge "$jobs" ] ||
		die "only $submitted of $jobs submitted (see $CLUSTER_DIR/sbatch.err)"
}

# slurmctld's log: its size now, and what it has from an offset (a size) on
log_size() { stat -c %s "$CLUSTER_DIR/slurmctld.log"; }
log_from() { tail -c +$(($1 + 1)) "$CLUSTER_DIR/slurmctld.log"; }
# the first "stats:" line after offset $1 (reading it all: no SIGPIPE)
# (the plugin's read-phase line "amcbf_read_log_stats: read phase: ..."
# also has "stats: " in it: the pattern asks for the cycle count)
first_stats() { log_from "$1" | awk '/ stats: [0-9]+ cycles/ && !n++'; }
# the N of each per-cycle debug line "cycle: N jobs and blockers" in file $1
# (amcbf_mode=dfrs: "dfrs(P) cycle: N jobs, M new", only when it decides)
cycle_sizes_in() { sed -n 's/.* cycle: \([0-9]*\) jobs\( and blockers\|,\).*/\1/p' "$1"; }
# dfrs mode: the agent times every wake-up ("cycle: X ms, N actions"), but
# the policy decides only when a job arrived or ended, or a repack is due
# ("dfrs(P) cycle: N jobs" just before the timing line); otherwise the
# wake-up reads the queue and returns, or waits for a requeued job to leave
# its nodes.  Those short wake-ups pull the mean of the stats line down, so
# the cycles that decided over at least one job (not those after a restart
# before the nodes registered) are counted apart: "D M" (how many, their
# mean ms) from log file $1, up to its first stats line.
decided_cycles_in() {
	awk '/ stats: [0-9]+ cycles/ { exit }
	     /dfrs\(.*\) cycle: [1-9][0-9]* jobs/ { dec = 1; next }
	     / cycle: [0-9.]+ ms, / {
		match($0, / cycle: [0-9.]+ ms/)
		if (dec) { n++; s += substr($0, RSTART + 8, RLENGTH - 11) }
		dec = 0 }
	     END { printf "%d %.2f\n", n, n ? s / n : 0 }' "$1"
}

# sdiag's backfill section, and one number of it: sdiag_field NAME TEXT
bf_sdiag() { sdiag | sed -n '/^Backfilling stats/,/^Latency/p' | sed '$d'; }
sdiag_field() { sed -n "s/^[[:space:]]*$1:[[:space:]]*\([0-9]*\).*/\1/p" <<<"$2" | head -1; }
