// SPDX-License-Identifier: MIT
import HarnessJSON
import MockPusher
import Synchronization

/// Runs one Pusher case's steps against a session and the suite server; stops at the first
/// expectation that fails and says why.
final class PusherStepRunner: Sendable {
    let server: any PusherHarnessServer
    let app: PusherApp
    let session: any PusherClientSession
    let log: PusherObservationLog
    /// The app key the client connects with (the case's own, or an unknown one).
    let connectionKey: String
    private let progress = Mutex<(step: Int, consumed: Set<Int>, lastClose: Close?)>((0, [], nil))

    /// A close of the client's connection: when, and how many connections the client had opened by then.
    struct Close {
        var at: ContinuousClock.Instant
        var earlierConnections: Int
    }

    init(server: any PusherHarnessServer, app: PusherApp, connectionKey: String, session: any PusherClientSession, log: PusherObservationLog) {
        self.connectionKey = connectionKey
        self.server = server
        self.app = app
        self.session = session
        self.log = log
    }

    /// The 1-based number of the step running now.
    var currentStep: Int { progress.withLock { $0.step } }

    /// nil when every step held; otherwise the failure (`step N (kind): why`).
    func run(_ steps: [PusherStep]) async -> String? {
        for (index, step) in steps.enumerated() {
            progress.withLock { $0.step = index + 1 }
            if Task.isCancelled { return nil }
            do {
                if let failure = try await execute(step) { return "step \(index + 1) (\(Self.kind(step))): \(failure)" }
            } catch let error as ClientAdapterError {
                if case .unsupported = error { return "unsupported: \(error)" }
                return "step \(index + 1) (\(Self.kind(step))): \(error)"
            } catch {
                return "step \(index + 1) (\(Self.kind(step))): \(error)"
            }
        }
        return nil
    }

    static func kind(_ step: PusherStep) -> String {
        String(String(describing: step).prefix(while: { $0 != "(" }))
    }

    func deadline(_ ms: Int) -> ContinuousClock.Instant { .now + .milliseconds(ms) }

    /// Waits for the first observation not consumed yet that `matches`, and consumes it.
    func expect(within ms: Int, what: String, _ matches: @escaping @Sendable (PusherObservation) -> Bool) async -> String? {
        let consumed = progress.withLock { $0.consumed }
        let found = await log.wait(until: deadline(ms)) { items in
            items.indices.first { !consumed.contains($0) && matches(items[$0]) }
        }
        if let found {
            progress.withLock { _ = $0.consumed.insert(found) }
            return nil
        }
        let seen = log.items.suffix(6).map(\.summary).joined(separator: "; ")
        return "no \(what) within \(ms) ms (client reported: \(seen.isEmpty ? "nothing" : seen))"
    }

