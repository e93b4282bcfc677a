// SPDX-License-Identifier: MIT
import HarnessJSON
import MockPusher

extension PusherStep {
    /// The window a user step may wait (nil for actions).
    var userStepWindow: Int? {
        switch self {
        case .expectSignedIn(_, let ms), .expectUserEvent(_, _, let ms), .expectNoUserEvent(_, let ms), .expectWatchlist(_, _, let ms): ms
        default: nil
        }
    }

    /// The step with its "must happen" window stretched (other steps unchanged).
    func userStepStretched(_ stretch: (Int) -> Int) -> PusherStep {
        switch self {
        case .expectSignedIn(let user, let ms): .expectSignedIn(user, withinMs: stretch(ms))
        case .expectUserEvent(let event, let data, let ms): .expectUserEvent(event: event, data: data, withinMs: stretch(ms))
        case .expectWatchlist(let name, let users, let ms): .expectWatchlist(name: name, userIDs: users, withinMs: stretch(ms))
        default: self
        }
    }
}

extension PusherStepRunner {
    /// The signin, server-to-user, terminate and watchlist steps.
    func executeUserStep(_ step: PusherStep) async throws -> String? {
        switch step {
        case .signin:
            try await session.perform(.signin)
        case .peerSignin(let peer, let watchlist):
            try await server.peerSignin(peer, appKey: app.key, watchlist: watchlist)
        case .sendToUser(let user, let event, let data):
            try await server.trigger(app: app, channels: ["#server-to-user-" + user], event: event, data: data, excludeSocketID: nil)
        case .terminateUser(let user):
            try await server.terminateUser(app: app, userID: user)
        case .expectSignedIn(let user, let ms):
            return await expect(within: ms, what: "signin_success for \(user)") { $0 == .signedIn(userID: user) }
        case .expectUserEvent(let event, let data, let ms):
            return await expect(within: ms, what: "user event \(event)\(data.map { " with \($0.jsonText)" } ?? "")") {
                guard case .userEvent(let name, let seen) = $0, name == event else { return false }
                return data == nil || Self.sameData(seen, data)
            }
        case .expectNoUserEvent(let event, let ms):
            try? await Task.sleep(for: .milliseconds(ms))
            if let seen = log.items.first(where: { if case .userEvent(let name, _) = $0 { name == event } else { false } }) {
                return "unexpected \(seen.summary)"
            }
        case .expectWatchlist(let name, let users, let ms):
            let wanted = Set(users)
            return await expect(within: ms, what: "watchlist \(name) \(users.sorted())") {
                if case .watchlist(let seen, let ids) = $0 { seen == name && Set(ids) == wanted } else { false }
            }
        default:
            return "not a user step"
        }
        return nil
    }
}
