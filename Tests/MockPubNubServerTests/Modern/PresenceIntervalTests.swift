// SPDX-License-Identifier: MIT
import Testing
@testable import MockPubNubServer

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct PresenceIntervalTests {
    private func harness(max: Int, deltaLimit: Int = 20) -> ServiceHarness {
        var configuration = PubNubServiceConfiguration()
        configuration.features = KeyFeatures(presenceAnnounceMax: max, presenceInterval: 10, presenceDeltaLimit: deltaLimit)
        return ServiceHarness(configuration)
    }

    /// The `d` payloads of the presence envelopes on `ch-pnpres` newer than `after`.
    private func events(_ h: ServiceHarness, after: String) -> String {
        h.call("/v2/subscribe/demo/ch-pnpres/0?tt=\(after)").1
    }

    @Test func aboveTheMaximumChangesAreGatheredIntoIntervalEvents() {
        let h = harness(max: 1)
        let start = String(h.wallTimetoken - 1)
        h.call("/v2/subscribe/demo/ch/0?uuid=u1")
        h.call("/v2/subscribe/demo/ch/0?uuid=u2")
        h.call("/v2/subscribe/demo/ch/0?uuid=u3")
        let announced = events(h, after: start)
        #expect(announced.contains("\"action\":\"join\",\"uuid\":\"u1\""))
        #expect(!announced.contains("\"uuid\":\"u2\"") && !announced.contains("\"uuid\":\"u3\""))
        let cursor = ServiceHarness.cursor(announced)
        h.scheduler.advance(by: .seconds(10))
        let interval = events(h, after: cursor)
        #expect(interval.contains("\"d\":{\"action\":\"interval\",\"timestamp\":"))
        #expect(interval.contains(",\"occupancy\":3,\"join\":[\"u2\",\"u3\"]}"))
        #expect(interval.contains("\"pn_action\":\"interval\""))
        // A leave while above the maximum is gathered too; the next tick reports it.
        h.call("/v2/presence/sub-key/demo/channel/ch/leave?uuid=u1")
        let cursor2 = ServiceHarness.cursor(interval)
        // Nothing is announced before the tick: a poll from the last cursor waits.
        #expect(h.send("/v2/subscribe/demo/ch-pnpres/0?tt=\(cursor2)").actions.isEmpty)
        h.scheduler.advance(by: .seconds(10))
        let next = events(h, after: cursor2)
        #expect(next.contains(",\"occupancy\":2,\"leave\":[\"u1\"]}"))
        #expect(!next.contains("\"action\":\"leave\""))
    }

    @Test func manyChangesAskForAHereNowRefreshAndTheTimerStopsBelowTheMaximum() {
        let h = harness(max: 0, deltaLimit: 2)
        let start = String(h.wallTimetoken - 1)
        for index in 1...3 { h.call("/v2/subscribe/demo/ch/0?uuid=u\(index)") }
        h.scheduler.advance(by: .seconds(10))
        let first = events(h, after: start)
        #expect(first.contains(",\"occupancy\":3,\"here_now_refresh\":true}"))
        for index in 1...3 { h.call("/v2/presence/sub-key/demo/channel/ch/leave?uuid=u\(index)") }
        h.scheduler.advance(by: .seconds(10))
        #expect(events(h, after: ServiceHarness.cursor(first)).contains(",\"occupancy\":0,\"here_now_refresh\":true}"))
        // Nothing above the maximum and nothing gathered: no timer is left.
        #expect(h.scheduler.pending == 0)
    }

    @Test func withoutTheSettingEveryChangeIsAnnounced() {
        let h = ServiceHarness()
        let start = String(h.wallTimetoken - 1)
        for index in 1...3 { h.call("/v2/subscribe/demo/ch/0?uuid=u\(index)&heartbeat=0") }
        let body = events(h, after: start)
        #expect((1...3).allSatisfy { body.contains("\"action\":\"join\",\"uuid\":\"u\($0)\"") })
        #expect(!body.contains("interval"))
    }
}
