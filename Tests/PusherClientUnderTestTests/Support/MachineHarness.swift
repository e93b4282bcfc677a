// SPDX-License-Identifier: MIT
import HarnessJSON
@testable import PusherClientUnderTest

/// Drives the pure state machine and keeps every action, for the state-machine tests.
struct MachineHarness {
    var machine: PusherConnectionMachine
    var log: [PusherClientAction] = []

    init(_ configure: (inout PusherConnectionSettings) -> Void = { _ in }) {
        var settings = PusherConnectionSettings()
        configure(&settings)
        machine = PusherConnectionMachine(settings: settings)
    }

    @discardableResult
    mutating func feed(_ input: PusherClientInput) -> [PusherClientAction] {
        let actions = machine.handle(input)
        log += actions
        return actions
    }

    /// connect → opened → connection_established with `socketID`.
    @discardableResult
    mutating func establish(socketID: String = "123.456", activityTimeout: Int = 120) -> [PusherClientAction] {
        if machine.state == .disconnected { feed(.connect) }
        feed(.socketOpened)
        return feed(.socketText(Self.established(socketID: socketID, activityTimeout: activityTimeout)))
    }

    /// The live bytes of `connection_established` (double-encoded data, activity_timeout last).
    static func established(socketID: String, activityTimeout: Int = 120) -> String {
        #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"\#(socketID)\",\"activity_timeout\":\#(activityTimeout)}"}"#
    }

    static func succeeded(_ channel: String, data: String = "{}") -> String {
        JSONValue.object(["event": "pusher_internal:subscription_succeeded", "data": .string(data), "channel": .string(channel)]).jsonText
    }
}

extension [PusherClientAction] {
    var sent: [String] { compactMap { if case .send(let text) = $0 { text } else { nil } } }
    var emitted: [PusherClientEvent] { compactMap { if case .emit(let event) = $0 { event } else { nil } } }
    var authorizations: [PusherAuthorizationRequest] { compactMap { if case .authorize(let r) = $0 { r } else { nil } } }
    var opensSocket: Bool { contains(.openSocket) }
    func scheduled(_ timer: PusherClientTimer) -> Double? {
        compactMap { if case .schedule(timer, let delay) = $0 { delay } else { nil } }.last
    }
    /// Every emitted event except the generic `.event` copies.
    var callbacks: [PusherClientEvent] { emitted.filter { if case .event = $0 { false } else { true } } }
}
