// SPDX-License-Identifier: MIT
// The entry point of the libFuzzer build of harness-fuzz (scripts/fuzz.sh passes
// -Xcc -DHARNESS_LIBFUZZER). SwiftPM links an executable with `main` aliased to
// `harness_fuzz_main`, the renamed Swift entry point; the fuzz build compiles the Swift side with
// -parse-as-library and no @main, so this function takes that name and hands control to libFuzzer's
// driver with the Swift `LLVMFuzzerTestOneInput`. In a normal build this file is empty.
#include "CFuzzerEntry.h"

#ifdef HARNESS_LIBFUZZER
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int harness_fuzz_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
#endif
