// SPDX-License-Identifier: MIT

extension HTTPRequestParser {
    /// Removes and returns the unconsumed bytes after the last complete request, for a connection
    /// that stops speaking HTTP (a WebSocket upgrade: they are the first frames).
    package mutating func takeBufferedBytes() -> [UInt8] {
        let rest = Array(buffer[start...])
        buffer = []
        start = 0
        return rest
    }
}
