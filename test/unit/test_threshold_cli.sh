#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_threshold_cli.sh - dfrs threshold end to end: the JSON of the
# paper's Fig. 2 setting (He et al. 2012), --gamma's policy and
# decision table, --lambda, and exit status 2 with one message naming the
# bad argument.  Run by make check from the build directory.
set -u
CLI_FLATTEN=1
CLI_ONE_MESSAGE=1
. "$(dirname "$0")/cli_expect.sh"

fig2=(--n 3 --beta 0.9 --p01 0.1 --p11 0.9)
expect 0 '"thresholds":[1.19047619,1.643740535,2.535752278]' -- threshold "${fig2[@]}"
expect 0 '"processing":[10,9.973897912,9.010922692,3.705544602]' -- threshold "${fig2[@]}"
expect 0 '"migrations":[2.7,2.678074246,2.092230435,0]' -- threshold "${fig2[@]}"
expect 0 '"myopic_thresholds":[0.3333333333,0.5,1]' -- threshold "${fig2[@]}"
expect 0 '"lambda":[0,0,0,1]' -- threshold "${fig2[@]}"
expect 0 '"policy":1,"decision_table":["wait","migrate","migrate","run"]' -- threshold "${fig2[@]}" --gamma 1.5
expect 0 '"policy":3,"decision_table":["wait","wait","wait","run"]' -- threshold "${fig2[@]}" --gamma 100
expect 0 '"policy":0,"decision_table":["migrate","migrate","migrate","run"]' -- threshold "${fig2[@]}" --gamma 0
# lambda changes P_i and M_i but not the thresholds (all states reachable)
expect 0 '"thresholds":[1.19047619,1.643740535,2.535752278]' -- threshold "${fig2[@]}" --lambda 0.25,0.25,0.25,0.25
# p01 = p11: the myopic policy is optimal, same thresholds
expect 0 '"thresholds":[0.25,0.3333333333,0.5,1]' -- threshold --n 4 --beta 0.5 --p01 0.3 --p11 0.3
expect 0 'usage:dfrsthreshold--nN' -- threshold --help

expect 2 '--n 0: not an integer in 1..1024' -- threshold --n 0 --beta 0.9 --p01 0.1 --p11 0.9
expect 2 '--n 3x: not an integer' -- threshold --n 3x --beta 0.9 --p01 0.1 --p11 0.9
expect 2 'beta=1: the discount factor must be in (0,1)' -- threshold --n 3 --beta 1 --p01 0.1 --p11 0.9
expect 2 'beta=0: the discount factor must be in (0,1)' -- threshold --n 3 --beta 0 --p01 0.1 --p11 0.9
expect 2 'p01=1.1: not a probability in [0,1]' -- threshold --n 3 --beta 0.9 --p01 1.1 --p11 0.9
expect 2 'p11=-0.1: not a probability in [0,1]' -- threshold --n 3 --beta 0.9 --p01 0.1 --p11 -0.1
expect 2 '--p01 nan: not a number' -- threshold --n 3 --beta 0.9 --p01 nan --p11 0.9
expect 2 '--lambda 0,0,1: 3 entries, need n+1=4' -- threshold "${fig2[@]}" --lambda 0,0,1
expect 2 'lambda sums to 1.1, not 1' -- threshold "${fig2[@]}" --lambda 0,0,0.5,0.6
expect 2 'lambda[0]=-0.5: not a probability' -- threshold "${fig2[@]}" --lambda -0.5,0.5,0,1
expect 2 '--lambda 0,x,0,1: entry 1 is not a number' -- threshold "${fig2[@]}" --lambda 0,x,0,1
expect 2 '--gamma -1: must be >= 0' -- threshold "${fig2[@]}" --gamma -1
expect 2 'missing --p11' -- threshold --n 3 --beta 0.9 --p01 0.1
expect 2 "unknown argument '--bogus'" -- threshold "${fig2[@]}" --bogus
expect 2 '--gamma needs a value' -- threshold "${fig2[@]}" --gamma

finish "dfrs threshold"