    private func execute(_ step: PusherStep) async throws -> String? {
        switch step {
        case .connect: try await session.perform(.connect)
        case .disconnect: try await session.perform(.disconnect)
        case .subscribe(let channel): try await session.perform(.subscribe(channel: channel))
        case .unsubscribe(let channel): try await session.perform(.unsubscribe(channel: channel))
        case .clientEvent(let channel, let event, let data): try await session.perform(.trigger(channel: channel, event: event, data: data))
        case .clientEventMayBeRefused(let channel, let event, let data):
            do {
                try await session.perform(.trigger(channel: channel, event: event, data: data))
            } catch let error as ClientAdapterError {
                guard case .protocolViolation = error else { throw error }
            }
        case .trigger(let channels, let event, let data, let excludeClient):
            var exclude: String?
            if excludeClient {
                guard let open = try await server.journal(appKey: connectionKey).connections.last(where: { $0.closedAt == nil }), let socketID = open.socketID else {
                    return "the client has no open connection whose socket id could be excluded"
                }
                exclude = socketID
            }
            try await server.trigger(app: app, channels: channels, event: event, data: data, excludeSocketID: exclude)
        case .sendErrorEvent(let code, let message):
            let text = JSONValue.object(["event": "pusher:error", "data": ["code": .int(code), "message": .string(message)]]).jsonText
            let known = try await server.journal(appKey: connectionKey).connections.count
            progress.withLock { $0.lastClose = Close(at: .now, earlierConnections: known) }
            if try await server.send(text: text, appKey: connectionKey) == 0 { return "the client had no open connection" }
        case .closeConnection(let code, let reason):
            let known = try await server.journal(appKey: connectionKey).connections.count
            progress.withLock { $0.lastClose = Close(at: .now, earlierConnections: known) }
            if try await server.closeConnections(appKey: connectionKey, code: code, reason: reason) == 0 { return "the client had no open connection to close" }
        case .peerSubscribe(let peer, let channel):
            try await server.peerSubscribe(peer, appKey: app.key, channel: channel)
        case .peerLeave(let peer): try await server.peerLeave(peer, appKey: app.key)
        case .peerClientEvent(let peer, let channel, let event, let data):
            try await server.peerClientEvent(peer, appKey: app.key, channel: channel, event: event, data: data)
        case .wait(let ms): try? await Task.sleep(for: .milliseconds(ms))

        case .expectConnected(let count, let ms):
            let found = await log.wait(until: deadline(ms)) { items in
                items.count { if case .connected = $0 { true } else { false } } >= count ? true : nil
            }
            if found == nil { return "fewer than \(count) connection_established within \(ms) ms (client reported: \(log.items.map(\.summary).suffix(6).joined(separator: "; ")))" }
        case .expectDisconnected(let code, let ms):
            return await expect(within: ms, what: "disconnect\(code.map { " with \($0)" } ?? "")") {
                if case .disconnected(let seen) = $0 { code == nil || seen == code } else { false }
            }
        case .expectSubscribed(let channel, let ms):
            return await expect(within: ms, what: "subscription_succeeded for \(channel)") { $0 == .subscribed(channel: channel) }
        case .expectNotSubscribed(let channel, let ms):
            try? await Task.sleep(for: .milliseconds(ms))
            if log.items.contains(.subscribed(channel: channel)) { return "the client reported \(channel) subscribed without subscription_succeeded" }
        case .expectSubscriptionError(let channel, let ms):
            return await expect(within: ms, what: "subscription error for \(channel)") {
                switch $0 {
                case .subscriptionError(let seen, _): seen == channel
                case .errorEvent(_, let message): message.contains(channel)
                default: false
                }
            }
        case .expectErrorEvent(let code, let ms):
            return await expect(within: ms, what: "pusher:error \(code.map(String.init) ?? "null")") {
                if case .errorEvent(let seen, _) = $0 { seen == code } else { false }
            }
        case .expectEvent(let channel, let event, let data, let userID, let ms):
            return await expect(within: ms, what: "\(event) on \(channel)\(data.map { " with \($0.jsonText)" } ?? "")") {
                guard case .event(let seenChannel, let name, let seenData, let seenUser) = $0, seenChannel == channel, name == event else { return false }
                if let data, !Self.sameData(seenData, data) { return false }
                if let userID, seenUser != userID { return false }
                return true
            }
        case .expectNoEvent(let event, let ms):
            try? await Task.sleep(for: .milliseconds(ms))
            if let seen = log.items.first(where: { if case .event(_, let name, _, _) = $0 { name == event } else { false } }) {
                return "unexpected \(seen.summary)"
            }
        case .expectMember(let channel, let userID, let added, let ms):
            return await expect(within: ms, what: "member_\(added ? "added" : "removed") \(userID) on \(channel)") {
                $0 == (added ? .memberAdded(channel: channel, userID: userID) : .memberRemoved(channel: channel, userID: userID))
            }
        case .expectMembers(let channel, let userIDs, let ms):
            let wanted = Set(userIDs)
            let found = await log.wait(until: deadline(ms)) { items in
                items.contains { if case .members(let seen, let users) = $0 { seen == channel && Set(users) == wanted } else { false } } ? true : nil
            }
            if found == nil { return "member list of \(channel) never was \(userIDs.sorted()) within \(ms) ms (client reported: \(log.items.map(\.summary).suffix(6).joined(separator: "; ")))" }
        case .expectPeerEvent(let peer, let channel, let event, let data, let ms):
            let end = deadline(ms)
            while ContinuousClock.now < end {
                if try await server.peerMessages(peer, appKey: app.key).contains(where: { $0.channel == channel && $0.event == event && (data == nil || Self.sameData($0.data.map(JSONValue.string), data)) }) {
                    return nil
                }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return "peer \(peer.name) got no \(event) on \(channel) within \(ms) ms (got: \(try await server.peerMessages(peer, appKey: app.key).suffix(4).map(\.text)))"
        case .expectNoPeerEvent(let peer, let event, let ms):
            try? await Task.sleep(for: .milliseconds(ms))
            if let seen = try await server.peerMessages(peer, appKey: app.key).first(where: { $0.event == event }) { return "peer \(peer.name) got \(seen.text)" }
        case .expectReconnect(let least, let ms):
            return try await expectReconnect(atLeastMs: least, withinMs: ms)
        case .expectImmediateReconnect(let ms):
            return try await expectReconnect(atLeastMs: 0, withinMs: ms)
        case .expectNoReconnect(let ms):
            var base = progress.withLock { $0.lastClose }
            if base == nil { base = Self.lastServerClose(try await server.journal(appKey: connectionKey)) }
            if base == nil { base = Close(at: .now, earlierConnections: try await server.journal(appKey: connectionKey).connections.count) }
            guard let close = base else { return nil }
            try? await Task.sleep(until: close.at + .milliseconds(ms), clock: .continuous)
            if let late = try await server.journal(appKey: connectionKey).connections.dropFirst(close.earlierConnections).first {
                return "the client connected again \(CaseExecutor.milliseconds(late.openedAt - close.at)) ms after the close"
            }
        case .expectJournal(let check, let ms):
            return try await expectJournal(check, withinMs: ms)
        case .signin, .peerSignin, .sendToUser, .terminateUser, .expectSignedIn, .expectUserEvent, .expectNoUserEvent, .expectWatchlist:
            return try await executeUserStep(step)
        case .expectWebhook(let name, let channel, let fields, let ms):
            return try await expectWebhook(name: name, channel: channel, fields: fields, withinMs: ms)
        }
        return nil
    }

    /// The case's app emitted the webhook event (polled on the server's record).
    private func expectWebhook(name: String, channel: String, fields: JSONValue?, withinMs ms: Int) async throws -> String? {
        func matches(_ event: JSONValue) -> Bool {
            guard event["name"]?.stringValue == name, event["channel"]?.stringValue == channel else { return false }
            return (fields?.objectValue.map(Array.init) ?? []).allSatisfy { event[$0.key] == $0.value }
        }
        let end = deadline(ms)
        var seen: [JSONValue] = []
        repeat {
            seen = try await server.webhookEvents(appKey: app.key)
            if seen.contains(where: matches) { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        } while ContinuousClock.now < end
        return "no \(name) webhook for \(channel) within \(ms) ms (emitted: \(seen.suffix(4).map(\.jsonText)))"
    }

    /// A connection opened after the last close, no sooner than `least` ms after it. The close is
    /// the last `closeConnection` step's moment, or else (a fault plan's close) the moment the
    /// server saw the last connection end, waited for within the window.
    private func expectReconnect(atLeastMs least: Int, withinMs ms: Int) async throws -> String? {
        let started = ContinuousClock.now
        var base = progress.withLock { $0.lastClose }
        while base == nil, ContinuousClock.now < started + .milliseconds(ms) {
            base = Self.lastServerClose(try await server.journal(appKey: connectionKey))
            if base == nil { try? await Task.sleep(for: .milliseconds(10)) }
        }
        guard let base else { return "no connection of the client ended within \(ms) ms" }
        let end = base.at + .milliseconds(ms)
        while ContinuousClock.now < end + .milliseconds(20) {
            if let next = try await server.journal(appKey: connectionKey).connections.dropFirst(base.earlierConnections).first {
                let after = CaseExecutor.milliseconds(next.openedAt - base.at)
                progress.withLock { $0.lastClose = nil }
                return after >= least ? nil : "reconnected after \(after) ms, sooner than the \(least) ms the close code requires"
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return "no reconnect within \(ms) ms of the close"
    }

    /// The last connection end the server saw (a fault plan's close): its moment and position. The
    /// moment is when the server sent its close frame where it closed first: a client starts its
    /// backoff when that frame arrives, and the end is journaled only when the client's answer (or
    /// the close timeout) came, which on a loaded machine can be hundreds of milliseconds later.
    static func lastServerClose(_ journal: PusherAppJournal) -> Close? {
        guard let index = journal.connections.indices.last(where: { journal.connections[$0].closedAt != nil }),
              let at = journal.connections[index].closingAt ?? journal.connections[index].closedAt else { return nil }
        return Close(at: at, earlierConnections: index + 1)
    }

    private func expectJournal(_ check: PusherJournalCheck, withinMs ms: Int) async throws -> String? {
        let end = deadline(ms)
        var why = ""
        repeat {
            let journal = try await server.journal(appKey: connectionKey)
            switch check {
            case .connectionEnded(let number):
                if journal.connections.count >= number, journal.connections[number - 1].closedAt != nil { return nil }
                why = "connection \(number) still open (connections: \(journal.connections.count))"
            case .socketIDReported(let number):
                let reported = log.items.compactMap { if case .connected(let id) = $0 { id } else { nil } }
                if journal.connections.count >= number, let socketID = journal.connections[number - 1].socketID, reported.contains(socketID) {
                    return nil
                }
                why = "server socket ids \(journal.connections.map { $0.socketID ?? "-" }), client reported \(reported)"
            case .authorizedForConnection(let channel, let number):
                guard journal.connections.count >= number, let socketID = journal.connections[number - 1].socketID else {
                    why = "the client made \(journal.connections.count) connection(s)"
                    break
                }
                let authorized = journal.authorizations.contains { $0.channel == channel && $0.socketID == socketID }
                let signed = journal.connections[number - 1].texts.contains { text in
                    guard let message = try? JSONValue.parse(text), message["event"]?.stringValue == "pusher:subscribe" else { return false }
                    let data = Self.object(message["data"])
                    guard data?["channel"]?.stringValue == channel, let auth = data?["auth"]?.stringValue else { return false }
                    let channelData = data?["channel_data"]?.stringValue
                    return auth == PusherSignatures.channelAuth(app: app, socketID: socketID, channel: channel, channelData: channelData)
                }
                if authorized && signed { return nil }
                why = "connection \(number) (socket id \(socketID)): auth request \(authorized ? "seen" : "missing"), subscription signed for it \(signed ? "seen" : "missing"); auth requests: \(journal.authorizations.map { "\($0.channel)@\($0.socketID)" })"
            case .sentOnConnection(let event, let channel, let number):
                if journal.connections.count >= number, journal.connections[number - 1].texts.contains(where: { text in
                    guard let message = try? JSONValue.parse(text), message["event"]?.stringValue == event else { return false }
                    return Self.object(message["data"])?["channel"]?.stringValue == channel || message["channel"]?.stringValue == channel
                }) { return nil }
                why = "no \(event) for \(channel) on connection \(number) (connections: \(journal.connections.count))"
            case .keptAlive(let number):
                guard journal.connections.count >= number else {
                    why = "the client made \(journal.connections.count) connection(s)"
                    break
                }
                let connection = journal.connections[number - 1]
                let pinged = connection.texts.contains { text in
                    let event = (try? JSONValue.parse(text))?["event"]?.stringValue
                    return event == "pusher:ping" || event == "pusher:pong"
                }
                if connection.closedAt == nil, pinged || connection.webSocketPongs > 0 { return nil }
                why = connection.closedAt != nil
                    ? "connection \(number) ended (close \(connection.closeCode.map(String.init) ?? "-"))"
                    : "no pong or ping from the client on connection \(number) yet"
            case .pinged(let number):
                if journal.connections.count >= number, journal.connections[number - 1].texts.contains(where: {
                    (try? JSONValue.parse($0))?["event"]?.stringValue == "pusher:ping"
                }) { return nil }
                why = "no pusher:ping on connection \(number) (connections: \(journal.connections.count))"
            case .usedTLS(let number):
                if journal.connections.count >= number, journal.connections[number - 1].tls { return nil }
                why = journal.connections.count >= number ? "connection \(number) was plain ws" : "the client made \(journal.connections.count) connection(s)"
            case .authorizedTimes(let channel, let times):
                let count = journal.authorizations.filter { $0.channel == channel }.count
                if count == times { return nil }
                why = "\(channel) authorized \(count) time(s), expected \(times)"
            case .neverSent(let event):
                let sent = journal.connections.enumerated().first { _, connection in
                    connection.texts.contains { (try? JSONValue.parse($0))?["event"]?.stringValue == event }
                }
                guard let (number, _) = sent else { return nil }
                why = "\(event) was sent on connection \(number + 1)"
            case let .usedTransport(number, transport):
                if journal.connections.count >= number, journal.connections[number - 1].transport == transport { return nil }
                why = journal.connections.count >= number
                    ? "connection \(number) used \(journal.connections[number - 1].transport), not \(transport)"
                    : "the client made \(journal.connections.count) connection(s)"
            }
            try? await Task.sleep(for: .milliseconds(10))
        } while ContinuousClock.now < end
        return "journal: \(why)"
    }

    /// Whether delivered data is the expected value: equal, or a string holding it as JSON (a
    /// client may hand the app the string as received; both are correct).
    static func sameData(_ seen: JSONValue?, _ expected: JSONValue?) -> Bool {
        if seen == expected { return true }
        if case .string(let text)? = seen, let parsed = try? JSONValue.parse(text) { return parsed == expected }
        return false
    }

    /// `data` as an object whether sent as an object or as a string holding one.
    static func object(_ value: JSONValue?) -> JSONValue? {
        if case .string(let text)? = value { return try? JSONValue.parse(text) }
        return value
    }
}
