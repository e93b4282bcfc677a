// SPDX-License-Identifier: MIT

// The shared test support (blocking client, scripted server, response reader, seeded random) in
// every file of this target without a per-file import.
@_exported import HarnessTesting
