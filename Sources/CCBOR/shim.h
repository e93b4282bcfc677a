// SPDX-License-Identifier: MIT
// libcbor headers for Swift (Debian's libcbor-dev).
#ifndef CCBOR_SHIM_H
#define CCBOR_SHIM_H
#include <cbor.h>
#endif
