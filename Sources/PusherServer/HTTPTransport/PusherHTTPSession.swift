// SPDX-License-Identifier: MIT
import MockPusher

/// One Pusher connection over the HTTP fallback transports, as a pure state machine: requests
/// and the core's messages in, what to write on which receiving request out. Frames wait in an
/// outbox until a receiver (the streaming answer, or a poll) takes them; `o` goes first, once.
///
/// One receiver at a time: a new stream or poll replaces the previous one (UNVERIFIED: the
/// SockJS protocol refuses a second concurrent receiver with `c[2010,…]`; replacing it lets a
/// client that reopens its stream, as on a buffer overflow, go on). A session without any
/// receiver for `disconnectMilliseconds` expires: its client is gone.
public struct PusherHTTPSession: Sendable {
    /// A receiving request: its number (the transport's) and how it is answered.
    public enum Receiver: Sendable, Hashable {
        case streaming(UInt64)
        case polling(UInt64)

        public var number: UInt64 {
            switch self {
            case .streaming(let number), .polling(let number): number
            }
        }
    }

    /// What the transport does.
    public enum Output: Sendable, Hashable {
        /// Answer streaming request `receiver` (200, held open) starting with `bytes`.
        case startStream(receiver: UInt64, bytes: [UInt8])
        /// More bytes on the open streaming answer.
        case streamChunk(receiver: UInt64, bytes: [UInt8])
        /// End the streaming answer (the client then sees its request finish).
        case endStream(receiver: UInt64)
        /// Answer poll `receiver` (200) with `bytes`.
        case answerPoll(receiver: UInt64, bytes: [UInt8])
        /// No receiver for too long: the connection is gone (tell the core, end the session).
        case expired
    }

    public let settings: PusherHTTPSessionSettings
    /// Whether `o` went out.
    public private(set) var opened = false
    /// The receiving request being held, if any.
    public private(set) var receiver: Receiver?
    /// The server's close, once it closed the session (every later receiver gets its `c` frame).
    public private(set) var closedWith: (code: UInt16, reason: String)?
    /// Whether the session expired (nothing more happens).
    public private(set) var expired = false
    /// Messages waiting for a receiver, in order.
    public private(set) var outbox: [String] = []
    /// When the last receiver ended (or the session was made).
    private var idleSince: PusherInstant
    /// When the held receiver gets a heartbeat.
    private var heartbeatAt: PusherInstant?

    public init(settings: PusherHTTPSessionSettings = PusherHTTPSessionSettings(), now: PusherInstant) {
        self.settings = settings
        idleSince = now
    }

    /// A receiving request arrived (`id` numbers it).
    public mutating func receive(_ kind: PusherHTTPPath.Kind, id: UInt64, now: PusherInstant) -> [Output] {
        guard !expired else { return [] }
        var outputs = releaseReceiver(now: now)
        var frames: [UInt8] = []
        if !opened {
            opened = true
            frames += PusherHTTPFrames.open
        }
        if !outbox.isEmpty {
            frames += PusherHTTPFrames.array(outbox)
            outbox = []
        }
        if let closedWith { frames += PusherHTTPFrames.close(code: closedWith.code, reason: closedWith.reason) }
        switch kind {
        case .streaming:
            let prelude = settings.streamingPrelude ? PusherHTTPFrames.streamingPrelude : []
            outputs.append(.startStream(receiver: id, bytes: prelude + frames))
            if closedWith != nil {
                outputs.append(.endStream(receiver: id))
                idleSince = now
            } else {
                hold(.streaming(id), now: now)
            }
        case .polling, .send:
            if frames.isEmpty {
                hold(.polling(id), now: now)
            } else {
                outputs.append(.answerPoll(receiver: id, bytes: frames))
                idleSince = now
            }
        }
        return outputs
    }

