/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_main.c - the libFuzzer entry point for one fuzz target, chosen at
 * build time: -DFUZZ_TARGET=fuzz_dfrs_params (contribs/fuzz/build.sh).
 */
#include "fuzz_targets.h"

#ifndef FUZZ_TARGET
#error "build with -DFUZZ_TARGET=fuzz_<name> (contribs/fuzz/build.sh)"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return FUZZ_TARGET(data, size);
}
