// SPDX-License-Identifier: MIT

/// The replay's own keys and names: every placeholder of a recording and every name it notes get
/// a fresh value for this run, so that a replay shares no state with another (or with the
/// recording's own run against a `serve` that is still up).
struct FreshIdentity: Sendable {
    /// Eight lowercase letters and digits, unique per replay.
    let tag: String
    /// Placeholder → fresh value (subscribe, publish and secret keys, auth keys, other redacted values).
    let values: [String: String]
    /// Subscribe key placeholder → the fresh secret key its keyset is registered with (Access Manager on).
    let secrets: [String: String]
    /// Subscribe key placeholder → the fresh publish key of its keyset.
    let publishKeys: [String: String]
    /// The recorded names.
    let names: Set<String>
    /// Fresh value → placeholder, longest first (to map answers back).
    private let reverse: [(fresh: String, placeholder: String)]

    init(recording: Recording, tag: String) {
        self.tag = tag
        var values: [String: String] = [:]
        var secrets: [String: String] = [:]
        var publishKeys: [String: String] = [:]
        for key in recording.keys {
            let index = key.placeholder.split(separator: "-").last.map { String($0.dropLast()) } ?? "0"
            switch key.kind {
            case .subscribeKey: values[key.placeholder] = "sub-c-\(tag)-\(index)"
            case .publishKey: values[key.placeholder] = "pub-c-\(tag)-\(index)"
            case .secretKey: values[key.placeholder] = "sec-c-\(tag)-\(index)"
            case .auth: values[key.placeholder] = "auth-\(tag)-\(index)"
            case .redacted: values[key.placeholder] = "redacted-\(tag)-\(index)"
            case .token, .signature, .policy, .credential: continue
            }
        }
        for key in recording.keys where key.kind == .subscribeKey {
            let index = key.placeholder.split(separator: "-").last.map { String($0.dropLast()) } ?? "0"
            publishKeys[key.placeholder] = key.publishKey.flatMap { values[$0] } ?? "pub-c-\(tag)-s\(index)"
            if key.accessManager == true { secrets[key.placeholder] = "sec-c-\(tag)-s\(index)" }
        }
        self.values = values
        self.secrets = secrets
        self.publishKeys = publishKeys
        names = Set(recording.names.map(\.name))
        let pairs = values.map { (fresh: $0.value, placeholder: $0.key) } + secrets.map { (fresh: $0.value, placeholder: "{secret}") }
        reverse = pairs.sorted { $0.fresh.utf8.count > $1.fresh.utf8.count }
    }

    /// What names are prefixed with (a name is never a prefix of a key: keys carry `tag-`).
    var namePrefix: String { tag + "_" }

    /// The fresh name of a recorded one (a presence channel keeps its suffix after the fresh name).
    func freshName(_ name: String) -> String? {
        if names.contains(name) { return namePrefix + name }
        if name.hasSuffix("-pnpres"), names.contains(String(name.dropLast(7))) { return namePrefix + name }
        return nil
    }

    /// `text` with every placeholder replaced by its fresh value.
    func fill(_ text: String) -> String {
        guard text.contains("{") else { return text }
        var out = text
        for (placeholder, fresh) in values where out.contains(placeholder) { out = out.replacingOccurrences(of: placeholder, with: fresh) }
        return out
    }

    /// A replayed text mapped back to the recording's: fresh keys to their placeholders, then the
    /// names' prefix removed.
    func mapBack(_ text: String) -> String {
        var out = text
        for (fresh, placeholder) in reverse where out.contains(fresh) { out = out.replacingOccurrences(of: fresh, with: placeholder) }
        if out.contains(namePrefix) { out = out.replacingOccurrences(of: namePrefix, with: "") }
        return out
    }

    /// A name inside a replayed token mapped back.
    func mapBackName(_ name: String) -> String { name.hasPrefix(namePrefix) ? String(name.dropFirst(namePrefix.count)) : name }

    /// The subscribe key placeholder a recorded path names (the first).
    static func subscribeKeyPlaceholder(in text: String) -> String? {
        guard let start = text.range(of: "{sub-key-") else { return nil }
        guard let end = text[start.upperBound...].firstIndex(of: "}") else { return nil }
        return String(text[start.lowerBound...end])
    }

    /// A tag of eight lowercase letters and digits.
    static func randomTag() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<8).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}
