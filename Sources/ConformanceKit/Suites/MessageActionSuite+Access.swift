// SPDX-License-Identifier: MIT

/// Access Manager rights on message actions (docs/endpoints.md, Access Manager table): add needs
/// `w`, get needs `r`, remove needs `d` on the channel.
extension MessageActionSuite {
    static var access: [ConformanceCase] {
        let authKey = "auth-ma"
        let client = ClientOverrides(authKey: authKey)
        let needs: Set<Capability> = [.accessManager]
        let denied = CaseStep.expectResult(ExpectedResult(category: .some(.accessDenied), isError: true, statusCode: 403))
        // Access Manager is checked before the action is looked at: any timetoken will do.
        let someTimetoken = "17000000000000000"
        let addSome = CaseStep.perform(.messageActions(.add(channel: channel, messageTimetoken: someTimetoken, type: "reaction", value: "smile")))
        let removeFirst = CaseStep.perform(.messageActions(.remove(channel: channel, messageTimetoken: "{message.1}",
                                                                     actionTimetoken: "{action.1}")))
        return [
            ConformanceCase(
                "message-actions.pam.denied", "Without a grant, add, get and remove are denied with PNAccessDeniedCategory (HTTP 403)",
                spec: "§9.1", client: client,
                steps: [addSome, denied, get(), denied,
                        .perform(.messageActions(.remove(channel: channel, messageTimetoken: someTimetoken, actionTimetoken: someTimetoken))),
                        denied,
                        .expectJournal(.count(endpoint: "remove-message-action", query: ["auth": authKey], atLeast: 1), withinMs: 0)],
                expected: [.accessDenied], timeBudget: budget, requires: needs, accessManager: true),
            ConformanceCase(
                "message-actions.pam.add-needs-write", "A read-only grant admits listing actions but denies adding one",
                spec: "§9.2", client: client,
                steps: [.grant(Grant(channels: [channel], authKey: authKey, write: false)), get(), page([]), addSome, denied,
                        .expectJournal(.count(endpoint: "add-message-action", query: ["auth": authKey], atLeast: 1), withinMs: 0)],
                expected: [.accessDenied], timeBudget: budget, requires: needs, accessManager: true),
            ConformanceCase(
                "message-actions.pam.remove-needs-delete", "Read and write admit adding but not removing; a grant with delete admits the removal",
                spec: "§9.2", client: client,
                steps: [.grant(Grant(channels: [channel], authKey: authKey))] + publish("guarded") + add("reaction", "smile", to: 1)
                    + [removeFirst, denied,
                       .grant(Grant(channels: [channel], authKey: authKey, delete: true)), removeFirst, ack, get(), page([])],
                expected: [.acknowledgment, .accessDenied], timeBudget: budget, requires: needs, accessManager: true),
        ]
    }
}
