#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test_sim_excerpt_cli.sh - argument errors of dfrs sim and dfrs excerpt:
# exit status 2 and one message on stderr naming the option (an option
# given without its value says so, not "unknown option").  Run by make
# check from the build directory.
set -u
. "$(dirname "$0")/cli_expect.sh"
CLI_ONE_MESSAGE=1
swf=$(dirname "$0")/../data/small.swf

expect 2 "dfrs sim: option '--trace' needs a value" -- sim --trace
expect 2 "dfrs sim: option '--nodes' needs a value" -- sim --trace "$swf" --nodes
expect 2 "dfrs sim: unknown option '--bogus'" -- sim --bogus
expect 2 "dfrs sim: --trace FILE is required" -- sim
expect 2 "dfrs sim: unexpected argument 'extra'" -- sim --trace "$swf" extra
expect 2 "dfrs sim: --nodes: '0' must be a whole number from 1" -- sim --trace "$swf" --nodes 0
expect 2 "dfrs sim: --nodes: '2.5' must be a whole number from 1" -- sim --trace "$swf" --nodes 2.5
expect 2 "dfrs sim: --load must be above 0" -- sim --trace "$swf" --load 0
expect 2 "dfrs sim: --load: 'abc' is not a number" -- sim --trace "$swf" --load abc
expect 2 "dfrs sim: --policy: unknown policy 'nope'" -- sim --trace "$swf" --policy nope
expect 2 "dfrs sim: --format: 'nope' is not table, json or csv" -- sim --trace "$swf" --format nope

expect 2 "dfrs excerpt: option '--trace' needs a value" -- excerpt --trace
expect 2 "dfrs excerpt: option '--nodes' needs a value" -- excerpt --trace "$swf" --nodes
expect 2 "dfrs excerpt: unknown option '--bogus'" -- excerpt --bogus
expect 2 "dfrs excerpt: --trace FILE and --nodes N are required" -- excerpt --trace "$swf"
expect 2 "dfrs excerpt: --compress must be at least 1" -- excerpt --trace "$swf" --nodes 2 --compress 0.5
expect 2 "dfrs excerpt: --jobs: '0' must be a whole number from 1" -- excerpt --trace "$swf" --nodes 2 --jobs 0
expect 2 "dfrs excerpt: --offset: 'x' is not a number" -- excerpt --trace "$swf" --nodes 2 --offset x
expect 2 "dfrs excerpt: unexpected argument 'extra'" -- excerpt --trace "$swf" --nodes 2 extra
expect 1 "dfrs excerpt: /nonexistent.swf: cannot open" -- excerpt --trace /nonexistent.swf --nodes 2

finish "dfrs sim and dfrs excerpt argument errors"
