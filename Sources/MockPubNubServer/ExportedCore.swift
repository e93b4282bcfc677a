// SPDX-License-Identifier: MIT
/// The transport (listeners, TLS, HTTP and WebSocket types, `ServerExtension`) is part of this
/// module's public API for embedders and extensions: importing the module is enough to name it.
@_exported import HarnessServerCore
