// SPDX-License-Identifier: MIT
import MockPubNubServer
import MockPusher

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