    /// The core sent `message` on the connection.
    public mutating func enqueue(_ message: String, now: PusherInstant) -> [Output] {
        guard closedWith == nil, !expired else { return [] }
        switch receiver {
        case .streaming(let id):
            heartbeatAt = now.adding(settings.heartbeatMilliseconds)
            return [.streamChunk(receiver: id, bytes: PusherHTTPFrames.array([message]))]
        case .polling(let id):
            unhold(now: now)
            return [.answerPoll(receiver: id, bytes: PusherHTTPFrames.array([message]))]
        case nil:
            outbox.append(message)
            return []
        }
    }

    /// A heartbeat now (the core's probe of an idle connection): on the stream, or answering the poll.
    public mutating func heartbeat(now: PusherInstant) -> [Output] {
        guard closedWith == nil, !expired, let receiver else { return [] }
        return beat(receiver, now: now)
    }

    /// The server closes the session: `c[code,"reason"]` to the receiver (now or when one comes).
    public mutating func close(code: UInt16, reason: String, now: PusherInstant) -> [Output] {
        guard closedWith == nil, !expired else { return [] }
        closedWith = (code, reason)
        let frames = (outbox.isEmpty ? [] : PusherHTTPFrames.array(outbox)) + PusherHTTPFrames.close(code: code, reason: reason)
        switch receiver {
        case .streaming(let id):
            outbox = []
            unhold(now: now)
            return [.streamChunk(receiver: id, bytes: frames), .endStream(receiver: id)]
        case .polling(let id):
            outbox = []
            unhold(now: now)
            return [.answerPoll(receiver: id, bytes: frames)]
        case nil:
            return []
        }
    }

    /// Receiving request `id` is gone (the client aborted it, or the connection ended).
    public mutating func receiverGone(_ id: UInt64, now: PusherInstant) {
        if receiver?.number == id { unhold(now: now) }
    }

    /// The clock reached `nextDeadline` (or later): heartbeats and expiry.
    public mutating func tick(now: PusherInstant) -> [Output] {
        guard !expired else { return [] }
        if let receiver {
            guard let heartbeatAt, now >= heartbeatAt, closedWith == nil else { return [] }
            return beat(receiver, now: now)
        }
        guard now.milliseconds - idleSince.milliseconds >= settings.disconnectMilliseconds else { return [] }
        expired = true
        return [.expired]
    }

    /// When `tick` has something to do; nil once expired.
    public var nextDeadline: PusherInstant? {
        if expired { return nil }
        if receiver != nil { return closedWith == nil ? heartbeatAt : nil }
        return idleSince.adding(settings.disconnectMilliseconds)
    }

    // MARK: - Receivers

    private mutating func hold(_ receiver: Receiver, now: PusherInstant) {
        self.receiver = receiver
        heartbeatAt = now.adding(settings.heartbeatMilliseconds)
    }

    private mutating func unhold(now: PusherInstant) {
        receiver = nil
        heartbeatAt = nil
        idleSince = now
    }

    /// Ends the held receiver for a new one (a stream is ended, a poll answered with `h`).
    private mutating func releaseReceiver(now: PusherInstant) -> [Output] {
        guard let receiver else { return [] }
        unhold(now: now)
        switch receiver {
        case .streaming(let id): return [.endStream(receiver: id)]
        case .polling(let id): return [.answerPoll(receiver: id, bytes: PusherHTTPFrames.heartbeat)]
        }
    }

    private mutating func beat(_ receiver: Receiver, now: PusherInstant) -> [Output] {
        switch receiver {
        case .streaming(let id):
            heartbeatAt = now.adding(settings.heartbeatMilliseconds)
            return [.streamChunk(receiver: id, bytes: PusherHTTPFrames.heartbeat)]
        case .polling(let id):
            unhold(now: now)
            return [.answerPoll(receiver: id, bytes: PusherHTTPFrames.heartbeat)]
        }
    }
}

extension PusherInstant {
    /// This instant `milliseconds` later.
    fileprivate func adding(_ milliseconds: Int64) -> PusherInstant { PusherInstant(milliseconds: self.milliseconds + milliseconds) }
}
