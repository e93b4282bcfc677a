// SPDX-License-Identifier: MIT
/// `ByteEncoding` (hex, base64) is part of this module's public API as before it moved to
/// HarnessPrimitives: importing the module is enough to name it.
@_exported import HarnessPrimitives
