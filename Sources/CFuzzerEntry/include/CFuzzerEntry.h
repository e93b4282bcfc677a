// SPDX-License-Identifier: MIT
#ifndef CFUZZERENTRY_H
#define CFUZZERENTRY_H
// Intentionally empty: the fuzz build's entry point lives in CFuzzerEntry.c (see there).
#endif
