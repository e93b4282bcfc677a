// SPDX-License-Identifier: MIT

/// The capabilities a case needs, derived from what it uses (pure): the operations its client
/// performs and their fields, the client settings it overrides, the events it expects and the
/// query parameters it checks in the journal. A new suite cannot forget a feature: using it is
/// requiring it. Only the features added since the first driver protocol are derived; the first
/// protocol's capabilities (tls, encryption, presence, …) stay in each case's explicit `requires`.
public enum CapabilityDerivation {
    /// Query parameters a journal check may name, with the feature that sends them.
    static let featureParameters: [String: Capability] = [
        "custom_message_type": .messageTypes,
        "include_custom_message_type": .historyMessageTypes,
        "filter-expr": .filters,
    ]

    /// Everything `testCase` needs: its explicit `requires` and what its use of later features implies.
    public static func required(by testCase: ConformanceCase) -> Set<Capability> {
        testCase.steps.reduce(testCase.requires.union(required(by: testCase.client))) { $0.union(required(by: $1)) }
    }

    /// What client settings need (a filter expression, event-engine settings).
    public static func required(by overrides: ClientOverrides) -> Set<Capability> {
        var needed = Set<Capability>()
        if overrides.filterExpression != nil { needed.insert(.filters) }
        if overrides.eventEngine != nil { needed.insert(.eventEngine) }
        return needed
    }

    /// What one step needs.
    public static func required(by step: CaseStep) -> Set<Capability> {
        switch step {
        case .perform(let operation):
            return required(by: operation)
        case .expectMessages(let messages, _):
            return messages.reduce(into: Set<Capability>()) { $0.formUnion(required(by: $1)) }
        case .expectAppContextEvent:
            return [.objects]
        case .expectMessageAction:
            return [.messageActions]
        case .expectJournal(let expectation, _):
            return required(by: expectation)
        case .serverPublish, .serverRequest, .grant, .issueToken, .setPlan, .wait, .expectStatus, .expectMessageCount,
             .expectNoMoreMessages, .expectPresence, .expectResult, .expectNoStatus:
            // The runner's own requests, and expectations every first-protocol client can meet.
            return []
        case .observerSubscribe, .expectObservedPresence, .expectNoObservedPresence:
            // The observer is the runner's: it asks nothing of the client (cases using it
            // declare `presence`, as what it observes is the client's presence).
            return []
        }
    }

    /// What one client operation needs.
    public static func required(by operation: ClientOperation) -> Set<Capability> {
        switch operation {
        case .publish(_, _, _, _, _, let customMessageType), .signal(_, _, let customMessageType):
            return customMessageType == nil ? [] : [.messageTypes]
        case .subscribe(let channels, _, _, _), .unsubscribe(let channels, _):
            return channels.contains(where: isWildcard) ? [.wildcardSubscribe] : []
        case .fetchMessages(_, _, _, _, let includeCustomMessageType, let includeMessageActions):
            var needed: Set<Capability> = includeCustomMessageType ? [.historyMessageTypes] : []
            if includeMessageActions { needed.insert(.messageActions) }
            return needed
        case .appContext:
            return [.objects]
        case .push:
            return [.push]
        case .messageActions:
            return [.messageActions]
        case .grantToken, .revokeToken, .setToken, .parseToken:
            return [.accessTokens]
        case .disconnect, .reconnect:
            return [.eventEngine]
        case .files(let file):
            switch file {
            case .sendFile(_, _, _, _, _, let customMessageType), .publishFileMessage(_, _, _, _, let customMessageType):
                return customMessageType == nil ? [.files] : [.files, .messageTypes]
            case .listFiles, .getFileURL, .downloadFile, .deleteFile:
                return [.files]
            }
        case .time, .fire, .unsubscribeAll, .hereNow, .whereNow, .setState, .getState, .history, .messageCounts,
             .deleteMessages, .addChannelsToGroup, .removeChannelsFromGroup, .listChannelsInGroup, .deleteGroup, .grant:
            // First-protocol operations, or (fire, grant) operations an older driver answers
            // `unsupported`: the case is skipped then, it never fails for them.
            return []
        }
    }

    /// What an expected delivery needs: a file event, a custom message type, a wildcard subscription.
    static func required(by message: ExpectedMessage) -> Set<Capability> {
        var needed = Set<Capability>()
        if message.isFile { needed.insert(.files) }
        if message.customMessageType != nil { needed.insert(.messageTypes) }
        if message.subscription.map(isWildcard) ?? false { needed.insert(.wildcardSubscribe) }
        return needed
    }

    /// What a journal check needs: the features whose query parameters it names.
    static func required(by expectation: JournalExpectation) -> Set<Capability> {
        let queries: [[String: String]]
        switch expectation {
        case .count(_, let query, _, _): queries = [query]
        case .followedBy(_, let afterQuery, _, let query), .noneAfter(_, let afterQuery, _, let query): queries = [afterQuery, query]
        case .spacing(_, let query, _, _): queries = [query]
        case .cursorReused, .pathContains: queries = []
        }
        return Set(queries.flatMap(\.keys).compactMap { featureParameters[$0] })
    }

    /// Whether a channel name is a wildcard subscription (`a.*`).
    static func isWildcard(_ channel: String) -> Bool { channel.hasSuffix(".*") }
}

extension ConformanceCase {
    /// The capabilities the case needs: `requires` and what its use of later features implies
    /// (``CapabilityDerivation``).
    public var requiredCapabilities: Set<Capability> { CapabilityDerivation.required(by: self) }
}
