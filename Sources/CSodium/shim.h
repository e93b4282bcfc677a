// SPDX-License-Identifier: MIT
// libsodium for Swift: NaCl secretbox (XSalsa20-Poly1305) for Pusher encrypted channels.
#ifndef CSODIUM_SHIM_H
#define CSODIUM_SHIM_H
#include <sodium.h>
#endif
