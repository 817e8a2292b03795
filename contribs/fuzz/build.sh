#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the libFuzzer harness for the trace reader (not part of make check).
# Needs clang and compiler-rt: apt-get install -y clang libclang-rt-14-dev
# Usage: contribs/fuzz/build.sh [OUTDIR]   (default: build-fuzz)
# Then run it on one core, for example:
#   nice -n 19 build-fuzz/fuzz_trace_parse -jobs=1 -workers=1 \
#     -max_total_time=300 -max_len=4096 -rss_limit_mb=1024 \
#     /tmp/fuzz-work test/data/fuzz-corpus
# (new inputs go to the first directory; keep test/data/fuzz-corpus small).
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$top/build-fuzz}
mkdir -p "$out"
CC=${CC:-clang}
$CC -std=gnu11 -g -O1 -Wall -Wextra -Werror -Wno-unused-parameter \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I"$top/src/common" \
    "$top/contribs/fuzz/fuzz_trace_parse.c" \
    "$top"/src/common/trace/trace_read.c "$top"/src/common/trace/trace_parser.c \
    "$top"/src/common/trace/trace_fields.c "$top"/src/common/trace/trace_gzip.c \
    "$top"/src/common/trace/trace_names.c "$top"/src/common/trace/trace_swf.c \
    "$top"/src/common/trace/trace_sacct.c \
    -lz -lm -o "$out/fuzz_trace_parse"
echo "built $out/fuzz_trace_parse"
