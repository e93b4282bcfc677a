// SPDX-License-Identifier: MIT
import HarnessTesting
import HarnessWebSocket
import MockPusher
import PusherServer
import Testing

/// Dropped and delayed `subscription_succeeded`.
@Suite("Pusher faults: subscription_succeeded", .serialized, .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherSubscriptionFaultTests {
    @Test func droppedForOneChannelOnly() throws {
        try withPusherServer { server in
            try server.installPlan(#"{"rules":[{"fault":{"kind":"drop-subscription-succeeded","channel":"a"}}]}"#)
            let (socket, _) = try server.established()
            // The answer to the second subscription is the next message: the first one's was dropped.
            socket.send(#"{"event":"pusher:subscribe","data":{"channel":"a"}}"#)
            #expect(try socket.subscribe("b") == #"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"b"}"#)
            #expect(try server.service.core.channelInfo(appID: testApp.id, channel: "a", now: server.service.now).occupied)
        }
    }

    @Test func delayedButOtherMessagesAreNotHeld() throws {
        try withPusherServer { server in
            try server.installPlan(#"{"rules":[{"fault":{"kind":"delay-subscription-succeeded","ms":400}}]}"#)
            let (socket, _) = try server.established()
            socket.send(#"{"event":"pusher:subscribe","data":{"channel":"slow"}}"#)
            socket.send(#"{"event":"pusher:ping","data":{}}"#)
            #expect(try socket.nextText() == #"{"event":"pusher:pong","data":"{}"}"#)
            #expect(try socket.nextText() == #"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"slow"}"#)
            // The core counts the subscription at once.
            #expect(try server.service.core.channelInfo(appID: testApp.id, channel: "slow", now: server.service.now).subscriptionCount == 1)
        }
    }

    @Test func aPauseAfterThe101DelaysConnectionEstablished() throws {
        try withPusherServer { server in
            try server.installPlan(#"{"rules":[{"fault":{"kind":"delay","ms":500,"target":"pusher:connection_established"}}]}"#)
            let socket = try server.connect()
            // Nothing within the first 100 ms (it is due at 500 ms), then the message itself.
            #expect(throws: PusherTestSocket.UnexpectedFrame.self) { try socket.nextFrame(timeoutMs: 100) }
            #expect(try socket.nextText(timeoutMs: 5000).hasPrefix(#"{"event":"pusher:connection_established","#))
        }
    }
}
