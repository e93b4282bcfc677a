// SPDX-License-Identifier: MIT
import HarnessJSON
import MockPubNubServer
import PubNubToken
import Testing
@testable import HarnessRecording

/// Redaction without sockets: a request in, a redacted record out.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct RedactorTests {
    static let sub = "sub-c-5f0e2a11-aaaa"
    static let pub = "pub-c-77d2c9b0-bbbb"

    static var token: String {
        AccessToken(timestamp: 1_700_000_000, ttl: 60, resources: TokenGrants(), patterns: TokenGrants(), authorizedUUID: "alice",
                    signature: Array(repeating: 7, count: 32)).text
    }

    @Test func keysAuthSignaturesAndTokensBecomeStablePlaceholders() {
        var redactor = Redactor()
        let publish = HTTPRequest(method: "GET", target: "/publish/\(Self.pub)/\(Self.sub)/0/ch-1/0/%22hi%22?uuid=alice&auth=k1&timestamp=1&signature=v2.abcDEF123-_")
        let (recorded, endpoint) = redactor.redact(publish)
        #expect(endpoint == "publish")
        #expect(recorded.path == "/publish/{pub-key-1}/{sub-key-1}/0/ch-1/0/%22hi%22")
        #expect(recorded.queryValue("auth") == "{auth-1}")
        #expect(recorded.queryValue("signature") == "v2.{signature-1}")
        #expect(recorded.queryValue("uuid") == "alice")
        let subscribe = HTTPRequest(method: "GET", target: "/v2/subscribe/\(Self.sub)/ch-1,ch-1-pnpres/0?auth=\(Self.token)&channel-group=g1")
        let second = redactor.redact(subscribe).request
        #expect(second.path == "/v2/subscribe/{sub-key-1}/ch-1,ch-1-pnpres/0")
        #expect(second.queryValue("auth") == "{token-1}")
        #expect(redactor.keys.first { $0.placeholder == "{sub-key-1}" }?.publishKey == "{pub-key-1}")
        #expect(redactor.keys.first { $0.placeholder == "{sub-key-1}" }?.accessManager == true, "a signed request means Access Manager")
        #expect(redactor.keys.first { $0.placeholder == "{token-1}" }?.tokenShape?.contains("uuid") == true)
        #expect(redactor.names == [RecordedName(kind: .channel, name: "ch-1"), RecordedName(kind: .uuid, name: "alice"),
                                   RecordedName(kind: .group, name: "g1")])
    }

    @Test func answersLoseTheirTokensAuthKeysKeysAndStorageCredentials() {
        var redactor = Redactor()
        _ = redactor.redact(HTTPRequest(method: "POST", target: "/v3/pam/\(Self.sub)/grant?timestamp=1&signature=v2.x"))
        let grant = #"{"data":{"message":"Success","token":"\#(Self.token)"},"service":"Access Manager","status":200}"#
        let answer = redactor.redactResponse(status: 200, headers: [("content-type", "application/json")], body: Array(grant.utf8), subscribeKey: Self.sub)
        #expect(answer.body?.contains(Self.token) == false)
        #expect(answer.body?.contains(#""token":"{token-1}""#) == true)
        #expect(answer.headers == [NameValue("Content-Type", "application/json")])
        let v2 = #"{"payload":{"subscribe_key":"\#(Self.sub)","auths":{"k2":{"r":1}}},"status":200}"#
        let audit = redactor.redactResponse(status: 200, headers: [], body: Array(v2.utf8), subscribeKey: Self.sub)
        #expect(audit.body == #"{"payload":{"subscribe_key":"{sub-key-1}","auths":{"{auth-1}":{"r":1}}},"status":200}"#)
        let upload = #"{"file_upload_request":{"url":"https://bucket.example/","form_fields":[{"key":"Policy","value":"cG9saWN5LXRleHQ="},{"key":"X-Amz-Signature","value":"0123abcd0123abcd"},{"key":"key","value":"\#(Self.sub)/ch/id/a.txt"}]}}"#
        let form = redactor.redactResponse(status: 200, headers: [], body: Array(upload.utf8), subscribeKey: Self.sub)
        #expect(form.body?.contains("cG9saWN5LXRleHQ=") == false && form.body?.contains("0123abcd0123abcd") == false)
        #expect(form.body?.contains(#""value":"{sub-key-1}/ch/id/a.txt""#) == true)
        let redirect = redactor.redactResponse(
            status: 307, headers: [("location", "https://bucket.example/\(Self.sub)/ch/id/a.txt?X-Amz-Signature=feedface12&X-Amz-Expires=60")],
            body: [], subscribeKey: Self.sub)
        #expect(redirect.header("Location") == "https://bucket.example/{sub-key-1}/ch/id/a.txt?X-Amz-Signature={signature-3}&X-Amz-Expires=60")
    }

    @Test func extraNamesAndSecretMembersAreRedactedAndShortSecretsOnlyWhereTheyStandAlone() {
        var redactor = Redactor(extraNames: ["session"])
        let request = HTTPRequest(method: "POST", target: "/v2/objects/\(Self.sub)/uuids/a?session=s1&auth=a",
                                  headers: ["Content-Type": "application/json", "Authorization": "Bearer zzz"],
                                  body: Array(#"{"name":"a","custom":{"secretKey":"sec-c-123456789","note":"a"}}"#.utf8))
        let recorded = redactor.redact(request).request
        #expect(recorded.queryValue("session") == "{redacted-1}")
        #expect(recorded.header("Authorization") == "{redacted-2}")
        #expect(recorded.body?.contains("sec-c-123456789") == false)
        // The auth key "a" is replaced as a whole value, not inside "name" or the uuid "a" path segment's text.
        #expect(recorded.queryValue("auth") == "{auth-1}")
        #expect(recorded.body?.contains(#""name":"{auth-1}""#) == true, "a short secret is replaced where it is a whole JSON string")
        #expect(recorded.path.hasSuffix("/uuids/{auth-1}") || recorded.path.hasSuffix("/uuids/a"))
    }
}
