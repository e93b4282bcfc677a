// SPDX-License-Identifier: MIT
import HarnessJSON
import HarnessWebSocket

extension PusherFault {
    /// The `kind` names.
    static let kinds = [
        "close", "withhold-pongs", "server-ping-only", "drop-subscription-succeeded", "delay-subscription-succeeded", "delay", "malformed",
        "tamper-ciphertext", "refuse-websocket", "refuse-streaming", "refuse-polling",
    ]

    static func decode(_ value: JSONValue, path: String) throws(PusherFaultPlanError) -> PusherFault {
        guard let kind = value["kind"]?.stringValue else { throw PusherFaultPlanError(path: "\(path).kind", message: "required (one of \(kinds.joined(separator: ", ")))") }
        switch kind {
        case "close":
            let fields = try PusherPlanFields(value, path: path, allowed: ["kind", "code", "reason", "at", "channel", "count"])
            guard let code = try fields.int("code", in: 1000...4999) else { throw PusherFaultPlanError(path: fields.path("code"), message: "required") }
            guard WebSocketCloseCode(UInt16(code)).isValidOnWire else {
                throw PusherFaultPlanError(path: fields.path("code"), message: "\(code) may not be sent in a close frame")
            }
            let reason = try fields.string("reason") ?? ""
            guard reason.utf8.count <= 123 else { throw PusherFaultPlanError(path: fields.path("reason"), message: "longer than 123 bytes") }
            return .close(code: UInt16(code), reason: reason, at: try moment(fields))
        case "withhold-pongs":
            let fields = try PusherPlanFields(value, path: path, allowed: ["kind", "which"])
            let which = try fields.oneOf("which", PusherPongKind.allCases.map(\.rawValue)) ?? "both"
            return .withholdPongs(PusherPongKind(rawValue: which) ?? .both)
        case "server-ping-only":
            let fields = try PusherPlanFields(value, path: path, allowed: ["kind", "ping"])
            guard let ping = try fields.oneOf("ping", PusherPingKind.allCases.map(\.rawValue)), let kind = PusherPingKind(rawValue: ping) else {
                throw PusherFaultPlanError(path: fields.path("ping"), message: "required (pusher or websocket)")
            }
            return .serverPingOnly(kind)
        case "drop-subscription-succeeded":
            let fields = try PusherPlanFields(value, path: path, allowed: ["kind", "channel"])
            return .dropSubscriptionSucceeded(channel: try fields.string("channel"))
        case "delay-subscription-succeeded":
            let fields = try PusherPlanFields(value, path: path, allowed: ["kind", "channel", "ms"])
            guard let ms = try fields.int("ms", in: 0...3_600_000) else { throw PusherFaultPlanError(path: fields.path("ms"), message: "required") }
            return .delaySubscriptionSucceeded(channel: try fields.string("channel"), milliseconds: ms)
        case "delay":
            let fields = try PusherPlanFields(value, path: path, allowed: ["kind", "ms", "target", "channel"])
            guard let ms = try fields.int("ms", in: 0...3_600_000) else { throw PusherFaultPlanError(path: fields.path("ms"), message: "required") }
            return .delay(target: try target(fields), milliseconds: ms)
        case "malformed":
            let fields = try PusherPlanFields(value, path: path, allowed: ["kind", "form", "target", "channel"])
            guard let form = try fields.oneOf("form", PusherMalformation.allCases.map(\.rawValue)), let malformation = PusherMalformation(rawValue: form) else {
                throw PusherFaultPlanError(path: fields.path("form"), message: "required (one of \(PusherMalformation.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return .malformed(malformation, target: try target(fields))
        case "tamper-ciphertext":
            let fields = try PusherPlanFields(value, path: path, allowed: ["kind", "channel", "event"])
            return .tamperCiphertext(channel: try fields.string("channel"), event: try fields.string("event"))
        case "refuse-websocket", "refuse-streaming", "refuse-polling":
            let fields = try PusherPlanFields(value, path: path, allowed: ["kind", "status"])
            let status = try fields.int("status", in: 400...599) ?? 503
            return .refuseTransport(PusherRefusedTransport(rawValue: String(kind.dropFirst("refuse-".count))) ?? .websocket, status: status)
        default:
            throw PusherFaultPlanError(path: "\(path).kind", message: "unknown fault kind \"\(kind)\" (one of \(kinds.joined(separator: ", ")))")
        }
    }

    /// `target` (default `pusher:connection_established`) and, for `subscription_succeeded`, `channel`.
    private static func target(_ fields: PusherPlanFields) throws(PusherFaultPlanError) -> PusherMessageTarget {
        switch try fields.string("target") ?? PusherOutboundMessage.establishedEvent {
        case PusherOutboundMessage.establishedEvent: return .connectionEstablished
        case PusherOutboundMessage.succeededEvent: return .subscriptionSucceeded(channel: try fields.string("channel"))
        case let event: return .event(event)
        }
    }

    private static func moment(_ fields: PusherPlanFields) throws(PusherFaultPlanError) -> PusherFaultMoment {
        let moments = ["before-established", "after-established", "after-subscribed", "after-messages"]
        switch try fields.oneOf("at", moments) ?? "before-established" {
        case "after-established": return .afterEstablished
        case "after-subscribed":
            guard let channel = try fields.string("channel") else { throw PusherFaultPlanError(path: fields.path("channel"), message: "required with at \"after-subscribed\"") }
            return .afterSubscribed(channel: channel)
        case "after-messages":
            guard let count = try fields.int("count", in: 1...1_000_000) else { throw PusherFaultPlanError(path: fields.path("count"), message: "required with at \"after-messages\"") }
            return .afterMessages(count: count)
        default: return .beforeEstablished
        }
    }
}
