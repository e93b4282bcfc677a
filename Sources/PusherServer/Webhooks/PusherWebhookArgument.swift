// SPDX-License-Identifier: MIT
import MockPusher

/// Parses `serve --pusher-webhook [ID=]URL` (repeatable): a URL alone is every app's webhook URL,
/// `ID=URL` one app's (which wins over a URL alone).
public enum PusherWebhookArgument {
    /// The webhook URL per app id; every URL is checked to be a loopback `http://` URL.
    public static func parseAll(_ arguments: [String], apps: [PusherApp]) throws(PusherWebhookError) -> [String: String] {
        var shared: String?
        var perApp: [String: String] = [:]
        for argument in arguments {
            if let equals = argument.firstIndex(of: "="), !argument[..<equals].contains(":") {
                let id = String(argument[..<equals])
                let url = String(argument[argument.index(after: equals)...])
                guard apps.contains(where: { $0.id == id }) else { throw .unknownApp(id) }
                _ = try PusherWebhookTarget(url: url)
                perApp[id] = url
            } else {
                _ = try PusherWebhookTarget(url: argument)
                shared = argument
            }
        }
        var urls: [String: String] = [:]
        for app in apps { if let url = perApp[app.id] ?? shared { urls[app.id] = url } }
        return urls
    }
}
