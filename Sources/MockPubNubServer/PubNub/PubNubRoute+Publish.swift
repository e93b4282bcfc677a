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
    /// `HTTPRequest.decode(piece, plusAsSpace: false)`: the same string (see `decoded`).
    static func text(_ piece: UnsafeBufferPointer<UInt8>) -> String? {
        decoded(piece, plusAsSpace: false)
    }

    /// `HTTPRequest.decode(piece, plusAsSpace: true)` for a query name or value: the same string.
    static func queryText(_ piece: UnsafeBufferPointer<UInt8>) -> String? {
        decoded(piece, plusAsSpace: true)
    }

    /// `HTTPRequest.decode(piece, plusAsSpace:)`: the same string. A piece of up to 15 bytes
    /// whose decoded bytes are ASCII is decoded straight into a small string
    /// (`String(unsafeUninitializedCapacity:)`, no scratch copy and no UTF-8 repair pass), its
    /// plain start a word at a time (`plainPrefix`); any other piece, or one with a malformed
    /// escape, is decoded the general way.
    static func decoded(_ piece: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> String? {
        guard piece.count <= 15, let base = piece.baseAddress else {
            return HTTPRequest.decode(piece, plusAsSpace: plusAsSpace)
        }
        var settled = true
        let text = String(unsafeUninitializedCapacity: piece.count) { buffer in
            var index = plainPrefix(piece, plusAsSpace: plusAsSpace, to: buffer)
            var count = index
            while index < piece.count {
                var byte = base[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < piece.count, let high = hexValue(base[index + 1]), let low = hexValue(base[index + 2])
                    else {
                        settled = false
                        return 0
                    }
                    byte = high << 4 | low
                    index += 3
                } else {
                    if plusAsSpace && byte == UInt8(ascii: "+") { byte = UInt8(ascii: " ") }
                    index += 1
                }
                guard byte < 0x80 else {
                    settled = false
                    return 0
                }
                buffer[count] = byte
                count += 1
            }
            return count
        }
        return settled ? text : HTTPRequest.decode(piece, plusAsSpace: plusAsSpace)
    }

    /// Copies the start of `piece` that decodes to itself (bytes below 0x80, no `%`, no `+` when
    /// `plusAsSpace`) into `buffer`, checked and copied eight bytes at a time, then four; returns
    /// how many bytes it copied (a multiple of four: the rest is decoded byte by byte).
    @inline(__always)
    static func plainPrefix(
        _ piece: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool, to buffer: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        guard let source = piece.baseAddress, let target = buffer.baseAddress else { return 0 }
        var index = 0
        while index + 8 <= piece.count {
            let word = UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self)
            guard plainWord(word, plusAsSpace: plusAsSpace) else { return index }
            UnsafeMutableRawPointer(target + index).storeBytes(of: word, as: UInt64.self)
            index += 8
        }
        if index + 4 <= piece.count {
            let half = UnsafeRawPointer(source + index).loadUnaligned(as: UInt32.self)
            // Widened with four plain bytes (`a`) above, so that the eight-byte test applies.
            guard plainWord(UInt64(half) | 0x6161_6161_0000_0000, plusAsSpace: plusAsSpace) else { return index }
            UnsafeMutableRawPointer(target + index).storeBytes(of: half, as: UInt32.self)
            index += 4
        }
        return index
    }

    /// Whether each of the eight bytes of `word` decodes to itself: below 0x80, not `%` and, with
    /// `plusAsSpace`, not `+`. The `%` and `+` tests are the exact per-byte zero test of the word
    /// xor the byte repeated (no borrow between bytes).
    @inline(__always)
    static func plainWord(_ word: UInt64, plusAsSpace: Bool) -> Bool {
        let high: UInt64 = 0x8080_8080_8080_8080
        var special = zeroBytes(word ^ 0x2525_2525_2525_2525)
        if plusAsSpace { special |= zeroBytes(word ^ 0x2B2B_2B2B_2B2B_2B2B) }
        return (word & high) | special == 0
    }

    /// The top bit of each byte of `word` that is zero, and nothing else.
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word | 0x7F7F_7F7F_7F7F_7F7F)
    }

    /// The value of one hex digit (either case); `nil` for anything else.
    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }

    /// `request.queryItems`: the same items, in order, or `nil` when a piece does not decode
    /// (`queryList` as an array).
    static func queryItems(_ request: HTTPRequest) -> [QueryItem]? {
        queryList(request)?.array
    }

    /// The items of `request.queryItems`, in order, or `nil` when a piece does not decode. Split
    /// by the request's own splitter (`HTTPRequest.forEachQueryPair`), each name and value made by
    /// `queryText`; a query of one item is held without an array.
    static func queryList(_ request: HTTPRequest) -> RouteList<QueryItem>? {
        request.withRawQueryBytes { bytes -> RouteList<QueryItem>? in
            var list: RouteList<QueryItem> = .empty
            var items: [QueryItem] = []
            let complete = HTTPRequest.forEachQueryPair(in: bytes) { nameBytes, valueBytes in
                guard let name = knownName(nameBytes) ?? queryText(nameBytes), let value = queryText(valueBytes)
                else { return false }
                let item = QueryItem(name: name, value: value)
                switch list {
                case .many where items.isEmpty:
                    list = .one(item)
                case .one(let first):
                    // A second item: the list becomes an array, with room for a client's usual few.
                    items.reserveCapacity(8)
                    items.append(first)
                    items.append(item)
                    list = .many([])
                case .many:
                    items.append(item)
                }
                return true
            }
            guard complete else { return nil }
            return items.isEmpty ? list : .many(items)
        }
    }

    /// A query name that publishes carry, spelled exactly so (no escape), as a string literal:
    /// the same string `queryText` makes, without making one. `nil` for any other piece.
    static func knownName(_ piece: UnsafeBufferPointer<UInt8>) -> String? {
        guard (3...5).contains(piece.count) else { return nil }
        var key: UInt64 = 0
        for byte in piece { key = key << 8 | UInt64(byte) }
        switch key {
        case 0x75_75_69_64: return "uuid"
        case 0x70_6E_73_64_6B: return "pnsdk"
        case 0x61_75_74_68: return "auth"
        case PublishParameters.ttlKey: return "ttl"
        case PublishParameters.pttoKey: return "ptto"
        case PublishParameters.metaKey: return "meta"
        case PublishParameters.seqnKey: return "seqn"
        case PublishParameters.storeKey: return "store"
        case PublishParameters.norepKey: return "norep"
        default: return nil
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
        /// Notes a slash at `index`; false after the seventh.
        func note(_ index: Int) -> Bool {
            switch count {
            case 0: starts.0 = index + 1
            case 1: starts.1 = index + 1
            case 2: starts.2 = index + 1
            case 3: starts.3 = index + 1
            case 4: starts.4 = index + 1
            case 5: starts.5 = index + 1
            case 6: starts.6 = index + 1
            default: return false
            }
            count += 1
            return true
        }
        guard let base = path.baseAddress else { return nil }
        // Eight bytes at a time: a byte of `word ^ "////////"` is zero exactly where a slash is
        // (the exact per-byte zero test, no borrow between bytes).
        var index = 0
        while index + 8 <= path.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let other = word ^ 0x2F2F_2F2F_2F2F_2F2F
            var slashes = ~(((other & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | other | 0x7F7F_7F7F_7F7F_7F7F)
            while slashes != 0 {
                guard note(index + slashes.trailingZeroBitCount / 8) else { return nil }
                slashes &= slashes &- 1
            }
            index += 8
        }
        while index < path.count {
            if base[index] == UInt8(ascii: "/") { guard note(index) else { return nil } }
            index += 1
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
        guard (isRead && hasMessage) || (method == "POST" && !hasMessage), let query = queryList(request) else {
            return nil
        }
        return PubNubRoute(
            endpoint: isSignal ? .signal : .publish, subscribeKey: subscribeKey, publishKey: publishKey,
            channelList: .one(channel), channelGroups: PubNubRoute.splitList(firstValue(of: "channel-group", in: query)),
            uuid: firstValue(of: "uuid", in: query), message: message, queryList: query)
    }

    /// `query[name]` (the value of the first item named `name`), looked up here, where the item
    /// type is known (the generic subscript is not specialised across modules).
    private static func firstValue(of name: String, in query: RouteList<QueryItem>) -> String? {
        switch query {
        case .one(let item): return item.name == name ? item.value : nil
        case .many(let items):
            for item in items where item.name == name { return item.value }
            return nil
        }
    }
}
