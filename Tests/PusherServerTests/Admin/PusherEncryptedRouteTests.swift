// SPDX-License-Identifier: MIT
import Foundation
import HarnessJSON
import HarnessTesting
import MockPusher
import PusherServer
import Testing

/// Encrypted channels on the server side (docs/pusher.md, "Encrypted channels"): the master key as an
/// admin app setting, `shared_secret` at the harness's auth endpoint, the HTTP API relaying encrypted
/// data as it is, and the `tamper-ciphertext` fault.
@Suite("Pusher encrypted channels: server", .serialized, .offPool, .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherEncryptedRouteTests {
    static let masterKey = [UInt8](repeating: 1, count: 32)
    static let keyedApp: PusherApp = {
        var options = PusherAppOptions()
        options.encryptionMasterKey = masterKey
        return PusherApp(id: "77", key: "enc-key", secret: "enc-secret", options: options)
    }()

    @Test func authEndpointAnswersTheSharedSecretOfTheSpecVector() throws {
        try withPusherServer(apps: [testApp, Self.keyedApp]) { server in
            let answer = try server.http("POST", "/__admin/pusher/auth/enc-key/u1", body: "socket_id=1.2&channel_name=private-encrypted-foo")
            let auth = PusherSignatures.channelAuth(app: Self.keyedApp, socketID: "1.2", channel: "private-encrypted-foo")
            #expect(answer.bodyText == #"{"auth":"\#(auth)","shared_secret":"8ziYucAATGLnsfmVQnRpKw1VkUgQbrB5CfEQheHpD0w="}"#)
            let wrong = try JSONValue.parse(server.http("POST", "/__admin/pusher/auth/enc-key/u1?shared_secret=wrong",
                                                        body: "socket_id=1.2&channel_name=private-encrypted-foo").body)
            #expect(wrong["auth"]?.stringValue == auth)
            #expect(wrong["shared_secret"]?.stringValue == PusherSignatures.sharedSecretBase64(channel: "private-encrypted-foo-wrong", masterKey: Self.masterKey))
            #expect(try server.http("POST", "/__admin/pusher/auth/enc-key/u1?shared_secret=x", body: "socket_id=1.2&channel_name=private-encrypted-foo").bodyText
                == PusherHarnessRouteTests.adminError(400, #"shared_secret: expected "wrong" (or no parameter), got "x""#))
            // Not an encrypted channel: no shared_secret.
            let plain = try server.http("POST", "/__admin/pusher/auth/enc-key/u1", body: "socket_id=1.2&channel_name=private-foo")
            #expect(plain.bodyText == #"{"auth":"\#(PusherSignatures.channelAuth(app: Self.keyedApp, socketID: "1.2", channel: "private-foo"))"}"#)
            // An app without a master key: signed, without shared_secret (the client must refuse it).
            let keyless = try server.http("POST", "/__admin/pusher/auth/test-key/u1", body: "socket_id=1.2&channel_name=private-encrypted-foo")
            #expect(keyless.status == 200)
            #expect(keyless.bodyText == #"{"auth":"\#(PusherSignatures.channelAuth(app: testApp, socketID: "1.2", channel: "private-encrypted-foo"))"}"#)
        }
    }

    @Test func adminAppsTakeAMasterKeyAndRefuseABadOne() throws {
        try withPusherServer { server in
            let good = #"{"id":"31","key":"k31","secret":"s","encryptionMasterKey":"AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE="}"#
            #expect(try server.http("POST", "/__admin/pusher/apps", body: good).status == 200)
            let answer = try JSONValue.parse(server.http("POST", "/__admin/pusher/auth/k31/u1", body: "socket_id=1.2&channel_name=private-encrypted-foo").body)
            #expect(answer["shared_secret"]?.stringValue == "8ziYucAATGLnsfmVQnRpKw1VkUgQbrB5CfEQheHpD0w=")
            let short = try server.http("POST", "/__admin/pusher/apps", body: #"{"id":"32","key":"k32","secret":"s","encryptionMasterKey":"AQID"}"#)
            #expect(short.status == 400)
            #expect(short.bodyText == PusherHarnessRouteTests.adminError(400, "encryptionMasterKey: expected base64 of 32 bytes, got 3 bytes"))
            let notBase64 = try server.http("POST", "/__admin/pusher/apps", body: #"{"id":"32","key":"k32","secret":"s","encryptionMasterKey":"%%%"}"#)
            #expect(notBase64.bodyText == PusherHarnessRouteTests.adminError(400, "encryptionMasterKey: not valid base64 ('%%%')"))
            let notString = try server.http("POST", "/__admin/pusher/apps", body: #"{"id":"32","key":"k32","secret":"s","encryptionMasterKey":5}"#)
            #expect(notString.bodyText == PusherHarnessRouteTests.adminError(400, "encryptionMasterKey: expected a string"))
        }
    }

    @Test func tamperFaultFlipsOneCiphertextByteOfMatchingEventsOnly() throws {
        try withPusherServer(apps: [Self.keyedApp]) { server in
            let plan = #"{"rules":[{"fault":{"kind":"tamper-ciphertext","channel":"private-encrypted-x","event":"bad"}}]}"#
            #expect(try server.http("PUT", "/__admin/pusher/plan?app_key=enc-key", body: plan).status == 200)
            let socket = try server.connect(key: "enc-key")
            let established = try JSONValue.parse(socket.nextText())
            let socketID = try #require(PusherCiphertextFixture.socketID(established))
            let auth = PusherSignatures.channelAuth(app: Self.keyedApp, socketID: socketID, channel: "private-encrypted-x")
            try socket.send(#"{"event":"pusher:subscribe","data":{"channel":"private-encrypted-x","auth":"\#(auth)"}}"#)
            #expect(try socket.nextText().contains("subscription_succeeded"))
            let payload = #"{"nonce":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYX","ciphertext":"Bk1HOuDMAx6aa2p0Cp8KCw=="}"#
            for event in ["bad", "good"] {
                let body = JSONValue.object([("name", .string(event)), ("channel", "private-encrypted-x"), ("data", .string(payload))]).jsonText
                #expect(try server.signedPost(app: Self.keyedApp, path: "/apps/77/events", body: body).status == 200)
            }
            let bad = try JSONValue.parse(socket.nextText())
            let good = try JSONValue.parse(socket.nextText())
            let badData = try JSONValue.parse(#require(bad["data"]?.stringValue))
            #expect(badData["nonce"]?.stringValue == "AAECAwQFBgcICQoLDA0ODxAREhMUFRYX")
            // The last byte 0x0B becomes 0x0A.
            #expect(badData["ciphertext"]?.stringValue == "Bk1HOuDMAx6aa2p0Cp8KCg==")
            #expect(good["data"]?.stringValue == payload)
        }
    }
}

extension PusherTestServer {
    /// `POST path` signed with `app`'s secret at the current time, as an app server sends it.
    func signedPost(app: PusherApp, path: String, body: String) throws -> HTTPResponseText {
        let query = PusherRequestAuthentication.signedQuery(app: app, method: "POST", path: path, parameters: [], body: Array(body.utf8),
                                                            timestamp: Int64(Date().timeIntervalSince1970))
        return try http("POST", path + "?" + query.map { "\($0.name)=\($0.value)" }.joined(separator: "&"), body: body)
    }
}

/// UNVERIFIED choice (docs/pusher.md): the HTTP API relays a trigger naming several channels even when
/// one is encrypted (the libraries refuse to send one; the service never decrypts).
@Suite("Pusher encrypted channels: HTTP API", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherEncryptedAPITests {
    @Test func multiChannelTriggerWithAnEncryptedChannelIsRelayedAsIs() {
        let bed = PusherAPIBed()
        bed.connect(1)
        bed.subscribe(1, "private-encrypted-a")
        bed.subscribe(1, "news")
        let body = #"{"name":"e","data":"{\"nonce\":\"n\",\"ciphertext\":\"c\"}","channels":["private-encrypted-a","news"]}"#
        let outcome = bed.respond(bed.signed("POST", "/apps/3/events", body: body))
        #expect(outcome.status == 200)
        #expect(messages(outcome.actions, to: 1) == [
            #"{"event":"e","data":"{\"nonce\":\"n\",\"ciphertext\":\"c\"}","channel":"private-encrypted-a"}"#,
            #"{"event":"e","data":"{\"nonce\":\"n\",\"ciphertext\":\"c\"}","channel":"news"}"#,
        ])
    }
}

/// Reading `connection_established`.
enum PusherCiphertextFixture {
    static func socketID(_ established: JSONValue) -> String? {
        guard let data = established["data"]?.stringValue else { return nil }
        return (try? JSONValue.parse(data))?["socket_id"]?.stringValue
    }
}
