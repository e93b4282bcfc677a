// SPDX-License-Identifier: MIT

/// A wildcard subscription name (`a.*`, `a.b.*`, and their presence form `a.*-pnpres`), spec §5.
///
/// Rules (docs): the `*` only ends the name, after a `.`; at most two dots (`a.b.c.*` is
/// refused); `*` alone and `a.*.b` are refused. `a.*` matches every channel that starts with
/// `a.`, at any depth (INFERRED: the docs do not say whether `a.*` reaches `a.b.c`).
struct WildcardPattern: Sendable, Hashable {
    /// The name as subscribed (`a.*` or `a.*-pnpres`).
    var name: String
    /// What a matching channel starts with (`a.`).
    var prefix: String
    /// Whether it reads the presence channels (`a.*-pnpres`).
    var isPresence: Bool

    /// The most dots a wildcard name may have.
    static let maxDots = 2

    /// The pattern of `name`, or `nil` when `name` has no `*`.
    static func parse(_ name: String) -> Result<WildcardPattern, WildcardError>? {
        guard name.contains("*") else { return nil }
        let isPresence = ChannelNames.isPresence(name)
        let base = ChannelNames.base(name)
        guard base.hasSuffix(".*"), base.count > 2 else { return .failure(.invalid(name)) }
        let prefix = String(base.dropLast())
        guard !prefix.contains("*"), !prefix.hasPrefix("."), !prefix.contains("..") else { return .failure(.invalid(name)) }
        guard prefix.filter({ $0 == "." }).count <= maxDots else { return .failure(.tooDeep(name)) }
        return .success(WildcardPattern(name: name, prefix: prefix, isPresence: isPresence))
    }

    /// Whether a message on `channel` reaches this subscription.
    func matches(_ channel: String) -> Bool {
        guard ChannelNames.isPresence(channel) == isPresence else { return false }
        let base = isPresence ? ChannelNames.base(channel) : channel
        return base.count > prefix.count && base.hasPrefix(prefix) && !base.contains("*")
    }

    /// The wildcard names (as subscribed) that could match `channel`: one per dot in it, at
    /// most `maxDots` deep (`a.b.c` → `a.*`, `a.b.*`; `a.b.c-pnpres` → `a.*-pnpres`, `a.b.*-pnpres`).
    static func candidates(for channel: String) -> [String] {
        let presence = ChannelNames.isPresence(channel)
        let base = presence ? ChannelNames.base(channel) : channel
        let suffix = presence ? ChannelNames.presenceSuffix : ""
        var names: [String] = []
        var dots = 0
        var index = base.startIndex
        while index < base.endIndex, dots < maxDots {
            if base[index] == "." {
                dots += 1
                names.append(String(base[...index]) + "*" + suffix)
            }
            index = base.index(after: index)
        }
        return names
    }
}

/// Why a wildcard name is refused.
enum WildcardError: Error, Hashable {
    case invalid(String)
    case tooDeep(String)
}
