// SPDX-License-Identifier: MIT

/// `JSONValue` is part of this module's public API (messages, payloads, plans): importing the
/// module is enough to name it.
@_exported import HarnessJSON
