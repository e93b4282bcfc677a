// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct FaultPlannerTests {
    private let subscribe = "/v2/subscribe/sk/ch1,ch2/0?tt=15&tr=3&channel-group=g1&uuid=alice"
    private let handshake = "/v2/subscribe/sk/ch1/0?tt=0&uuid=alice"
    private let publish = "/publish/pk/sk/0/ch1/0/%22hi%22?uuid=bob"

    private func planner(_ rules: [FaultRule], seed: UInt64 = 42) -> FaultPlanner {
        FaultPlanner(plan: FaultPlan(seed: seed, rules: rules), fallbackSeed: 0)
    }

    private func fires(_ match: RequestMatch, _ method: String = "GET", _ target: String) throws -> Bool {
        var p = planner([FaultRule(id: "r", match: match, fault: .hang)])
        return p.decide(try FaultFixtures.route(method, target), method: method) != .passThrough
    }

    @Test func endpointMatchesOneOrSeveral() throws {
        #expect(try fires(RequestMatch(endpoints: [.subscribe]), "GET", subscribe))
        #expect(try !fires(RequestMatch(endpoints: [.subscribe]), "GET", publish))
        #expect(try fires(RequestMatch(endpoints: [.time, .publish]), "GET", publish))
    }

    @Test func methodMatchesCaseInsensitively() throws {
        #expect(try fires(RequestMatch(method: "POST"), "POST", "/publish/pk/sk/0/ch1/0"))
        #expect(try !fires(RequestMatch(method: "POST"), "GET", publish))
        #expect(try fires(RequestMatch(method: "get"), "GET", publish))
    }

    @Test func channelGroupAndUUIDMatchAnyListedName() throws {
        #expect(try fires(RequestMatch(channel: "ch2"), "GET", subscribe))
        #expect(try !fires(RequestMatch(channel: "ch3"), "GET", subscribe))
        #expect(try fires(RequestMatch(channelGroup: "g1"), "GET", subscribe))
        #expect(try !fires(RequestMatch(channelGroup: "g2"), "GET", subscribe))
        #expect(try fires(RequestMatch(uuid: "alice"), "GET", subscribe))
        #expect(try !fires(RequestMatch(uuid: "bob"), "GET", subscribe))
    }

    @Test func queryPatterns() throws {
        func q(_ name: String, _ pattern: String) -> RequestMatch {
            RequestMatch(query: [QueryCondition(name: name, pattern: pattern)])
        }
        #expect(try fires(q("tt", "15"), "GET", subscribe))
        #expect(try !fires(q("tt", "16"), "GET", subscribe))
        #expect(try fires(q("tt", "*"), "GET", subscribe))
        #expect(try !fires(q("heartbeat", "*"), "GET", subscribe))
        #expect(try fires(q("heartbeat", "!"), "GET", subscribe))
        #expect(try !fires(q("tt", "!"), "GET", subscribe))
        #expect(try fires(q("tt", "!0"), "GET", subscribe))
        #expect(try !fires(q("tt", "!0"), "GET", handshake))
        #expect(try !fires(q("tt", "!0"), "GET", "/v2/subscribe/sk/ch1/0?uuid=a"))  // absent tt is a handshake too
        #expect(try fires(q("uuid", "=alice"), "GET", subscribe))
        #expect(QueryCondition(name: "x", pattern: "=!v").expectation == .equal("!v"))
        #expect(QueryCondition(name: "x", expectation: .equal("*")).pattern == "=*")
    }

    @Test func nthFiresOnlyOnThatMatchingRequest() throws {
        var p = planner([FaultRule(id: "third", match: RequestMatch(endpoints: [.publish]), nth: 3, fault: .hang)])
        let pub = try FaultFixtures.route("GET", publish)
        let sub = try FaultFixtures.route("GET", subscribe)
        var fired: [Bool] = []
        for index in 0..<6 {
            _ = p.decide(sub, method: "GET")  // never counts for this rule
            fired.append(p.decide(pub, method: "GET") != .passThrough)
            #expect(p.counters[0].matched == index + 1)
        }
        #expect(fired == [false, false, true, false, false, false])
        #expect(p.counters[0] == RuleCounter(matched: 6, fired: 1))
    }

    @Test func afterAndTimesGiveFailNThenSucceed() throws {
        var p = planner([FaultRule(id: "r", after: 1, times: 2, fault: .reset)])
        let pub = try FaultFixtures.route("GET", publish)
        let decisions = (0..<5).map { _ in p.decide(pub, method: "GET").firedRule?.matchNumber }
        #expect(decisions == [nil, 2, 3, nil, nil])
    }

    @Test func firstEligibleRuleWinsAndEveryMatchingRuleCounts() throws {
        var p = planner([
            FaultRule(id: "once", times: 1, fault: .close),
            FaultRule(id: "second-match", nth: 2, fault: .reset),
        ])
        let pub = try FaultFixtures.route("GET", publish)
        #expect(p.decide(pub, method: "GET").firedRule?.ruleID == "once")
        let second = try #require(p.decide(pub, method: "GET").firedRule)
        #expect(second.ruleID == "second-match")
        #expect(second.ruleIndex == 1)
        #expect(second.fault == .reset)
        #expect(p.decide(pub, method: "GET") == .passThrough)
        #expect(p.counters == [RuleCounter(matched: 3, fired: 1), RuleCounter(matched: 3, fired: 1)])
    }

    @Test func probabilityIsReproducibleFromTheSeed() throws {
        let pub = try FaultFixtures.route("GET", publish)
        func run(seed: UInt64) -> [Double?] {
            var p = planner([FaultRule(id: "p", probability: 0.5, fault: .hang)], seed: seed)
            return (0..<64).map { _ in p.decide(pub, method: "GET").firedRule?.draw }
        }
        let first = run(seed: 1234)
        #expect(first == run(seed: 1234))
        #expect(first != run(seed: 1235))
        let firedCount = first.compactMap { $0 }.count
        #expect(firedCount > 16 && firedCount < 48)
        // The draws that fired are exactly the generator's values below 0.5, in order.
        var random = FaultRandom(seed: 1234)
        let expected = (0..<64).map { _ -> Double? in
            let draw = random.nextUnit()
            return draw < 0.5 ? draw : nil
        }
        #expect(first == expected)
    }

    @Test func probabilityBoundsAndFallbackSeed() throws {
        let pub = try FaultFixtures.route("GET", publish)
        var never = planner([FaultRule(id: "p", probability: 0, fault: .hang)])
        var always = planner([FaultRule(id: "p", probability: 1, fault: .hang)])
        #expect((0..<20).allSatisfy { _ in never.decide(pub, method: "GET") == .passThrough })
        #expect((0..<20).allSatisfy { _ in always.decide(pub, method: "GET") != .passThrough })
        #expect(FaultPlanner(plan: FaultPlan(rules: []), fallbackSeed: 99).seed == 99)
        #expect(FaultPlanner(plan: FaultPlan(seed: 5, rules: []), fallbackSeed: 99).seed == 5)
    }

    @Test func splitMix64KnownSequence() {
        var random = FaultRandom(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(random.next() == 0x06C4_5D18_8009_454F)
    }
}
