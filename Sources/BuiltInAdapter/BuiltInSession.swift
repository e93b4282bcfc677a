// SPDX-License-Identifier: MIT
import ClientUnderTest
import ConformanceKit
import HarnessJSON
import Synchronization

/// One `PubNubClient` driven for one case; its listener events become ``ClientEvent``s.
final class BuiltInSession: ClientSession {
    let client: PubNubClient
    let events: AsyncStream<ClientEvent>
    private let forwarder: EventForwarder
    private let closed = Mutex(false)

    init(client: PubNubClient) {
        self.client = client
        let (stream, continuation) = AsyncStream<ClientEvent>.makeStream()
        events = stream
        forwarder = EventForwarder(continuation: continuation)
        client.addListener(forwarder)
    }

    func perform(_ operation: ClientOperation) async throws -> OperationResult {
        try await OperationMapping.perform(operation, on: client)
    }

    /// Stops listening first (what the client reports while shutting down is not part of the
    /// case), then leaves everything and cancels what is in flight.
    func close() async {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        client.removeListener(forwarder)
        forwarder.finish()
        await client.unsubscribeAll()
        client.cancelAllRequests()
    }
}

/// The client listener that forwards into the session's stream.
final class EventForwarder: PubNubListener {
    private let continuation: AsyncStream<ClientEvent>.Continuation

    init(continuation: AsyncStream<ClientEvent>.Continuation) {
        self.continuation = continuation
    }

    func finish() { continuation.finish() }

    func client(_ client: PubNubClient, didReceiveMessage message: PNMessageEvent) {
        continuation.yield(.message(Self.message(message, isSignal: false)))
    }

    func client(_ client: PubNubClient, didReceiveSignal signal: PNMessageEvent) {
        continuation.yield(.message(Self.message(signal, isSignal: true)))
    }

    func client(_ client: PubNubClient, didReceiveFileEvent event: PNFileEvent) {
        var content: [(String, JSONValue)] = []
        if let message = event.message { content.append(("message", message)) }
        content.append(("file", .object([("id", .string(event.fileID)), ("name", .string(event.fileName)), ("url", .string(event.fileURL))])))
        continuation.yield(.message(MessageEvent(
            channel: event.channel, subscription: event.subscription == event.channel ? nil : event.subscription,
            message: .object(JSONObject(content)), publisher: event.publisher, timetoken: String(event.timetoken), isFile: true)))
    }

    func client(_ client: PubNubClient, didReceivePresenceEvent event: PNPresenceEvent) {
        let channel = event.channel.hasSuffix("-pnpres") ? String(event.channel.dropLast(7)) : event.channel
        continuation.yield(.presence(PresenceEvent(
            channel: channel, action: event.event, uuid: event.uuid, occupancy: event.occupancy,
            state: event.state)))
    }

    func client(_ client: PubNubClient, didReceiveAppContextEvent event: PNAppContextEvent) {
        continuation.yield(.appContext(AppContextEvent(channel: event.channel, event: event.event, type: event.type, data: event.data)))
    }

    func client(_ client: PubNubClient, didReceiveMessageAction event: PNMessageActionEvent) {
        continuation.yield(.messageAction(MessageActionEvent(channel: event.channel, event: event.event,
                                                             action: MessageActionMapping.data(event.action))))
    }

    func client(_ client: PubNubClient, didReceiveStatus status: PNStatus) {
        let category = StatusCategory(rawValue: status.category.rawValue) ?? .unknown
        let timetoken = status.currentTimetoken == 0 ? nil : String(status.currentTimetoken)
        continuation.yield(.status(StatusEvent(category: category, operation: Self.operationName(status.operation), timetoken: timetoken)))
    }

    /// `PNSubscribeOperation` → `subscribe`.
    static func operationName(_ operation: PNOperationType) -> String {
        var name = Substring(operation.rawValue)
        if name.hasPrefix("PN") { name = name.dropFirst(2) }
        if name.hasSuffix("Operation") { name = name.dropLast(9) }
        guard let first = name.first else { return operation.rawValue }
        return first.lowercased() + name.dropFirst()
    }

    static func message(_ event: PNMessageEvent, isSignal: Bool) -> MessageEvent {
        MessageEvent(
            channel: event.channel, subscription: event.subscription == event.channel ? nil : event.subscription,
            message: event.message, publisher: event.publisher, timetoken: String(event.timetoken),
            isSignal: isSignal, decryptionFailed: event.decryptionFailed, customMessageType: event.customMessageType)
    }
}
