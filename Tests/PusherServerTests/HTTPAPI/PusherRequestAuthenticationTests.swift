// SPDX-License-Identifier: MIT
import MockPubNubServer
import MockPusher
import PusherServer
import Testing

@Suite("Pusher HTTP API: request authentication", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherRequestAuthenticationTests {
    /// The REST reference's worked vector (spec §6.2).
    @Test func workedVectorSignsAsPublished() {
        #expect(PusherSignatures.md5Hex(Array(vectorBody.utf8)) == "ec365a775a4cd0599faeb73354201b6f")
        let query = [
            QueryItem(name: "auth_key", value: "278d425bdf160c739803"), QueryItem(name: "auth_timestamp", value: "1353088179"),
            QueryItem(name: "auth_version", value: "1.0"), QueryItem(name: "body_md5", value: "ec365a775a4cd0599faeb73354201b6f"),
        ]
        let signed = PusherRequestAuthentication.stringToSign(method: "POST", path: "/apps/3/events", query: query)
        #expect(signed == "POST\n/apps/3/events\nauth_key=278d425bdf160c739803&auth_timestamp=1353088179&auth_version=1.0&body_md5=ec365a775a4cd0599faeb73354201b6f")
        #expect(PusherSignatures.hmacSHA256Hex(secret: vectorApp.secret, message: signed)
            == "da454824c97ba181a32ccc17a72625ba02771f50b50e1e7430e47a1f3f457e6c")
    }

    /// The published request, byte for byte, is accepted and delivered.
    @Test func workedVectorRequestIsAccepted() {
        var bed = PusherAPIBed()
        bed.unixTime = 1_353_088_179 + 599
        bed.connect(1)
        bed.subscribe(1, "project-3")
        let query = [
            QueryItem(name: "auth_key", value: "278d425bdf160c739803"), QueryItem(name: "auth_timestamp", value: "1353088179"),
            QueryItem(name: "auth_version", value: "1.0"), QueryItem(name: "body_md5", value: "ec365a775a4cd0599faeb73354201b6f"),
            QueryItem(name: "auth_signature", value: "da454824c97ba181a32ccc17a72625ba02771f50b50e1e7430e47a1f3f457e6c"),
        ]
        let outcome = bed.respond(PusherAPIRequest(method: "POST", rawPath: "/apps/3/events", decodedPath: "/apps/3/events", query: query, body: Array(vectorBody.utf8)))
        #expect(outcome.status == 200)
        #expect(outcome.text == "{}")
        #expect(outcome.contentType == "application/json")
        #expect(messages(outcome.actions, to: 1) == [#"{"event":"foo","data":"{\"some\":\"data\"}","channel":"project-3"}"#])
    }

    @Test func wrongSignatureGetsTheLiveText() {
        let bed = PusherAPIBed()
        let request = replacing("auth_signature", with: "e2ab00", in: bed.signed("POST", "/apps/3/events", body: vectorBody))
        let outcome = bed.respond(request)
        #expect(outcome.status == 401)
        #expect(outcome.text == #"Invalid signature: you should have sent HmacSHA256Hex("POST\n/apps/3/events\nauth_key=278d425bdf160c739803&auth_timestamp=1353088179&auth_version=1.0&body_md5=ec365a775a4cd0599faeb73354201b6f", your_secret_key), but you sent "e2ab00""#)
        #expect(outcome.actions.isEmpty)
    }

    @Test func staleTimestampGetsTheLiveText() {
        var bed = PusherAPIBed()
        bed.unixTime = 1_380_443_792
        let outcome = bed.respond(bed.signed("GET", "/apps/3/channels", timestamp: 1_380_444_393))
        #expect(outcome.status == 401)
        #expect(outcome.text == "Timestamp expired: Given timestamp (2013-09-29T08:46:33Z) not within 600s of server time (2013-09-29T08:36:32Z)")
        #expect(bed.respond(bed.signed("GET", "/apps/3/channels", timestamp: 1_380_443_792 - 600)).status == 200)
        #expect(bed.respond(bed.signed("GET", "/apps/3/channels", timestamp: 1_380_443_792 - 601)).status == 401)
    }

    @Test func unknownKeyIs400() {
        let bed = PusherAPIBed()
        let outcome = bed.respond(replacing("auth_key", with: "nope", in: bed.signed("GET", "/apps/3/channels")))
        #expect(outcome.status == 400)
        #expect(outcome.text == "Unknown auth_key")
    }

    @Test func bodyMD5IsRequiredWithABodyAndOptionalOnGet() {
        let bed = PusherAPIBed()
        var request = bed.signed("POST", "/apps/3/events", body: vectorBody)
        request.query = request.query?.filter { $0.name != "body_md5" }
        #expect(bed.respond(request).status == 401)
        #expect(bed.respond(replacing("body_md5", with: "00000000000000000000000000000000", in: bed.signed("POST", "/apps/3/events", body: vectorBody))).status == 401)
        // Without body_md5 (hand-written clients) and with the MD5 of the empty body (pusher-http-python).
        #expect(bed.respond(bed.signed("GET", "/apps/3/channels")).status == 200)
        let withMD5 = bed.signed("GET", "/apps/3/channels", [QueryItem(name: "body_md5", value: "d41d8cd98f00b204e9800998ecf8427e")])
        #expect(bed.respond(withMD5).status == 200)
    }

    @Test func authVersionMustBeOnePointZero() {
        let bed = PusherAPIBed()
        #expect(bed.respond(replacing("auth_version", with: "2.0", in: bed.signed("GET", "/apps/3/channels"))).status == 400)
    }

    /// Values are signed decoded and keys lower-cased; the raw or the decoded path both pass.
    @Test func signsDecodedValuesAndEitherPathForm() {
        let bed = PusherAPIBed()
        let query = PusherRequestAuthentication.signedQuery(
            app: vectorApp, method: "GET", path: "/apps/3/channels/presence-a b",
            parameters: [QueryItem(name: "INFO", value: "user_count,subscription_count")], body: [], timestamp: bed.unixTime)
        var request = PusherAPIRequest(method: "GET", rawPath: "/apps/3/channels/presence-a%20b", decodedPath: "/apps/3/channels/presence-a b", query: query, body: [])
        // The channel name is invalid, so the signature passing shows as the core's 400, not a 401.
        #expect(bed.respond(request).status == 400)
        let rawSigned = PusherRequestAuthentication.signedQuery(
            app: vectorApp, method: "GET", path: "/apps/3/channels/presence-a%20b", parameters: [], body: [], timestamp: bed.unixTime)
        request.query = rawSigned
        #expect(bed.respond(request).status == 400)
        request.query = replacing("auth_signature", with: "00", in: request).query
        #expect(bed.respond(request).status == 401)
    }
}
