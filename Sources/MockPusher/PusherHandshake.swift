// SPDX-License-Identifier: MIT

/// Close codes and reasons of the connection refusals (spec §2.3, §5).
enum PusherRefusal {
    /// Live reason (pusher-realtime-chat-widget #32 via pusher-js's `getCloseError`).
    static func unknownKey(_ key: String) -> (code: UInt16, reason: String) {
        (4001, "Could not find app by key \(key). Perhaps you're connecting to the wrong cluster.")
    }
    // UNVERIFIED reasons: the protocol doc gives the codes and their meanings, not the live texts.
    static let invalidVersion: (code: UInt16, reason: String) = (4006, "Invalid version string format")
    static let unsupportedProtocol: (code: UInt16, reason: String) = (4007, "Unsupported protocol version")
    static let missingProtocol: (code: UInt16, reason: String) = (4008, "No protocol version supplied")
}

extension PusherState {
    /// Protocol versions the service accepts (spec §2.1: 1–3 are no longer supported; clients send 6 or 7).
    static let supportedProtocols = 4...7

    /// A WebSocket upgrade on `/app/KEY`: refuse by close code (after the upgrade, spec §2.3) or
    /// send `pusher:connection_established`.
    mutating func connect(
        _ connection: PusherConnectionID, appKey: String, query: [PusherQueryItem], now: PusherInstant, into actions: inout [PusherAction]
    ) {
        forget(connection, into: &actions)
        let appID = appIDByKey[appKey]
        let protocolText = query.first { $0.name == "protocol" }?.value
        var version: Int?
        var refusal: (code: UInt16, reason: String)?
        switch protocolText {
        case nil:
            // The missing-protocol choice is per app; an unknown key falls back to the default (close 4008).
            switch appID.flatMap({ apps[$0]?.app.options.missingProtocol }) ?? .close {
            case .close: refusal = PusherRefusal.missingProtocol
            case .assume(let assumed): version = assumed
            }
        case let text?:
            // UNVERIFIED: a non-integer `protocol` is taken as the "invalid version string" of 4006.
            version = Int(text)
            if version == nil { refusal = PusherRefusal.invalidVersion }
        }
        if refusal == nil, let known = version, !Self.supportedProtocols.contains(known) { refusal = PusherRefusal.unsupportedProtocol }
        if refusal == nil, appID == nil { refusal = PusherRefusal.unknownKey(appKey) }
        if let refusal {
            // Since protocol 6 the error is only the close code and reason; older clients also get a
            // `pusher:error` first (protocol doc "Connection closure").
            if let known = version, known < 6 {
                actions.append(.send(connection, PusherFrames.error(code: Int(refusal.code), message: refusal.reason)))
            }
            actions.append(.close(connection, code: refusal.code, reason: Self.closeReason(refusal.reason)))
            return
        }
        guard let appID, let app = apps[appID], let version else { return }
        var socketID = socketIDs.nextID()
        for _ in 0..<16 where socketIDsInUse.contains(socketID) { socketID = socketIDs.nextID() }
        let generation = nextGeneration
        nextGeneration &+= 1
        connections[connection] = PusherConnection(
            appID: appID, socketID: socketID, protocolVersion: version, generation: generation, lastActivity: now)
        socketIDsInUse.insert(socketID)
        timers.insert(now + app.app.options.activityTimeout, connection, generation: generation)
        let seconds = app.app.options.activityTimeout.components.seconds
        actions.append(.send(connection, PusherFrames.connectionEstablished(socketID: socketID.description, activityTimeoutSeconds: seconds)))
    }
}
