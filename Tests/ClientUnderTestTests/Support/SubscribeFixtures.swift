// SPDX-License-Identifier: MIT
import Synchronization

/// Builders for subscribe response bodies, shaped like the service's (§5).
enum SubscribeFixtures {
    static func body(_ tt: UInt64, region: Int = 1, _ envelopes: [String] = []) -> ScriptedReply {
        .http(200, #"{"t":{"t":"\#(tt)","r":\#(region)},"m":[\#(envelopes.joined(separator: ","))]}"#)
    }

    static func message(_ channel: String, _ tt: UInt64, _ payload: String, extra: String = "") -> String {
        #"{"a":"1","f":0,"i":"pub","s":1,"p":{"t":"\#(tt)","r":1},"k":"sub-k","c":"\#(channel)","d":\#(payload)\#(extra)}"#
    }

    static let leaveOK = ScriptedReply.http(200, #"{"status": 200, "action": "leave", "message": "OK", "service": "Presence"}"#)
    static let heartbeatOK = ScriptedReply.http(200, #"{"status": 200, "message": "OK", "service": "Presence"}"#)

    static func isLeave(_ r: SeenRequest) -> Bool { r.path.hasSuffix("/leave") }
    static func isHeartbeat(_ r: SeenRequest) -> Bool { r.path.hasSuffix("/heartbeat") }
    static func isSubscribe(_ r: SeenRequest) -> Bool { r.path.hasPrefix("/v2/subscribe/") }
    static func isTime(_ r: SeenRequest) -> Bool { r.path == "/time/0" }
}

/// A thread-safe counter for scripted handlers.
final class Counter: Sendable {
    private let value = Mutex(0)
    /// Increments and returns the new value.
    func next() -> Int { value.withLock { $0 += 1; return $0 } }
}
