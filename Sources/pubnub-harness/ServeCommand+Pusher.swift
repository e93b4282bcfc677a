// SPDX-License-Identifier: MIT
import MockPubNubServer
import MockPusher
import PusherServer

extension ServeCommand {
    /// One line per Pusher app: its credentials and the ws (and wss) URLs clients connect to.
    func announcePusher(_ apps: [PusherApp], on server: MockServer) {
        for app in apps {
            var urls: [String] = []
            if let address = server.address { urls.append("ws://\(shown(address.host)):\(address.port)/app/\(app.key)") }
            if let tls = server.tlsAddress { urls.append("wss://\(shown(tls.host)):\(tls.port)/app/\(app.key)") }
            say("pusher app id \(app.id) key \(app.key) secret \(app.secret): \(urls.joined(separator: " "))")
        }
    }

    private func shown(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }
}

extension ServeCommand {
    /// Installs every `--pusher-plan` file; a file that cannot be read or decoded is a usage error.
    func installPusherPlans(into pusher: PusherService) throws {
        for file in pusherPlanFiles {
            let bytes = [UInt8](try readInput(file, what: "Pusher plan"))
            do throws(PusherFaultPlanError) {
                for plan in try PusherFaultPlan.decodeFile(json: bytes) {
                    guard let key = plan.appKey else { continue }
                    pusher.faults.install(plan, for: key)
                    say("pusher plan \(file): app key \(key), \(plan.rules.count) rule\(plan.rules.count == 1 ? "" : "s")")
                }
            } catch {
                throw UsageError("--pusher-plan \(file): \(error)")
            }
        }
    }
}

extension ServeCommand {
    /// `--pusher-http` and `--pusher-refuse-websocket` into the service's options; a usage error when malformed.
    func configurePusherHTTP(_ options: inout PusherServiceOptions) throws {
        if let status = pusherRefuseWebSocket {
            guard (400...599).contains(status) else { throw UsageError("invalid --pusher-refuse-websocket \(status): expected a status 400-599") }
            options.webSocketRefusalStatus = status
        }
        guard let text = pusherHTTP else { return }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), let heartbeat = Int64(parts[0]), let disconnect = Int64(parts[1]),
              (1...3_600_000).contains(heartbeat), (1...3_600_000).contains(disconnect), parts.count == 2 || parts[2] == "no-prelude"
        else {
            throw UsageError("invalid --pusher-http '\(text)': expected HEARTBEAT_MS:DISCONNECT_MS[:no-prelude], each 1-3600000")
        }
        options.httpSessions = PusherHTTPSessionSettings(heartbeatMilliseconds: heartbeat, disconnectMilliseconds: disconnect, streamingPrelude: parts.count == 2)
    }
}
