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

    @Test func settingsFollowTheSecret() throws {
        let app = try PusherAppArgument.parse("123:k:s,subscription-count,cache-ttl=0.5")
        #expect(app.secret == "s")
        #expect(app.options.subscriptionCountEvents)
        #expect(app.options.cacheTTL == .milliseconds(500))
        #expect(app.options.cacheChannelsEnabled)
        #expect(try PusherAppArgument.parse("1:k:s,no-cache").options.cacheChannelsEnabled == false)
        #expect(try PusherAppArgument.parse("1:k:s").options == PusherAppOptions())
    }

    @Test func encryptionMasterKeyIsBase64Of32Bytes() throws {
        let app = try PusherAppArgument.parse("1:k:s,encryption-master-key=AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=")
        #expect(app.options.encryptionMasterKey == [UInt8](repeating: 1, count: 32))
        #expect(try PusherAppArgument.parse("1:k:s").options.encryptionMasterKey == nil)
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
        ("1:k:s,fast", "invalid --pusher-app '1:k:s,fast': unknown setting 'fast' (expected subscription-count, cache-ttl=SECONDS, no-cache or encryption-master-key=BASE64)"),
        ("1:k:s,encryption-master-key=AQID", "invalid --pusher-app '1:k:s,encryption-master-key=AQID': encryption-master-key: expected base64 of 32 bytes, got 3 bytes"),
        ("1:k:s,encryption-master-key=not*base64",
         "invalid --pusher-app '1:k:s,encryption-master-key=not*base64': encryption-master-key: not valid base64 ('not*base64')"),
        ("1:k:s,cache-ttl=0", "invalid --pusher-app '1:k:s,cache-ttl=0': cache-ttl: expected seconds from 0.001 to 1800, got '0'"),
        ("1:k:s,cache-ttl=1801", "invalid --pusher-app '1:k:s,cache-ttl=1801': cache-ttl: expected seconds from 0.001 to 1800, got '1801'"),
        ("1:k:s,subscription-count=yes",
         "invalid --pusher-app '1:k:s,subscription-count=yes': unknown setting 'subscription-count=yes' (expected subscription-count, cache-ttl=SECONDS, no-cache or encryption-master-key=BASE64)"),
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
