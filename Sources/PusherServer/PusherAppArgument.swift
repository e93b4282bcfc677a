// SPDX-License-Identifier: MIT
import MockPusher

/// Parses the `serve --pusher-app ID:KEY:SECRET` argument and names the demo app served when none
/// is given.
public enum PusherAppArgument {
    /// Why an `ID:KEY:SECRET` argument was refused; `description` is the CLI's one-line message.
    public struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        public var argument: String
        public var reason: String
        public var description: String { "invalid --pusher-app '\(argument)': \(reason)" }

        public init(argument: String, reason: String) {
            self.argument = argument
            self.reason = reason
        }
    }

    /// The app served when `serve` is given no `--pusher-app`: the credentials of the REST reference's
    /// worked signature example (app 3), so its published vector checks out against the mock as is.
    public static let demo = PusherApp(id: "3", key: "278d425bdf160c739803", secret: "7ad3773142a6692b25b8")

    /// `ID:KEY:SECRET[,SETTING…]`. The id must be digits (the official HTTP libraries refuse anything
    /// else); key and secret are non-empty and contain no `:` (the key is the prefix of every
    /// `key:signature`) and no `,` (it starts the settings: ``PusherAppSettings``).
    public static func parse(_ argument: String) throws(Invalid) -> PusherApp {
        let pieces = argument.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let parts = pieces[0].split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else {
            throw Invalid(argument: argument, reason: "expected ID:KEY:SECRET (three parts separated by ':')")
        }
        let (id, key, secret) = (parts[0], parts[1], parts[2])
        guard !id.isEmpty, id.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw Invalid(argument: argument, reason: "the app id must be digits")
        }
        guard !key.isEmpty else { throw Invalid(argument: argument, reason: "the key is empty") }
        guard !secret.isEmpty else { throw Invalid(argument: argument, reason: "the secret is empty") }
        var options = PusherAppOptions()
        for setting in pieces.dropFirst() {
            do throws(PusherAppSettings.Refusal) {
                try PusherAppSettings.apply(setting, to: &options)
            } catch {
                throw Invalid(argument: argument, reason: error.reason)
            }
        }
        return PusherApp(id: id, key: key, secret: secret, options: options)
    }

    /// Parses every argument and refuses two apps with the same id or the same key.
    public static func parseAll(_ arguments: [String]) throws(Invalid) -> [PusherApp] {
        if arguments.isEmpty { return [demo] }
        var apps: [PusherApp] = []
        for argument in arguments {
            let app = try parse(argument)
            if apps.contains(where: { $0.id == app.id }) {
                throw Invalid(argument: argument, reason: "app id \(app.id) is given twice")
            }
            if apps.contains(where: { $0.key == app.key }) {
                throw Invalid(argument: argument, reason: "key \(app.key) is given twice")
            }
            apps.append(app)
        }
        return apps
    }
}
