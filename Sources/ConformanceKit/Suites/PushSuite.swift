// SPDX-License-Identifier: MIT
import HarnessJSON

/// Mobile push registration (pubnub-modern spec §7): v1 and APNs2 add, remove, list and remove
/// device, isolation per device and gateway, the push a publish would send, and faults.
enum PushSuite {
    static let apns = PushTarget(deviceToken: "a1b2c3d4e5f60718", pushType: "apns")
    static let fcm = PushTarget(deviceToken: "fcm-token-0001", pushType: "fcm")
    static let apns2Dev = PushTarget(deviceToken: "a1b2c3d4e5f60718", pushType: "apns2", topic: "com.example.app", environment: "development")
    static let apns2Prod = PushTarget(deviceToken: "a1b2c3d4e5f60718", pushType: "apns2", topic: "com.example.app", environment: "production")
    static let ack = CaseStep.expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false))

    static func add(_ channels: [String], _ target: PushTarget) -> [CaseStep] {
        [.perform(.push(.addChannels(channels, target))), ack]
    }

    static func list(_ target: PushTarget, _ channels: [String]) -> [CaseStep] {
        [.perform(.push(.listChannels(target))), .expectResult(.success(["channels": .array(channels.map { .string($0) })]))]
    }

    /// The push notice the server journals for a publish it would push (docs/endpoints.md).
    static func notice(_ channel: String, pushType: String, atLeast: Int = 1, atMost: Int? = nil) -> CaseStep {
        .expectJournal(.count(endpoint: "push", query: ["timetoken": "*", "channel": channel, "push_type": pushType],
                              atLeast: atLeast, atMost: atMost), withinMs: 500)
    }

    static var cases: [ConformanceCase] {
        [
            ConformanceCase(
                "push.v1.add-list", "Channels added for an APNs device are listed, sorted", spec: "modern §7",
                steps: add(["p-b", "p-a"], apns) + list(apns, ["p-a", "p-b"])
                    + [.expectJournal(.count(endpoint: "push", query: ["type": "apns", "add": "*"], atLeast: 1), withinMs: 0)],
                expected: [.acknowledgment], timeBudget: .seconds(1)),
            ConformanceCase(
                "push.v1.remove-channels", "A removed channel is no longer listed", spec: "modern §7",
                steps: add(["p-a", "p-b"], apns) + [.perform(.push(.removeChannels(["p-a"], apns))), ack] + list(apns, ["p-b"]),
                expected: [.acknowledgment], timeBudget: .seconds(1)),
            ConformanceCase(
                "push.v1.remove-device", "A removed device lists no channels", spec: "modern §7",
                steps: add(["p-a", "p-b"], apns) + [.perform(.push(.removeDevice(apns))), ack] + list(apns, [])
                    + [.expectJournal(.pathContains(endpoint: "push", substring: "/remove", true), withinMs: 0)],
                expected: [.acknowledgment], timeBudget: .seconds(1)),
            ConformanceCase(
                "push.v1.fcm", "An FCM device registers and lists with type=fcm", spec: "modern §7",
                steps: add(["p-f"], fcm) + list(fcm, ["p-f"])
                    + [.expectJournal(.count(endpoint: "push", query: ["type": "fcm"], atLeast: 2), withinMs: 0)],
                expected: [.acknowledgment], timeBudget: .seconds(1)),
            ConformanceCase(
                "push.v1.isolated-per-gateway", "The same token on another gateway has its own channels", spec: "modern §7",
                steps: add(["p-apns"], apns)
                    + add(["p-fcm"], PushTarget(deviceToken: apns.deviceToken, pushType: "fcm"))
                    + list(apns, ["p-apns"]),
                expected: [.acknowledgment], timeBudget: .seconds(1)),
            ConformanceCase(
                "push.v1.isolated-per-device", "Another device's registrations stay its own", spec: "modern §7",
                steps: add(["p-one", "p-shared"], apns)
                    + add(["p-two", "p-shared"], PushTarget(deviceToken: "ffffeeeeddddcccc", pushType: "apns"))
                    + [.perform(.push(.removeDevice(apns))), ack]
                    + list(PushTarget(deviceToken: "ffffeeeeddddcccc", pushType: "apns"), ["p-shared", "p-two"]),
                expected: [.acknowledgment], timeBudget: .seconds(1)),
            ConformanceCase(
                "push.apns2.add-list", "APNs2 channels are registered with topic and environment", spec: "modern §7",
                steps: add(["p-x", "p-y"], apns2Dev) + list(apns2Dev, ["p-x", "p-y"])
                    + [.expectJournal(.pathContains(endpoint: "push", substring: "/devices-apns2/", true), withinMs: 0),
                       .expectJournal(.count(endpoint: "push", query: ["topic": "com.example.app", "environment": "development"],
                                             atLeast: 2), withinMs: 0)],
                expected: [.acknowledgment], timeBudget: .seconds(1)),
            ConformanceCase(
                "push.apns2.environments-separate", "Development and production registrations are separate", spec: "modern §7",
                steps: add(["p-dev"], apns2Dev) + add(["p-prod"], apns2Prod) + list(apns2Prod, ["p-prod"]) + list(apns2Dev, ["p-dev"]),
                expected: [.acknowledgment], timeBudget: .seconds(1)),
            ConformanceCase(
                "push.apns2.remove-device", "An APNs2 device removed from one environment keeps the other", spec: "modern §7",
                steps: add(["p-dev"], apns2Dev) + add(["p-prod"], apns2Prod) + [.perform(.push(.removeDevice(apns2Dev))), ack]
                    + list(apns2Dev, []) + list(apns2Prod, ["p-prod"]),
                expected: [.acknowledgment], timeBudget: .seconds(1)),
            ConformanceCase(
                "push.notice.apns", "A publish with pn_apns on a registered channel is pushed to the device", spec: "modern §7",
                steps: add(["p-news"], apns)
                    + [.perform(.publish(channel: "p-news", message: ["pn_apns": ["aps": ["alert": "hi"]], "text": "hi"])),
                       .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false)),
                       notice("p-news", pushType: "apns")],
                expected: [.acknowledgment], timeBudget: .seconds(1)),
            ConformanceCase(
                "push.notice.fcm", "A publish with pn_fcm reaches an FCM device, not an APNs one", spec: "modern §7",
                steps: add(["p-news"], fcm) + add(["p-news"], apns)
                    + [.perform(.publish(channel: "p-news", message: ["pn_fcm": ["notification": ["title": "t"]]])),
                       .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false)),
                       notice("p-news", pushType: "fcm"), notice("p-news", pushType: "apns", atLeast: 0, atMost: 0)],
                expected: [.acknowledgment], timeBudget: .seconds(1)),
            ConformanceCase(
                "push.notice.none", "A publish without a push payload, or on another channel, pushes nothing", spec: "modern §7",
                steps: add(["p-news"], apns)
                    + [.perform(.publish(channel: "p-news", message: ["text": "plain"])),
                       .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false)),
                       .perform(.publish(channel: "p-other", message: ["pn_apns": ["aps": ["alert": "x"]]])),
                       .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false)),
                       .expectJournal(.count(endpoint: "push", query: ["timetoken": "*"], atLeast: 0, atMost: 0), withinMs: 0)],
                expected: [.acknowledgment], timeBudget: .seconds(1)),
        ] + faultCases
    }

    /// A few request faults on the push endpoints (any fault kind applies there).
    static var faultCases: [ConformanceCase] {
        let wanted = ["status-500", "malformed-json", "hang", "reset"]
        return FaultCatalog.all.filter { wanted.contains($0.name) }.map { f in
            let plan = PlanBuilder.plan(PlanBuilder.rule(f.name, endpoint: "push", fault: f.fault))
            var steps: [CaseStep] = [.perform(.push(.listChannels(apns)))]
            if let category = f.request {
                steps += [.expect(category, within: 100), .expectResult(ExpectedResult(isError: true))]
            }
            steps.append(.expectJournal(.count(endpoint: "push", atLeast: 1), withinMs: 300))
            return ConformanceCase(
                "push.fault.\(f.name)", "Push channel listing answered with \(f.what) → \(f.request?.rawValue ?? "listed")",
                spec: "modern §7, §11.3", plan: plan, client: FaultSuite.quick, steps: steps,
                expected: [f.request ?? .acknowledgment], alternatives: f.requestAlternatives)
        }
    }
}
