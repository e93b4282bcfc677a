// SPDX-License-Identifier: MIT

/// What the transport does with one request: the only vocabulary a handler (or a fault) can use.
///
/// Deciding is pure (handlers and fault rules return values of this type); doing is the
/// connection's job, which executes the action on the event loop without blocking.
public indirect enum ResponseAction: Sendable, Hashable {
    /// Write a well-framed response; then keep the connection alive unless the request asked to close.
    case respond(HTTPResponse)
    /// Write these exact bytes (broken framing, truncated bodies, invalid chunking...), then `then`.
    case raw([UInt8], then: CloseMode)
    /// Write `bytes` in pieces of `chunkSize` bytes, one every `interval`, then `then`.
    case drip([UInt8], chunkSize: Int, interval: Duration, then: CloseMode)
    /// Wait `delay` (accurate to the loop's timer resolution, about 1 ms), then perform `then`.
    case delay(Duration, then: ResponseAction)
    /// Send nothing and close the connection as `mode` says.
    case close(CloseMode)
    /// Send nothing and keep the connection open until the client gives up or the server stops.
    case hang
    /// Write the head of `response` with `Transfer-Encoding: chunked` (its body, if any, as the
    /// first chunk) and keep the answer open: `stream`'s chunks follow until it ends.
    case stream(HTTPResponse, ResponseStream)
}

/// How a connection ends after an action.
public enum CloseMode: String, Sendable, Hashable, Codable {
    /// Keep the connection for the next request (only meaningful after a complete response).
    case keepAlive = "keep-alive"
    /// Half-close with FIN after draining what the client sent, so the peer reads a clean EOF.
    case fin
    /// Abort with RST (`SO_LINGER {1, 0}` then `close`), so the peer sees `ECONNRESET`.
    case reset
}
