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
        guard let parts = request.withRawPathBytes({ PublishPath($0) }) else { return nil }
        let method = request.method
        let isRead = method == "GET" || method == "HEAD"
        let hasMessage = parts.message != nil
        guard (isRead && hasMessage) || (method == "POST" && !hasMessage), let query = request.queryItems else {
            return nil
        }
        return PubNubRoute(
            endpoint: parts.isSignal ? .signal : .publish, subscribeKey: parts.subscribeKey,
            publishKey: parts.publishKey, channels: [parts.channel], channelGroups: splitList(query["channel-group"]),
            uuid: query["uuid"], message: parts.message, query: query)
    }
}

/// The decoded parts of a `/publish/…` or `/signal/…` path.
private struct PublishPath {
    /// Whether `bytes` are exactly the bytes of `word`.
    private static func spells(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let expected = word.utf8Start
        for index in bytes.indices where bytes[index] != expected[index] { return false }
        return true
    }

    var isSignal: Bool
    var publishKey: String
    var subscribeKey: String
    var channel: String
    var message: String?

    /// The parts of `path` (raw bytes): `/publish/` or `/signal/` (spelled as such), then five
    /// or six segments that all decode; `nil` otherwise.
    init?(_ path: UnsafeBufferPointer<UInt8>) {
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
        if Self.spells(first, "publish") {
            isSignal = false
        } else if Self.spells(first, "signal") {
            isSignal = true
        } else {
            return nil
        }
        // The segments the route does not keep must decode all the same, as in the general path.
        func decodes(_ unused: UnsafeBufferPointer<UInt8>) -> Bool {
            !unused.contains(UInt8(ascii: "%")) || HTTPRequest.decode(unused, plusAsSpace: false) != nil
        }
        guard decodes(segment(starts.3, ends.3)), decodes(segment(starts.5, ends.5)) else { return nil }
        guard let publishKey = HTTPRequest.decode(segment(starts.1, ends.1), plusAsSpace: false),
            let subscribeKey = HTTPRequest.decode(segment(starts.2, ends.2), plusAsSpace: false),
            let channel = HTTPRequest.decode(segment(starts.4, ends.4), plusAsSpace: false)
        else { return nil }
        self.publishKey = publishKey
        self.subscribeKey = subscribeKey
        self.channel = channel
        if count == 7 {
            guard let message = HTTPRequest.decode(segment(starts.6, ends.6), plusAsSpace: false) else { return nil }
            self.message = message
        } else {
            message = nil
        }
    }
}
