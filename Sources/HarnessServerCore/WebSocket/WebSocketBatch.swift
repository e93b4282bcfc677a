// SPDX-License-Identifier: MIT

/// Frames for many WebSocket connections, handed to each connection's event loop at once: one
/// task (one wake-up) per other loop, and the calling loop's own share written last, in place.
///
/// A fan-out (one message to thousands of subscribers) fills a batch with the same encoded frame
/// for every connection and flushes it once: no task or closure per connection, and every loop
/// writes its connections in parallel. Frames for one connection keep their order; `flush` before
/// doing anything else to a connection that has frames in the batch (closing it, a raw write).
public struct WebSocketBatch {
    /// One loop's frames.
    // @unchecked Sendable: the connections are used only in `write`, on `loop`'s thread.
    private struct Share: @unchecked Sendable {
        let loop: EventLoop
        var frames: [(connection: WebSocketConnection, bytes: [UInt8])] = []

        func write() {
            loop.assertInLoop("WebSocketBatch.write")
            for frame in frames { frame.connection.sendData(frame.bytes) }
        }
    }

    /// A handful of loops: a linear search beats hashing.
    private var shares: [Share] = []

    public init() {}

    /// Whether nothing is queued.
    public var isEmpty: Bool { shares.isEmpty }

    /// Queues a frame encoded once for many connections (`WebSocketHandle.encodedTextFrame`) for
    /// `handle`; same rules as `WebSocketHandle.send(encodedFrame:)` once flushed.
    public mutating func send(encodedFrame bytes: [UInt8], on handle: WebSocketHandle) {
        let loop = handle.loop
        let index: Int
        if let found = shares.firstIndex(where: { $0.loop === loop }) {
            index = found
        } else {
            shares.append(Share(loop: loop))
            index = shares.count - 1
        }
        shares[index].frames.append((handle.uncheckedConnection, bytes))
    }

    /// Hands every other loop its frames in one task, then writes the calling loop's share now
    /// (when called off every loop, each loop gets a task). Empties the batch.
    public mutating func flush() {
        guard !shares.isEmpty else { return }
        let batch = shares
        shares = []
        var local: Share?
        for share in batch {
            if share.loop.inLoop {
                local = share
            } else {
                share.loop.execute { share.write() }
            }
        }
        local?.write()
    }
}
