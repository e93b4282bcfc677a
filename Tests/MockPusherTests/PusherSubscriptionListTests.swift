// SPDX-License-Identifier: MIT
import MockPusher
import Testing

@Suite("Pusher subscription list", .timeLimit(.minutes(TestTime.limitMinutes(5))))
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

    @Test func shareTakesAnEqualListAndOtherwiseBecomesTheReference() {
        var reference = PusherSubscriptionList()
        var first = PusherSubscriptionList()
        first["bench"] = PusherSubscription(presenceUserID: nil)
        first.share(with: &reference)
        #expect(reference.channels == ["bench"])
        var second = PusherSubscriptionList()
        second["bench"] = PusherSubscription(presenceUserID: nil)
        second.share(with: &reference)
        #expect(second.channels == ["bench"] && second["bench"] == PusherSubscription(presenceUserID: nil))
        // Another member id is another list: it becomes the reference, the earlier ones keep theirs.
        var member = PusherSubscriptionList()
        member["bench"] = PusherSubscription(presenceUserID: "u1")
        member.share(with: &reference)
        #expect(reference["bench"]?.presenceUserID == "u1")
        #expect(first["bench"]?.presenceUserID == nil && second["bench"]?.presenceUserID == nil)
        // A list that shares storage still changes alone.
        second["other"] = PusherSubscription(presenceUserID: nil)
        #expect(second.channels == ["bench", "other"] && first.channels == ["bench"] && reference.channels == ["bench"])
    }
}
