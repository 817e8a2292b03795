#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the libFuzzer harnesses (not part of make check, which replays their
# corpora instead: test/unit/test_trace_corpus.c, test_fuzz_corpus.c).
# Needs clang and compiler-rt: apt-get install -y clang libclang-rt-14-dev
# Usage: contribs/fuzz/build.sh [OUTDIR]   (default: build-fuzz)
# One program per target, OUTDIR/fuzz_NAME, its corpus in
# test/data/fuzz-corpus/NAME.  Run one at a time on one core, for example:
#   nice -n 15 build-fuzz/fuzz_dfrs_params -jobs=1 -workers=1 \
#     -runs=1000000 -max_len=4096 -rss_limit_mb=1024 \
#     /tmp/fuzz-work test/data/fuzz-corpus/dfrs_params
# (new inputs go to the first directory; keep test/data/fuzz-corpus small:
# copy crashers there, named crash-WHAT, and a few inputs that add coverage).
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$top/build-fuzz}
mkdir -p "$out/obj"
# CC may be a command with arguments (CC="ccache clang")
read -r -a cc <<<"${CC:-clang}"
flags=(-std=gnu11 -g -O1 -Wall -Wextra -Werror -Wno-unused-parameter
  -fno-sanitize-recover=undefined "-I$top/src/common" "-I$top/contribs/fuzz")

# the library, instrumented for coverage, once for every harness
objs=()
for src in "$top"/src/common/trace/*.c "$top"/src/common/sched/*.c \
	   "$top"/src/common/dfrs/*.c "$top"/src/common/avail/*.c \
	   "$top"/src/common/rules/*.c "$top"/src/common/need/*.c \
	   "$top"/src/common/suite/*.c "$top"/contribs/fuzz/fuzz_util.c; do
	obj=$out/obj/$(basename "$(dirname "$src")")_$(basename "$src" .c).o
	if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ]; then
		"${cc[@]}" "${flags[@]}" -fsanitize=fuzzer-no-link,address,undefined -c "$src" -o "$obj"
	fi
	objs+=("$obj")
done
rm -f "$out/libdfrs-fuzz.a"
ar rcs "$out/libdfrs-fuzz.a" "${objs[@]}"

# the trace reader's harness: its own entry point
"${cc[@]}" "${flags[@]}" -fsanitize=fuzzer,address,undefined \
    "$top/contribs/fuzz/fuzz_trace_parse.c" "$out/libdfrs-fuzz.a" \
    -ljson-c -lz -lm -o "$out/fuzz_trace_parse"
echo "built $out/fuzz_trace_parse"

# the others: fuzz_main.c calling the target named like the program
for name in dfrs_params avail_state node_share_json sched_stats jobcomp \
	    dfrs_instance_json need_history measured_tag; do
	"${cc[@]}" "${flags[@]}" -fsanitize=fuzzer,address,undefined -DFUZZ_TARGET="fuzz_$name" \
	    "$top/contribs/fuzz/fuzz_main.c" "$top/contribs/fuzz/fuzz_$name.c" \
	    "$out/libdfrs-fuzz.a" -ljson-c -lz -lm -o "$out/fuzz_$name"
	echo "built $out/fuzz_$name"
done
