// SPDX-License-Identifier: MIT
import Synchronization

/// Fans events out to the delegate, the client's streams and the channels' streams.
final class PusherEventHub: Sendable {
    private struct Subscriber {
        /// nil: every client event; a name: that channel's events only.
        let channel: String?
        let clientEvents: AsyncStream<PusherClientEvent>.Continuation?
        let channelEvents: AsyncStream<PusherEventMessage>.Continuation?
    }

    private let subscribers = Mutex<(next: Int, all: [Int: Subscriber])>((0, [:]))

    func clientStream() -> AsyncStream<PusherClientEvent> {
        let (stream, continuation) = AsyncStream<PusherClientEvent>.makeStream()
        let id = add(Subscriber(channel: nil, clientEvents: continuation, channelEvents: nil))
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    func channelStream(_ channel: String) -> AsyncStream<PusherEventMessage> {
        let (stream, continuation) = AsyncStream<PusherEventMessage>.makeStream()
        let id = add(Subscriber(channel: channel, clientEvents: nil, channelEvents: continuation))
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    func publish(_ event: PusherClientEvent) {
        let current = subscribers.withLock { Array($0.all.values) }
        for subscriber in current {
            if let continuation = subscriber.clientEvents {
                continuation.yield(event)
            } else if let continuation = subscriber.channelEvents, case .event(let message) = event, message.channel == subscriber.channel {
                continuation.yield(message)
            }
        }
    }

    /// Ends every stream (the client is gone).
    func finish() {
        let current = subscribers.withLock { state in defer { state.all = [:] }; return Array(state.all.values) }
        for subscriber in current {
            subscriber.clientEvents?.finish()
            subscriber.channelEvents?.finish()
        }
    }

    private func add(_ subscriber: Subscriber) -> Int {
        subscribers.withLock { state in
            state.next += 1
            state.all[state.next] = subscriber
            return state.next
        }
    }

    private func remove(_ id: Int) {
        _ = subscribers.withLock { $0.all.removeValue(forKey: id) }
    }
}
