// SPDX-License-Identifier: MIT

extension PubNubRoute {
    /// The most frequent request, `GET /publish/{pub}/{sub}/0/{channel}/0/{message}` (and its
    /// POST and signal forms), classified on the path's bytes: only the segments the route keeps
    /// become strings, and no array of segments is built.
    ///
    /// Returns `nil` whenever `classify`'s general path has to decide: another path, a method
    /// the endpoint refuses, a segment or query that does not decode. What it returns is the
    /// route the general path builds for the same request.
    static func classifyPublish(_ request: HTTPRequest) -> PubNubRoute? {
        request.withRawPathBytes { PublishPath.route($0, request: request) }
    }
}

/// The parsing of a `/publish/…` or `/signal/…` path.
enum PublishPath {
    /// `HTTPRequest.decode(piece, plusAsSpace: false)`: the same string. A piece of up to 15
    /// bytes without `%` becomes a small string directly, which is validated only when it is not
    /// ASCII (`String(unsafeUninitializedCapacity:)`), not by the general UTF-8 decoding.
    static func text(_ piece: UnsafeBufferPointer<UInt8>) -> String? {
        guard piece.count <= 15, let base = piece.baseAddress, !piece.contains(UInt8(ascii: "%")) else {
            return HTTPRequest.decode(piece, plusAsSpace: false)
        }
        return String(unsafeUninitializedCapacity: piece.count) { buffer in
            buffer.baseAddress!.initialize(from: base, count: piece.count)
            return piece.count
        }
    }

    /// The route of `request`, whose raw path is `path`: `/publish/` or `/signal/` (spelled as
    /// such), then five or six segments that all decode, a method the form accepts and a query
    /// that decodes; `nil` otherwise. The decoded pieces go straight into the route.
    static func route(_ path: UnsafeBufferPointer<UInt8>, request: HTTPRequest) -> PubNubRoute? {
        guard path.first == UInt8(ascii: "/") else { return nil }
        // Where the segments start: after each of the six or seven slashes.
        var starts: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)
        var count = 0
        for index in path.indices where path[index] == UInt8(ascii: "/") {
            switch count {
            case 0: starts.0 = index + 1
            case 1: starts.1 = index + 1
            case 2: starts.2 = index + 1
            case 3: starts.3 = index + 1
            case 4: starts.4 = index + 1
            case 5: starts.5 = index + 1
            case 6: starts.6 = index + 1
            default: return nil
            }
            count += 1
        }
        guard count == 6 || count == 7 else { return nil }
        let ends = (starts.1 - 1, starts.2 - 1, starts.3 - 1, starts.4 - 1, starts.5 - 1,
                    count == 7 ? starts.6 - 1 : path.count, path.count)
        func segment(_ start: Int, _ end: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: path[start..<end])
        }
        let first = segment(starts.0, ends.0)
        let isSignal: Bool
        if HTTPRequest.bytes(first, spell: "publish") {
            isSignal = false
        } else if HTTPRequest.bytes(first, spell: "signal") {
            isSignal = true
        } else {
            return nil
        }
        // The segments the route does not keep must decode all the same, as in the general path.
        func decodes(_ unused: UnsafeBufferPointer<UInt8>) -> Bool {
            !unused.contains(UInt8(ascii: "%")) || HTTPRequest.decode(unused, plusAsSpace: false) != nil
        }
        guard decodes(segment(starts.3, ends.3)), decodes(segment(starts.5, ends.5)) else { return nil }
        guard let publishKey = text(segment(starts.1, ends.1)), let subscribeKey = text(segment(starts.2, ends.2)),
            let channel = text(segment(starts.4, ends.4))
        else { return nil }
        let message: String?
        if count == 7 {
            guard let decoded = text(segment(starts.6, ends.6)) else { return nil }
            message = decoded
        } else {
            message = nil
        }
        let method = request.method
        let isRead = method == "GET" || method == "HEAD"
        let hasMessage = message != nil
        guard (isRead && hasMessage) || (method == "POST" && !hasMessage), let query = request.queryItems else {
            return nil
        }
        return PubNubRoute(
            endpoint: isSignal ? .signal : .publish, subscribeKey: subscribeKey, publishKey: publishKey,
            channels: [channel], channelGroups: PubNubRoute.splitList(query["channel-group"]), uuid: query["uuid"],
            message: message, query: query)
    }
}
