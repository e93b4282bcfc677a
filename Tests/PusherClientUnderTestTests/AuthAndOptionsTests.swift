// SPDX-License-Identifier: MIT
import HarnessHTTPClient
import HarnessJSON
import Testing
@testable import PusherClientUnderTest

/// Pure pieces around the connection: the auth request and answer, URLs, options.
@Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct AuthAndOptionsTests {
    @Test func authRequestBytes() throws {
        let authorizer = try PusherHTTPAuthorizer(endpoint: try #require(PusherEndpointURL("http://127.0.0.1:8080/pusher/auth")), trust: .system,
                                                  headers: { [HTTPHeaderField("X-Token", $0.channelName)] }, timeout: 1, userAgent: "ua")
        let request = authorizer.httpRequest(for: PusherAuthorizationRequest(channelName: "private-foobar", socketID: "1234.1234"))
        let text = String(decoding: request.encode(hostHeader: "127.0.0.1:8080", userAgent: "ua"), as: UTF8.self)
        #expect(text == "POST /pusher/auth HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: ua\r\nAccept: */*\r\nConnection: close\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 47\r\nX-Token: private-foobar\r\n\r\n"
            + "socket_id=1234.1234&channel_name=private-foobar")
    }

    @Test(arguments: [
        (200, #"{"auth":"k:s"}"#, Result<PusherChannelAuthorization, PusherAuthorizationError>.success(PusherChannelAuthorization(auth: "k:s"))),
        (201, #"{"auth":"k:s","channel_data":"{\"user_id\":10}"}"#, .success(PusherChannelAuthorization(auth: "k:s", channelData: #"{"user_id":10}"#))),
        (200, #"{"auth":"k:s","channel_data":null}"#, .success(PusherChannelAuthorization(auth: "k:s"))),
        (403, "Forbidden", .failure(.status(403, body: "Forbidden"))),
        (200, "not json", .failure(.malformedResponse("not a JSON object: not json"))),
        (200, #"{"token":"x"}"#, .failure(.malformedResponse(#"no "auth" string"#))),
        (200, #"{"auth":"k:s","channel_data":{"user_id":1}}"#, .failure(.malformedResponse(#""channel_data" is an object, not a string"#))),
    ])
    func authAnswers(status: Int, body: String, expected: Result<PusherChannelAuthorization, PusherAuthorizationError>) {
        #expect(PusherHTTPAuthorizer.read(statusCode: status, body: Array(body.utf8)) == expected)
    }

    @Test func endpointURLs() {
        func parts(_ text: String) -> String? {
            PusherEndpointURL(text).map { "\($0.useTLS ? "tls" : "plain") \($0.host) \($0.port) \($0.target)" }
        }
        #expect(parts("http://127.0.0.1:8080/pusher/auth") == "plain 127.0.0.1 8080 /pusher/auth")
        #expect(parts("https://example.com/auth?x=1") == "tls example.com 443 /auth?x=1")
        #expect(parts("http://[::1]:9/a") == "plain ::1 9 /a")
        #expect(parts("http://host") == "plain host 80 /")
        #expect(parts("ftp://host/a") == nil)
        #expect(parts("http://host:0/a") == nil)
        #expect(parts("http://:80/a") == nil)
    }

    @Test func connectionTargetAndDefaults() {
        var options = PusherClientOptions()
        #expect(options.useTLS && options.effectivePort == 443 && options.protocolVersion == 6)
        #expect(options.connectAutomatically && options.reconnectAutomatically && options.reconnectDelay == 5)
        #expect(options.connection.maximumReconnectAttempts == 3)
        options.clientName = "libPusher"
        options.clientVersion = "1.6.4"
        #expect(options.connectionTarget(key: "278d425bdf160c739803") == "/app/278d425bdf160c739803?client=libPusher&version=1.6.4&protocol=6")
        options.reconnectDelay = 0.1
        #expect(options.reconnectDelay == 1)
        options.useTLS = false
        #expect(options.effectivePort == 80)
    }

    @Test func invalidOptionsNameTheField() {
        var options = PusherClientOptions()
        options.authorizationURL = "not a url"
        #expect(throws: PusherConfigurationError(field: "authorizationURL", reason: "not an http(s) URL: not a url")) { try options.validate() }
        options = PusherClientOptions(host: "h", port: 70000)
        #expect(throws: PusherConfigurationError(field: "port", reason: "must be 1…65535, got 70000")) { try options.validate() }
    }
}
