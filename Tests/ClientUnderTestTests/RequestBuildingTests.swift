// SPDX-License-Identifier: MIT
import Testing
@testable import ClientUnderTest

/// Pure request building: encoding, common parameters, signature.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct RequestBuildingTests {
    @Test func signatureMatchesTheWorkedExample() {
        let signer = RequestSigner(publishKey: "demo", secretKey: "my-secret-key")
        let query = [("channel", "ch1"), ("pnsdk", "PubNub-Python/10.4.0"), ("r", "1"), ("timestamp", "1795243192"),
                     ("ttl", "60"), ("uuid", "admin"), ("w", "1")]
        #expect(signer.signature(method: "GET", path: "/v2/auth/grant/sub-key/demo", query: query, body: nil)
            == "v2.Acw2PxzXgOdXNObmXVtRhyComCb3_cRd6d0Uyttf04I")
    }

    @Test func signedTargetsCarryTimestampAndSignature() {
        var builder = RequestTargetBuilder(uuid: "u", sdkName: "s/1", authKey: "a")
        builder.signer = RequestSigner(publishKey: "p", secretKey: "k")
        builder.clock = { 1_700_000_000 }
        let request = PubNubRequest(operation: .history, path: "/v2/history/sub-key/s/channel/c", query: [("count", "5")])
        let expected = RequestSigner(publishKey: "p", secretKey: "k").signature(
            method: "GET", path: request.path,
            query: [("count", "5"), ("uuid", "u"), ("pnsdk", "s/1"), ("auth", "a"), ("timestamp", "1700000000")], body: nil)
        #expect(builder.target(for: request)
            == "/v2/history/sub-key/s/channel/c?count=5&uuid=u&pnsdk=s%2F1&auth=a&timestamp=1700000000&signature=\(expected)")
        let time = builder.target(for: SubscribeEndpoints.time())
        #expect(time == "/time/0?uuid=u&pnsdk=s%2F1")
    }

    @Test func fireIsANeitherStoredNorReplicatedPublish() {
        let fire = PublishEndpoints.publish(publishKey: "p", subscribeKey: "s", channel: "c", messageText: "\"m\"", meta: nil,
                                            store: false, ttl: nil, usePOST: false, sequence: 1, replicate: false)
        #expect(fire.query.map { "\($0.0)=\($0.1)" } == ["store=0", "norep=true", "seqn=1"])
        let publish = PublishEndpoints.publish(publishKey: "p", subscribeKey: "s", channel: "c", messageText: "\"m\"", meta: nil,
                                               store: nil, ttl: nil, usePOST: false, sequence: 2)
        #expect(publish.query.map { "\($0.0)=\($0.1)" } == ["seqn=2"])
    }

    @Test func namesAreEncodedOneByOne() {
        var set = SubscriptionSet()
        set.add(channels: ["a b", "ü+?"], groups: ["g:1", "g2"], withPresence: true)
        set.state = ["a b": ["k": "v"]]
        let request = SubscribeEndpoints.subscribe(subscribeKey: "sub", set: set, cursor: SubscribeCursor(timetoken: 5, region: 3),
                                                   heartbeat: 120)
        let target = RequestTargetBuilder(uuid: "u", sdkName: "x", authKey: nil).target(for: request)
        #expect(target == "/v2/subscribe/sub/a%20b,%C3%BC%2B%3F,a%20b-pnpres,%C3%BC%2B%3F-pnpres/0?tt=5&tr=3&channel-group=g%3A1,g2,g%3A1-pnpres,g2-pnpres&heartbeat=120&state=%7B%22a%20b%22%3A%7B%22k%22%3A%22v%22%7D%7D&uuid=u&pnsdk=x")
    }

    @Test func groupsOnlySubscribeUsesTheCommaPlaceholder() {
        var set = SubscriptionSet()
        set.add(channels: [], groups: ["g"], withPresence: false)
        let request = SubscribeEndpoints.subscribe(subscribeKey: "sub", set: set, cursor: nil, heartbeat: nil)
        #expect(request.path == "/v2/subscribe/sub/,/0")
        #expect(request.query.map { "\($0.0)=\($0.1)" } == ["tt=0", "channel-group=g"])
    }

    @Test func refusedNames() {
        for name in ["a,b", "a/b", ""] {
            #expect(throws: PNStatus.self) { try NameValidation.check([name], kind: "channel", operation: .subscribe) }
        }
        #expect(throws: Never.self) { try NameValidation.check(["a.b-c_d~é"], kind: "channel", operation: .subscribe) }
    }

}
