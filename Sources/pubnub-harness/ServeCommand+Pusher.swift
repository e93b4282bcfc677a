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
