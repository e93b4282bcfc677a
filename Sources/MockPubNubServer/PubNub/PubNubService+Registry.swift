// SPDX-License-Identifier: MIT

extension PubNubService {
    /// Channel registration (spec §8): add, remove channels, list, list groups, delete group.
    func channelGroup(_ route: PubNubRoute) -> HTTPResponse {
        guard (route.channels + route.channelGroups).allSatisfy(ChannelNames.isValid) else {
            return PubNubErrors.reservedCharacter()
        }
        let group = route.channelGroups.first ?? ""
        return withState(route.subscribeKey ?? "") { state, _, env in
            switch route.endpoint {
            case .channelGroupListGroups:
                if let denied = subkeyDenial(.manage, route: route, state: state, env: env) { return denied }
                // The live service lists no group here, even right after one was created (recorded
                // 2020): the listing without a namespace answers an empty `groups`.
                return .pubNub(200, PubNubBodies.channelGroupListGroups([]))
            case .channelGroupList:
                if let denied = denial(.read, channels: [], groups: [group], route: route, state: state, env: env) { return denied }
                return .pubNub(200, PubNubBodies.channelGroupList(group: group, channels: state.groups[group] ?? []))
            default:
                if let denied = denial(.manage, channels: [], groups: [group], route: route, state: state, env: env) { return denied }
            }
            switch route.endpoint {
            case .channelGroupAdd:
                state.addChannels(route.channels, to: group)
            case .channelGroupRemoveChannels:
                state.removeChannels(route.channels, from: group)
            default:
                state.deleteGroup(group)
            }
            return .pubNub(200, PubNubBodies.channelRegistryOK, .json)
        }
    }

    /// Access Manager grant v2 (spec §9.2): verifies `timestamp` and the v2 signature, stores the
    /// grants per target and auth key, answers with the level-specific payload.
    /// The refusal of an Access Manager v2 call (grant, audit) whose `timestamp` is missing or
    /// outside the window, or whose v2 signature does not match; `nil` when it is signed right.
    func v2SignatureRefusal(_ route: PubNubRoute, request: HTTPRequest, keyset: Keyset, now: Int64) -> HTTPResponse? {
        let window = configuration.pamTimestampWindow.components.seconds
        guard let stamp = route.query["timestamp"].flatMap({ Int64($0) }), stamp >= 0, stamp < 100_000_000_000,
            abs(now - stamp) <= window
        else {
            // UNVERIFIED wording for a missing or skewed timestamp.
            return PubNubErrors.accessManager(403, "Invalid Timestamp")
        }
        let body = request.method == "POST" ? String(decoding: request.body, as: UTF8.self) : ""
        let input = RequestSignature.input(
            method: request.method, publishKey: keyset.publishKey, path: request.rawPath, query: route.query, body: body)
        guard route.query["signature"] == RequestSignature.sign(input, secret: keyset.secretKey) else {
            // UNVERIFIED wording, as chosen in docs/endpoints.md.
            return PubNubErrors.accessManager(403, "Signature Does Not Match")
        }
        return nil
    }

    /// The keyset of an Access Manager v2 call (grant, audit) and the time it was checked at, or
    /// its refusal: the recorded invalid-key body for a key without Access Manager (UNVERIFIED for
    /// a grant), else ``v2SignatureRefusal(_:request:keyset:now:)``.
    func v2SignedKeyset(_ route: PubNubRoute, request: HTTPRequest) -> Result<(keyset: Keyset, now: Int64), V2Refusal> {
        guard let keyset = keyset(for: route.subscribeKey ?? "") else {
            return .failure(V2Refusal(response: PubNubErrors.accessManager(400, "Invalid Subscribe Key")))
        }
        let now = clock.unixSeconds
        if let refusal = v2SignatureRefusal(route, request: request, keyset: keyset, now: now) { return .failure(V2Refusal(response: refusal)) }
        return .success((keyset, now))
    }

    /// The answer refusing an Access Manager v2 call.
    struct V2Refusal: Error {
        let response: HTTPResponse
    }

    func grant(_ route: PubNubRoute, request: HTTPRequest) -> HTTPResponse {
        let subscribeKey = route.subscribeKey ?? ""
        let now: Int64
        switch v2SignedKeyset(route, request: request) {
        case .failure(let refusal): return refusal.response
        case .success(let signed): now = signed.now
        }
        guard case .success(let request) = GrantRequest.parse(route) else {
            // UNVERIFIED wording for a ttl outside 0…525600.
            return PubNubErrors.accessManager(400, "Invalid ttl")
        }
        if request.isAuthOnly { return PubNubErrors.accessManager(400, "Auth-only grants are reserved for future use") }
        let expiresAt: Int64? = request.ttl == 0 ? nil : now + Int64(request.ttl) * 60
        return withState(subscribeKey) { state, _, _ in
            for target in request.targets {
                for auth in request.auths.isEmpty ? [nil] : request.auths.map(Optional.some) {
                    state.grants[GrantKey(target: target, auth: auth)] =
                        GrantRecord(permissions: request.permissions, expiresAt: expiresAt)
                }
            }
            return .pubNub(200, request.responseBody(subscribeKey: subscribeKey), .unquoted)
        }
    }
}
