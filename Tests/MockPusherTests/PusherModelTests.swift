// SPDX-License-Identifier: MIT
import MockPusher
import HarnessTesting
import Testing

/// Seeded random sequences of connects, subscribes, unsubscribes and closes, checked after every
/// step against a plain model: occupancy, subscription counts, presence users and the webhooks of
/// occupancy and membership.
@Suite("Pusher core against a model", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherModelTests {
    private struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// connection number → (channel → presence user id or "")
    private typealias Model = [UInt64: [String: String]]

    private static let channels = ["a", "private-b", "presence-c", "presence-d"]

    private func users(in channel: String, _ model: Model) -> Set<String> {
        Set(model.values.compactMap { $0[channel] })
    }

    private func subscribers(of channel: String, _ model: Model) -> Int { model.values.filter { $0[channel] != nil }.count }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func randomSequencesKeepTheCoreConsistentWithTheModel(seed: UInt64) async throws {
        // Seconds of computing: on a thread of its own, not one of the test pool's few.
        try await offThePool { try checkRandomSequence(seed: seed) }
    }

    /// One seeded random sequence of connects, subscribes, unsubscribes and closes, checked
    /// against the model after every step.
    func checkRandomSequence(seed: UInt64) throws {
        let bed = PusherTestBed(seed: seed)
        var random = Random(state: seed)
        var model: Model = [:]
        for _ in 0..<400 {
            let number = UInt64(1 + random.next(8))
            let channel = Self.channels[random.next(Self.channels.count)]
            let before = model
            var actions: [PusherAction] = []
            switch random.next(10) {
            case 0:
                actions = bed.core.handle(.closed(PusherConnectionID(number), now: bed.now))
                model[number] = nil
            case 1, 2:
                // A connected input for an open connection id starts it afresh (its subscriptions are left).
                let query = [PusherQueryItem("protocol", "7")]
                actions = bed.core.handle(.connected(PusherConnectionID(number), appKey: docApp.key, query: query, now: bed.now))
                model[number] = [:]
            case 3:
                guard model[number] != nil else { continue }
                actions = bed.send(number, #"{"event":"pusher:unsubscribe","data":{"channel":"\#(channel)"}}"#)
                model[number]?[channel] = nil
            default:
                guard model[number] != nil else { continue }
                let user = "u\(random.next(3))"
                let isPresence = channel.hasPrefix("presence-")
                actions = bed.subscribe(number, channel, channelData: isPresence ? #"{"user_id":"\#(user)"}"# : nil)
                if model[number]?[channel] == nil { model[number]?[channel] = isPresence ? user : "" }
            }
            let hooks = Set(webhooks(actions))
            for name in Self.channels {
                let wasOccupied = subscribers(of: name, before) > 0
                let isOccupied = subscribers(of: name, model) > 0
                #expect(hooks.contains(.channelOccupied(channel: name)) == (!wasOccupied && isOccupied))
                #expect(hooks.contains(.channelVacated(channel: name)) == (wasOccupied && !isOccupied))
                let info = try bed.core.channelInfo(appID: "3", channel: name, now: bed.now)
                #expect(info.occupied == isOccupied)
                #expect(info.subscriptionCount == subscribers(of: name, model))
                guard name.hasPrefix("presence-") else { continue }
                let oldUsers = users(in: name, before)
                let newUsers = users(in: name, model)
                #expect(Set(try bed.core.users(appID: "3", channel: name)) == newUsers)
                for user in newUsers.subtracting(oldUsers) { #expect(hooks.contains(.memberAdded(channel: name, userID: user))) }
                for user in oldUsers.subtracting(newUsers) { #expect(hooks.contains(.memberRemoved(channel: name, userID: user))) }
                #expect(hooks.filter { if case .memberAdded(name, _) = $0 { true } else { false } }.count == newUsers.subtracting(oldUsers).count)
            }
            #expect(bed.core.connectionCount == model.count)
        }
    }
}
