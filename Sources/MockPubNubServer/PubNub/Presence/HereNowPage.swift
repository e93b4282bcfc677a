// SPDX-License-Identifier: MIT

/// The page of each channel's occupant list a here now answers with (`limit`, `offset`; pure).
///
/// As the service documents it: at most `limit` occupants per channel (default and maximum
/// 1000), after skipping the first `offset` (zero-based, default 0) in the list's order (the
/// mock's: by uuid); `occupancy` and `total_occupancy` always count every occupant. `limit=0`
/// is the count-only mode: no `uuids` at all, as with `disable_uuids=1`. UNVERIFIED: a `limit`
/// above 1000 is served as 1000 (the service's answer to one is not recorded), and the offset
/// applies to each channel's list on its own.
struct HereNowPage: Sendable, Hashable {
    static let defaultLimit = 1_000
    static let maximumLimit = 1_000

    var limit: Int
    var offset: Int

    init(limit: Int = HereNowPage.defaultLimit, offset: Int = 0) {
        self.limit = min(max(limit, 0), Self.maximumLimit)
        self.offset = max(offset, 0)
    }

    /// Reads `limit` and `offset` (validated as non-negative integers before; an empty value is absent).
    init(_ route: PubNubRoute) {
        func value(_ name: String) -> Int? {
            guard let text = route.query[name], !text.isEmpty else { return nil }
            return Int(text) ?? Int.max  // more digits than an Int holds: larger than every list
        }
        self.init(limit: value("limit") ?? Self.defaultLimit, offset: value("offset") ?? 0)
    }

    /// Whether the answer lists occupants at all.
    var listsOccupants: Bool { limit > 0 }

    /// The occupants on this page.
    func occupants(_ all: [String]) -> ArraySlice<String> {
        all.dropFirst(offset).prefix(limit)
    }
}
