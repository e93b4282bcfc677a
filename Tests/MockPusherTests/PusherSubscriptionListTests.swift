// SPDX-License-Identifier: MIT
import MockPusher
import Testing

@Suite("Pusher subscription list")
struct PusherSubscriptionListTests {
    @Test func setReadReplaceAndRemoveByChannel() {
        var list = PusherSubscriptionList()
        #expect(list["a"] == nil)
        #expect(list.channels.isEmpty)
        list["presence-b"] = PusherSubscription(presenceUserID: "u1")
        list["a"] = PusherSubscription(presenceUserID: nil)
        #expect(list["presence-b"] == PusherSubscription(presenceUserID: "u1"))
        #expect(list["a"] == PusherSubscription(presenceUserID: nil))
        #expect(list.channels == ["a", "presence-b"])
        list["presence-b"] = PusherSubscription(presenceUserID: "u2")
        #expect(list["presence-b"]?.presenceUserID == "u2")
        #expect(list.channels == ["a", "presence-b"])
        list["a"] = nil
        list["never-there"] = nil
        #expect(list["a"] == nil)
        #expect(list.channels == ["presence-b"])
    }
}
