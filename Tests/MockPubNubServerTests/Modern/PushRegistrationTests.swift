// SPDX-License-Identifier: MIT
import Synchronization
import Testing
@testable import MockPubNubServer

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct PushRegistrationTests {
    private let v1 = "/v1/push/sub-key/demo/devices/"
    private let v2 = "/v2/push/sub-key/demo/devices-apns2/"

    @Test func v1AddListRemoveAndRemoveDevice() {
        let h = ServiceHarness()
        #expect(h.call(v1 + "00ff?add=b,a,c&type=apns&uuid=u") == (200, "[1, \"Modified Channels\"]"))
        #expect(h.call(v1 + "00ff?type=apns") == (200, "[\"a\", \"b\", \"c\"]"))
        #expect(h.call(v1 + "00ff?remove=b&type=apns") == (200, "[1, \"Modified Channels\"]"))
        #expect(h.call(v1 + "00ff?type=apns") == (200, "[\"a\", \"c\"]"))
        #expect(h.call(v1 + "00ff/remove?type=apns") == (200, "[1, \"Removed Device\"]"))
        #expect(h.call(v1 + "00ff?type=apns") == (200, "[]"))
    }

    @Test func registrationsAreIsolatedPerTokenAndGateway() {
        let h = ServiceHarness()
        h.call(v1 + "aaaa?add=one,shared&type=apns")
        h.call(v1 + "bbbb?add=two,shared&type=apns")
        h.call(v1 + "aaaa?add=three&type=fcm")
        #expect(h.call(v1 + "bbbb?type=apns") == (200, "[\"shared\", \"two\"]"))
        #expect(h.call(v1 + "aaaa?type=fcm") == (200, "[\"three\"]"))
        #expect(h.call(v1 + "aaaa?type=gcm") == (200, "[]"))
        h.call(v1 + "aaaa/remove?type=apns")
        #expect(h.call(v1 + "bbbb?type=apns") == (200, "[\"shared\", \"two\"]"))
        #expect(h.call(v1 + "aaaa?type=fcm") == (200, "[\"three\"]"))
    }

    @Test func apns2IsSeparatePerTopicAndEnvironment() {
        let h = ServiceHarness()
        #expect(h.call(v2 + "abcd?add=x,y&environment=development&topic=com.app&type=apns2") == (200, "[1, \"Modified Channels\"]"))
        h.call(v2 + "abcd?add=z&environment=production&topic=com.app")
        #expect(h.call(v2 + "abcd?environment=development&topic=com.app") == (200, "[\"x\", \"y\"]"))
        #expect(h.call(v2 + "abcd?environment=production&topic=com.app") == (200, "[\"z\"]"))
        #expect(h.call(v2 + "abcd?topic=com.other") == (200, "[]"))
        #expect(h.call(v1 + "abcd?type=apns") == (200, "[]"))
        #expect(h.call(v2 + "abcd/remove?environment=development&topic=com.app") == (200, "[1, \"Removed Device\"]"))
        #expect(h.call(v2 + "abcd?environment=development&topic=com.app") == (200, "[]"))
        #expect(h.call(v2 + "abcd?environment=production&topic=com.app") == (200, "[\"z\"]"))
    }

    @Test func refusals() {
        let h = ServiceHarness()
        #expect(h.call(v1 + "0000?add=a") == (400, "{\"error\": \"Invalid type argument\"}"))
        #expect(h.call(v1 + "0000?add=a&type=apns2") == (400, "{\"error\": \"Invalid type argument\"}"))
        #expect(h.call(v1 + "0000?add=a&type=bogus") == (400, "{\"error\": \"Invalid type argument\"}"))
        #expect(h.call(v1 + "device_id_not_hex?add=a&type=apns") == (400, "{\"error\": \"Invalid device token\"}"))
        #expect(h.call(v1 + "device_id_not_hex?add=a&type=fcm") == (200, "[1, \"Modified Channels\"]"))
        #expect(h.call(v2 + "0000?add=a&environment=development") == (400, "{\"error\": \"Missing topic\"}"))
        #expect(h.call(v2 + "0000?add=a&topic=t&environment=staging") == (400, "{\"error\": \"Invalid environment\"}"))
        #expect(h.call(v1 + "0000?add=a*b&type=apns") == (400, "{\"error\": \"Invalid channel name\"}"))
        #expect(h.call(v1 + "0000/extra?type=apns").0 == 404)
        #expect(h.call(v1 + "0000?type=apns", method: "POST").0 == 404)
    }

    @Test func routeNamesThePushEndpointAndDevice() throws {
        let route = try PubNubRoute.classify(HTTPRequest(method: "GET", target: v2 + "ab%20cd/remove?topic=t")).get()
        #expect(route.endpoint == .push)
        #expect(route.subscribeKey == "demo")
        #expect(route.push == PushRequest(token: "ab cd", isAPNs2: true, removesDevice: true))
        let add = try PubNubRoute.classify(HTTPRequest(method: "GET", target: v1 + "00?add=a,b&type=gcm")).get()
        #expect(add.channels == ["a", "b"])
        #expect(add.push?.isAPNs2 == false)
    }

    @Test func publishWithPushPayloadRaisesNoticesForRegisteredDevices() {
        let h = ServiceHarness()
        let seen = NoticeBox()
        h.service.pushObserver.withLock { $0 = { notices in seen.append(notices) } }
        h.call(v1 + "aa11?add=news&type=apns")
        h.call(v1 + "tok-fcm?add=news&type=fcm")
        h.call(v2 + "bb22?add=news&topic=com.app&environment=production")
        h.publish("news", "{\"text\":\"plain\"}")
        #expect(seen.all.isEmpty)
        h.publish("other", "{\"pn_apns\":{\"aps\":{\"alert\":\"hi\"}}}")
        #expect(seen.all.isEmpty)
        let tt = h.publish("news", "{\"pn_apns\":{\"aps\":{\"alert\":\"hi\"}},\"pn_fcm\":{\"notification\":{\"title\":\"t\"}}}")
        let notices = seen.all
        #expect(notices.map(\.gateway) == [.apns, .apns2, .fcm])
        #expect(notices.map(\.token) == ["aa11", "bb22", "tok-fcm"])
        #expect(notices.first?.payload == "{\"aps\":{\"alert\":\"hi\"}}")
        #expect(notices.last?.payload == "{\"notification\":{\"title\":\"t\"}}")
        #expect(notices.allSatisfy { String($0.timetoken) == tt && $0.channel == "news" && $0.publisher == "pub" })
        #expect(notices[1].topic == "com.app" && notices[1].environment == "production")
        // Signals never raise pushes.
        h.call("/signal/demo/demo/0/news/0/" + PercentDecoding.encode("{\"pn_apns\":1}"))
        #expect(seen.all.count == 3)
    }
}

/// Collects notices from the service's observer.
final class NoticeBox: Sendable {
    private let notices = Mutex<[PushNotice]>([])
    func append(_ more: [PushNotice]) { notices.withLock { $0 += more } }
    var all: [PushNotice] { notices.withLock { $0 } }
}
