// SPDX-License-Identifier: MIT
/// `JSONValue` is part of this module's public API: importing the module is enough to name it.
@_exported import HarnessJSON
