// SPDX-License-Identifier: MIT
import MockPusher
import Testing

@Suite("Pusher webhook events and paths", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherWebhookEventTests {
    @Test func eventsRenderWithTheDocumentedFields() {
        #expect(PusherWebhookEvent.channelOccupied(channel: "c").json.jsonText == #"{"name":"channel_occupied","channel":"c"}"#)
        #expect(PusherWebhookEvent.channelVacated(channel: "c").json.jsonText == #"{"name":"channel_vacated","channel":"c"}"#)
        #expect(PusherWebhookEvent.memberAdded(channel: "presence-c", userID: "u").json.jsonText == #"{"name":"member_added","channel":"presence-c","user_id":"u"}"#)
        #expect(PusherWebhookEvent.memberRemoved(channel: "presence-c", userID: "u").json.jsonText == #"{"name":"member_removed","channel":"presence-c","user_id":"u"}"#)
        #expect(
            PusherWebhookEvent.clientEvent(channel: "private-c", event: "client-x", data: #"{"a":1}"#, socketID: "1.2", userID: nil).json.jsonText
                == #"{"name":"client_event","channel":"private-c","event":"client-x","data":"{\"a\":1}","socket_id":"1.2"}"#)
        #expect(
            PusherWebhookEvent.clientEvent(channel: "presence-c", event: "client-x", data: "d", socketID: "1.2", userID: "u").json.jsonText
                == #"{"name":"client_event","channel":"presence-c","event":"client-x","data":"d","socket_id":"1.2","user_id":"u"}"#)
        #expect(PusherWebhookEvent.cacheMiss(channel: "cache-c").json.jsonText == #"{"name":"cache_miss","channel":"cache-c"}"#)
        #expect(PusherWebhookEvent.subscriptionCount(channel: "c", count: 3).json.jsonText == #"{"name":"subscription_count","channel":"c","subscription_count":3}"#)
    }

    @Test func appKeyComesFromTheAppPathOnly() {
        #expect(PusherPath.appKey(fromPath: "/app/278d425bdf160c739803") == "278d425bdf160c739803")
        #expect(PusherPath.appKey(fromPath: "/app/") == nil)
        #expect(PusherPath.appKey(fromPath: "/apps/3/events") == nil)
        #expect(PusherPath.appKey(fromPath: "/app/k/extra") == nil)
    }
}
