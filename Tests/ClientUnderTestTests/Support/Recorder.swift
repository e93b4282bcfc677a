// SPDX-License-Identifier: MIT
@testable import ClientUnderTest

/// A listener that records every event.
final class Recorder: PubNubListener {
    let events = Waitable<PubNubEvent>()

    func client(_ client: PubNubClient, didReceiveMessage message: PNMessageEvent) { events.append(.message(message)) }
    func client(_ client: PubNubClient, didReceiveSignal signal: PNMessageEvent) { events.append(.signal(signal)) }
    func client(_ client: PubNubClient, didReceivePresenceEvent event: PNPresenceEvent) { events.append(.presence(event)) }
    func client(_ client: PubNubClient, didReceiveStatus status: PNStatus) { events.append(.status(status)) }
    func client(_ client: PubNubClient, didReceiveAppContextEvent event: PNAppContextEvent) { events.append(.appContext(event)) }
    func client(_ client: PubNubClient, didReceiveFileEvent event: PNFileEvent) { events.append(.file(event)) }
    func client(_ client: PubNubClient, didReceiveMessageAction event: PNMessageActionEvent) { events.append(.messageAction(event)) }

    var statuses: [PNStatus] { events.items.compactMap { if case .status(let s) = $0 { s } else { nil } } }

    /// Waits for `count` statuses in total (`timeout` is a budget: ``Waitable`` stretches it).
    func waitStatuses(_ count: Int, timeout: Double = 5) async -> [PNStatus]? {
        let items = await events.wait(timeout: timeout) { items in
            items.filter { if case .status = $0 { true } else { false } }.count >= count
        }
        return items.map { $0.compactMap { if case .status(let s) = $0 { s } else { nil } } }
    }
}

extension PubNubEvent {
    var messageEvent: PNMessageEvent? { if case .message(let m) = self { m } else { nil } }
    var fileEvent: PNFileEvent? { if case .file(let f) = self { f } else { nil } }
    var messageActionEvent: PNMessageActionEvent? { if case .messageAction(let a) = self { a } else { nil } }
}

/// A client for a loopback origin, plain HTTP. Its request timeouts are budgets for replies that
/// must come (stretched by ``TestTime/scale``); a test about a timeout sets its own.
func makeClient(origin: String, configure: (inout PubNubConfiguration) -> Void = { _ in }) throws -> PubNubClient {
    var config = PubNubConfiguration(publishKey: "pub-k", subscribeKey: "sub-k", uuid: "tester")
    config.origin = origin
    config.tlsEnabled = false
    config.nonSubscribeRequestTimeout = TestTime.budget(5)
    config.subscribeMaximumIdleTime = TestTime.budget(10)
    configure(&config)
    return try PubNubClient(configuration: config)
}
