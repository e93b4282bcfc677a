// SPDX-License-Identifier: MIT

extension PubNubService {
    /// Checks the channel and group names of a subscribe, heartbeat or leave: wildcard channel
    /// names (`a.*`) are accepted when the key's Stream Controller feature is on; any other `*`,
    /// and wildcard groups, are refused with the reserved-character 400 (UNVERIFIED: the live
    /// answer to an invalid wildcard is not recorded). Returns the wildcards among the channels.
    func subscribeNames(_ route: PubNubRoute) -> Result<[WildcardPattern], SubscribeNameRefusal> {
        guard route.channelGroups.allSatisfy(ChannelNames.isValid) else { return .failure(SubscribeNameRefusal()) }
        let wildcardsOn = configuration.features(for: route.subscribeKey ?? "").wildcardSubscribe
        var patterns: [WildcardPattern] = []
        for channel in route.channels {
            switch WildcardPattern.parse(channel) {
            case nil:
                guard ChannelNames.isValid(channel) else { return .failure(SubscribeNameRefusal()) }
            case .success(let pattern)?:
                guard wildcardsOn, ChannelNames.isValid(pattern.prefix) else { return .failure(SubscribeNameRefusal()) }
                patterns.append(pattern)
            case .failure?:
                return .failure(SubscribeNameRefusal())
            }
        }
        return .success(patterns)
    }

    /// The subscriber's filter: `nil` without `filter-expr`; a failure (the 481 answer) when
    /// the expression cannot be parsed and the key's feature says `reject`.
    func subscribeFilter(_ route: PubNubRoute) -> Result<SubscriptionFilter?, FilterRefusal> {
        guard let text = route.query["filter-expr"], !text.isEmpty else { return .success(nil) }
        do {
            return .success(SubscriptionFilter(text: text, expression: try FilterParser.parse(text)))
        } catch {
            switch configuration.features(for: route.subscribeKey ?? "").invalidFilter {
            case .reject: return .failure(FilterRefusal(error: error))
            case .matchNothing: return .success(.nothing)
            }
        }
    }
}

/// A subscribe, heartbeat or leave naming a channel or group the key cannot serve.
struct SubscribeNameRefusal: Error, Hashable {}

/// A subscribe whose `filter-expr` cannot be parsed.
struct FilterRefusal: Error, Hashable {
    var error: FilterParseError
}
