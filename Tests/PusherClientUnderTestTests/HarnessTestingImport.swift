// SPDX-License-Identifier: MIT

// The shared test support (scripted servers, waitable lists) in every file of this target.
@_exported import HarnessTesting
