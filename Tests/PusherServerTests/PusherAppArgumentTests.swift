// SPDX-License-Identifier: MIT
import MockPusher
import PusherServer
import Testing

@Suite("serve --pusher-app", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherAppArgumentTests {
    @Test func parsesIdKeyAndSecret() throws {
        let app = try PusherAppArgument.parse("123:app-key:s3cret")
        #expect(app == PusherApp(id: "123", key: "app-key", secret: "s3cret"))
    }

    @Test func noArgumentServesTheDemoApp() throws {
        #expect(try PusherAppArgument.parseAll([]) == [PusherAppArgument.demo])
    }

    @Test(arguments: [
        ("1:k", "invalid --pusher-app '1:k': expected ID:KEY:SECRET (three parts separated by ':')"),
        ("1:k:s:x", "invalid --pusher-app '1:k:s:x': expected ID:KEY:SECRET (three parts separated by ':')"),
        ("app:k:s", "invalid --pusher-app 'app:k:s': the app id must be digits"),
        (":k:s", "invalid --pusher-app ':k:s': the app id must be digits"),
        ("1::s", "invalid --pusher-app '1::s': the key is empty"),
        ("1:k:", "invalid --pusher-app '1:k:': the secret is empty"),
    ])
    func refusesMalformedArguments(argument: String, message: String) {
        #expect(throws: PusherAppArgument.Invalid.self) { try PusherAppArgument.parse(argument) }
        do {
            _ = try PusherAppArgument.parse(argument)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func refusesDuplicateIdsAndKeys() {
        #expect(throws: PusherAppArgument.Invalid(argument: "1:b:s", reason: "app id 1 is given twice")) {
            try PusherAppArgument.parseAll(["1:a:s", "1:b:s"])
        }
        #expect(throws: PusherAppArgument.Invalid(argument: "2:a:t", reason: "key a is given twice")) {
            try PusherAppArgument.parseAll(["1:a:s", "2:a:t"])
        }
    }
}
