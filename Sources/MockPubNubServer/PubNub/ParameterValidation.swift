// SPDX-License-Identifier: MIT

/// Refuses requests whose parameters the endpoint cannot use, before any state is touched:
/// an empty subscribe key in the path, and numeric query parameters that are not non-negative
/// decimal integers (`heartbeat=abc`, `count=-5`, `max=1.5`).
///
/// UNVERIFIED: the live service's answers to these requests are not recorded. The SDKs validate
/// these values before sending, so no recording shows the server side; the bodies follow the
/// error shape each service family is known for, and name the parameter (docs/endpoints.md).
enum ParameterValidation {
    /// The numeric query parameters each endpoint reads.
    static func numericParameters(of endpoint: PubNubEndpoint) -> [String] {
        switch endpoint {
        case .publish, .signal: NumericNames.publish
        case .subscribe: NumericNames.subscribe
        case .heartbeat: NumericNames.heartbeat
        case .hereNow, .globalHereNow: NumericNames.hereNow
        case .history: NumericNames.history
        case .fetchMessages, .fetchMessagesWithActions: NumericNames.fetchMessages
        default: []
        }
    }

    /// The lists of `numericParameters`, built once (a publish asks for its list every time).
    private enum NumericNames {
        static let publish = ["ttl", "seqn"]
        static let subscribe = ["heartbeat", "tr"]
        static let heartbeat = ["heartbeat"]
        static let hereNow = ["limit", "offset"]
        static let history = ["count"]
        static let fetchMessages = ["max"]
    }

    /// The most digits a numeric parameter may have; larger integers are valid and clamped by
    /// the endpoint (a huge `ttl` or `count` is not a type error).
    static let maxDigits = 64

    /// Whether `text` is a non-negative decimal integer (an empty value counts as absent).
    static func isNonNegativeInteger(_ text: String) -> Bool {
        text.isEmpty || (text.utf8.count <= maxDigits && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 })
    }

    /// The first problem with `route`, or `nil` when its parameters are usable.
    static func problem(in route: PubNubRoute) -> Problem? {
        if let key = route.subscribeKey, key.isEmpty, route.endpoint != .time, route.endpoint != .admin {
            return .emptySubscribeKey
        }
        for name in numericParameters(of: route.endpoint) {
            if let value = route.query[name], !isNonNegativeInteger(value) { return .notAnInteger(name: name, value: value) }
        }
        return nil
    }

    /// `problem(in:)` for a publish or signal whose query parameters were read already.
    static func problem(in route: PubNubRoute, publish parameters: PublishParameters) -> Problem? {
        if let key = route.subscribeKey, key.isEmpty { return .emptySubscribeKey }
        // `NumericNames.publish`, in its order.
        if let value = parameters.ttl, !isNonNegativeInteger(value) { return .notAnInteger(name: "ttl", value: value) }
        if let value = parameters.seqn, !isNonNegativeInteger(value) { return .notAnInteger(name: "seqn", value: value) }
        return nil
    }

    enum Problem: Hashable {
        case emptySubscribeKey
        case notAnInteger(name: String, value: String)
    }

    /// The 400 for `problem` on `endpoint`, in that service's error shape.
    static func response(_ problem: Problem, endpoint: PubNubEndpoint, timetoken: () -> UInt64) -> HTTPResponse {
        switch problem {
        case .emptySubscribeKey:
            // The recorded answer for an unknown subscribe key (spec §5.8, fixture 025).
            return .pubNub(400, "{\"message\":\"Invalid Subscribe Key\",\"error\":true,\"service\":\"Access Manager\",\"status\":400}")
        case .notAnInteger(let name, let value):
            let text = "Invalid value for parameter '" + name + "': '" + value + "' (expected a non-negative integer)"
            switch endpoint {
            case .publish, .signal:
                return PubNubErrors.publishRefusal(text, timetoken: timetoken())
            case .heartbeat, .hereNow, .globalHereNow:
                return PubNubErrors.presence(text)
            case .fetchMessages, .fetchMessagesWithActions:
                return .pubNub(400, "{\"status\": 400, \"error\": true, \"error_message\": " + PubNubJSON.quote(text)
                    + ", \"channels\": {}}")
            default:
                return .pubNub(400, "{\"message\":" + PubNubJSON.quote(text) + ",\"error\":true,\"service\":\""
                    + (endpoint == .history ? "Storage" : "Balancer") + "\",\"status\":400}")
            }
        }
    }
}
