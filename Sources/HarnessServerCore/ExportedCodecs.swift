// SPDX-License-Identifier: MIT
/// The HTTP values and the WebSocket codec types (close codes, handshake refusals) are part of this
/// module's API: importing the module is enough to name them.
@_exported import HarnessHTTP
@_exported import HarnessWebSocket
