#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# swf_to_availability.sh - an availability trace (the format of
# src/common/sim/avail_trace.h) from an SWF workload trace, in the manner of He
# et al. (2012, Sec. III-A): a node is ON in a slot iff the share of
# the slot it is busy with others' jobs is at most zeta.
#
#   contribs/avail/swf_to_availability.sh TRACE.swf[.gz] NODES SLOT_SECONDS ZETA [SEED]
#
# SWF records no node assignment, so each job (start = submit + wait, end =
# start + run time) takes its processors at random among those free then
# (awk's srand(SEED), default 1; all free ones if too few are free, as in
# a trace whose waits are missing).  Prints one line per slot up to the
# last job's end, one 0/1 column per processor 0..NODES-1.
set -eu
[ $# -ge 4 ] || { echo "usage: $0 TRACE.swf[.gz] NODES SLOT_SECONDS ZETA [SEED]" >&2; exit 2; }
trace=$1 nodes=$2 slot=$3 zeta=$4 seed=${5:-1}
case $trace in
*.gz) reader="gzip -dc" ;;
*) reader="cat" ;;
esac
# events "time kind job procs": kind 0 = end (frees first), 1 = start
$reader "$trace" | awk '
	/^;/ || NF < 5 { next }
	{
		wait = $3 < 0 ? 0 : $3; procs = $5 > 0 ? $5 : $8
		if ($4 <= 0 || procs <= 0) next
		print $2 + wait, 1, $1, procs; print $2 + wait + $4, 0, $1, procs
	}' | sort -n -k1,1 -k2,2 | awk -v nodes="$nodes" -v L="$slot" -v zeta="$zeta" \
	-v seed="$seed" -v src="$trace" '
	# busy[k, h]: seconds of slot k that processor h is busy
	function add(h, t0, t1,    k, k1, lo, hi) {
		if (t1 <= t0) return
		k1 = int((t1 - 1e-9) / L)
		for (k = int(t0 / L); k <= k1; k++) {
			lo = k * L > t0 ? k * L : t0
			hi = (k + 1) * L < t1 ? (k + 1) * L : t1
			busy[k, h] += hi - lo
		}
	}
	BEGIN { srand(seed); nfree = nodes; for (h = 0; h < nodes; h++) free[h] = h }
	$2 == 1 {
		got = 0
		for (i = 0; i < $4 && nfree > 0; i++) {
			j = int(rand() * nfree); h = free[j]; free[j] = free[--nfree]
			held[$3, got++] = h; since[h] = $1
		}
		count[$3] = got
	}
	$2 == 0 && ($3 in count) {
		for (i = 0; i < count[$3]; i++) {
			h = held[$3, i]; add(h, since[h], $1); free[nfree++] = h
			delete held[$3, i]
		}
		delete count[$3]
	}
	{ if ($1 > tmax) tmax = $1 }
	END {
		slots = int(tmax / L)
		printf "# availability from %s: %d processors, jobs placed at random (seed %d), %d s slots, ON iff busy <= %g of the slot\n", src, nodes, seed, L, zeta
		for (k = 0; k < slots; k++) {
			line = ""
			for (h = 0; h < nodes; h++)
				line = line (h ? " " : "") (busy[k, h] <= zeta * L ? 1 : 0)
			print line
		}
	}'
