// SPDX-License-Identifier: MIT

/// Channel groups (spec §8): manage and subscribe.
enum ChannelGroupSuite {
    static var cases: [ConformanceCase] {
        let groups: Set<Capability> = [.channelGroups]
        let add = CaseStep.perform(.addChannelsToGroup(group: "grp", channels: ["ch-a", "ch-b"]))
        let ack = CaseStep.expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false))
        return [
            ConformanceCase(
                "groups.manage.add-list", "Channels added to a group are listed", spec: "§8",
                steps: [add, ack, .perform(.listChannelsInGroup(group: "grp")), .expectResult(.success(["channels": ["ch-a", "ch-b"]]))],
                expected: [.acknowledgment], requires: groups),
            ConformanceCase(
                "groups.manage.remove", "A removed channel is no longer listed", spec: "§8",
                steps: [add, ack, .perform(.removeChannelsFromGroup(group: "grp", channels: ["ch-a"])), ack,
                        .perform(.listChannelsInGroup(group: "grp")), .expectResult(.success(["channels": ["ch-b"]]))],
                expected: [.acknowledgment], requires: groups),
            ConformanceCase(
                "groups.manage.delete", "A deleted group lists no channels", spec: "§8",
                steps: [add, ack, .perform(.deleteGroup(group: "grp")), ack,
                        .perform(.listChannelsInGroup(group: "grp")), .expectResult(.success(["channels": []]))],
                expected: [.acknowledgment], requires: groups),
            ConformanceCase(
                "groups.subscribe.message", "Subscribing to a group delivers its channels' messages with the group as subscription", spec: "§5.4",
                steps: [add, ack, .subscribe([], groups: ["grp"]), .expect(.connected), SubscribeSuite.longPollInFlight,
                        .expectJournal(.count(endpoint: "subscribe", query: ["channel-group": "grp"], atLeast: 1), withinMs: 0),
                        .serverPublish(channel: "ch-b", message: "via group"),
                        .expectMessages([ExpectedMessage(channel: "ch-b", message: "via group", subscription: "grp")], withinMs: 1_000)],
                expected: [.acknowledgment, .connected], requires: groups),
            ConformanceCase(
                "groups.subscribe.channel-and-group", "A channel and a group in one subscribe both deliver", spec: "§5.1",
                steps: [add, ack, .subscribe(["ch-z"], groups: ["grp"]), .expect(.connected), SubscribeSuite.longPollInFlight,
                        .serverPublish(channel: "ch-z", message: "direct"), .expectMessage("ch-z", "direct"),
                        .serverPublish(channel: "ch-a", message: "grouped"), .expectMessage("ch-a", "grouped")],
                expected: [.acknowledgment, .connected], requires: groups),
        ]
    }
}
