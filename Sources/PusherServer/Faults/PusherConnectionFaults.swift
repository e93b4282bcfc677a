// SPDX-License-Identifier: MIT
import MockPusher

/// The faults of one connection and how far they got: a pure transformation of the core's actions
/// for that connection into wire steps. No faults: every action goes out unchanged.
public struct PusherConnectionFaults: Sendable, Hashable {
    /// The faults in plan order, each with the id of the rule that chose it.
    public let faults: [PusherAppliedFault]
    private var established = false
    private var messagesAfterEstablished = 0
    private var closedByFault = false
    private var spentMalformations: Set<Int> = []

    public init(_ faults: [PusherAppliedFault] = []) { self.faults = faults }

    public var isEmpty: Bool { faults.isEmpty }

    /// Whether the transport answers the client's WebSocket pings (false under `withholdPongs` of
    /// WebSocket pongs).
    public var answersWebSocketPings: Bool {
        !faults.contains { if case .withholdPongs(let kind) = $0.fault { kind != .pusher } else { false } }
    }

    /// The wire steps for one of the core's actions on this connection (webhooks are not theirs).
    public mutating func steps(for action: PusherAction) -> [PusherWireStep] {
        guard !closedByFault else { return [] }
        switch action {
        case .webSocketPing:
            return [pingOnly == .pusher ? .text(PusherOutboundMessage.pusherPing) : .ping]
        case let .close(_, code, reason):
            return [.close(code: code, reason: reason)]
        case .send(_, let text):
            return steps(forMessage: text)
        case .webhook:
            return []
        }
    }

    private var pingOnly: PusherPingKind? {
        faults.lazy.compactMap { if case .serverPingOnly(let kind) = $0.fault { kind } else { nil } }.first
    }

    private var pusherPongsWithheld: Bool {
        faults.contains { if case .withholdPongs(let kind) = $0.fault { kind != .websocket } else { false } }
    }

    private mutating func steps(forMessage text: String) -> [PusherWireStep] {
        if isEmpty { return [.text(text)] }
        if text == PusherOutboundMessage.pusherPing, pingOnly == .websocket { return [.ping] }
        let message = PusherOutboundMessage(text)
        if message.event == "pusher:pong", pusherPongsWithheld { return [] }
        let isEstablished = message.event == PusherOutboundMessage.establishedEvent
        if isEstablished, let close = closeFault(where: { $0 == .beforeEstablished }) { return close }

        var delay: Int?
        for fault in faults.map(\.fault) {
            switch fault {
            case .dropSubscriptionSucceeded(let channel) where message.isSubscriptionSucceeded(channel: channel):
                return []
            case .delaySubscriptionSucceeded(let channel, let milliseconds) where message.isSubscriptionSucceeded(channel: channel):
                delay = milliseconds
            case .delay(let target, let milliseconds) where message.matches(target):
                delay = milliseconds
            default: break
            }
        }
        var out = malformed(message) ?? [.text(tampered(message) ?? text)]
        if isEstablished {
            established = true
            out += closeFault(where: { $0 == .afterEstablished }) ?? []
        } else if established {
            messagesAfterEstablished += 1
            let count = messagesAfterEstablished
            out += closeFault(where: { if case .afterMessages(let wanted) = $0 { wanted == count } else { false } }) ?? []
        }
        if !closedByFault, message.event == PusherOutboundMessage.succeededEvent, let channel = message.channel {
            out += closeFault(where: { $0 == .afterSubscribed(channel: channel) }) ?? []
        }
        if let delay { out = out.map { .later(milliseconds: delay, $0) } }
        return out
    }

    /// The message with its ciphertext changed, when a `tamperCiphertext` fault matches it.
    private func tampered(_ message: PusherOutboundMessage) -> String? {
        for fault in faults.map(\.fault) {
            guard case let .tamperCiphertext(channel, event) = fault, let name = message.event, !name.hasPrefix("pusher"),
                  channel == nil || message.channel == channel, event == nil || name == event else { continue }
            return PusherCiphertextTampering.tampered(message)
        }
        return nil
    }

    /// The first not yet spent malformation whose target is `message`, applied.
    private mutating func malformed(_ message: PusherOutboundMessage) -> [PusherWireStep]? {
        for (index, entry) in faults.enumerated() where !spentMalformations.contains(index) {
            guard case let .malformed(form, target) = entry.fault, message.matches(target) else { continue }
            spentMalformations.insert(index)
            return form.steps(for: message)
        }
        return nil
    }

    /// The close of the first `close` fault whose moment satisfies `when`; later actions are dropped.
    private mutating func closeFault(where when: (PusherFaultMoment) -> Bool) -> [PusherWireStep]? {
        for fault in faults.map(\.fault) {
            guard case let .close(code, reason, moment) = fault, when(moment) else { continue }
            closedByFault = true
            return [.close(code: code, reason: reason)]
        }
        return nil
    }
}

/// A fault chosen for a connection by the rule `rule`.
public struct PusherAppliedFault: Sendable, Hashable {
    public var rule: String
    public var fault: PusherFault

    public init(rule: String, fault: PusherFault) {
        self.rule = rule
        self.fault = fault
    }
}
