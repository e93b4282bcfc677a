// SPDX-License-Identifier: MIT
import HarnessJSON

extension PusherFaultPlan {
    /// The plan in the form `decode(json:)` reads (defaults written out).
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("version", .int(1))]
        if let appKey { members.append(("appKey", .string(appKey))) }
        if let description { members.append(("description", .string(description))) }
        members.append(("rules", .array(rules.enumerated().map { $0.element.json(index: $0.offset) })))
        return .object(JSONObject(members))
    }
}

extension PusherFaultRule {
    func json(index: Int) -> JSONValue {
        var members: [(String, JSONValue)] = [("id", .string(id ?? "rule-\(index)")), ("after", .int(after))]
        if let times { members.append(("times", .int(times))) }
        if !query.isEmpty {
            let sorted = query.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }
            members.append(("match", .object([("query", .object(JSONObject(sorted)))])))
        }
        members.append(("fault", fault.json))
        return .object(JSONObject(members))
    }
}

extension PusherFault {
    /// `{"kind":…, fields}`.
    public var json: JSONValue {
        var members: [(String, JSONValue)]
        switch self {
        case let .close(code, reason, moment):
            members = [("kind", "close"), ("code", .int(code)), ("reason", .string(reason))]
            switch moment {
            case .beforeEstablished: members.append(("at", "before-established"))
            case .afterEstablished: members.append(("at", "after-established"))
            case .afterSubscribed(let channel): members += [("at", "after-subscribed"), ("channel", .string(channel))]
            case .afterMessages(let count): members += [("at", "after-messages"), ("count", .int(count))]
            }
        case .withholdPongs(let which):
            members = [("kind", "withhold-pongs"), ("which", .string(which.rawValue))]
        case .serverPingOnly(let ping):
            members = [("kind", "server-ping-only"), ("ping", .string(ping.rawValue))]
        case .dropSubscriptionSucceeded(let channel):
            members = [("kind", "drop-subscription-succeeded")]
            if let channel { members.append(("channel", .string(channel))) }
        case let .delaySubscriptionSucceeded(channel, milliseconds):
            members = [("kind", "delay-subscription-succeeded"), ("ms", .int(milliseconds))]
            if let channel { members.append(("channel", .string(channel))) }
        case let .delay(target, milliseconds):
            members = [("kind", "delay"), ("ms", .int(milliseconds))] + target.members
        case let .malformed(form, target):
            members = [("kind", "malformed"), ("form", .string(form.rawValue))] + target.members
        case let .tamperCiphertext(channel, event):
            members = [("kind", "tamper-ciphertext")]
            if let channel { members.append(("channel", .string(channel))) }
            if let event { members.append(("event", .string(event))) }
        case let .refuseTransport(transport, status):
            members = [("kind", .string(transport.kind)), ("status", .int(status))]
        }
        return .object(JSONObject(members))
    }
}

extension PusherMessageTarget {
    /// `target` and, for `subscription_succeeded` of one channel, `channel`.
    var members: [(String, JSONValue)] {
        switch self {
        case .connectionEstablished: [("target", .string(PusherOutboundMessage.establishedEvent))]
        case .subscriptionSucceeded(let channel):
            [("target", .string(PusherOutboundMessage.succeededEvent))] + (channel.map { [("channel", JSONValue.string($0))] } ?? [])
        case .event(let name): [("target", .string(name))]
        }
    }
}
