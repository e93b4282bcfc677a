// SPDX-License-Identifier: MIT
/// The WebSocket codec types (close codes, handshake refusals) are part of this module's public
/// API for extensions: importing the module is enough to name them.
@_exported import HarnessWebSocket
