// SPDX-License-Identifier: MIT

/// Where a client's capabilities come from, so that a skipped case says why the client lacks
/// what it needs.
public enum CapabilityOrigin: Sendable, Hashable {
    /// The client states them itself (the built-in client, an adapter, a list given to the runner).
    case client
    /// The `capabilities` its driver's `hello` lists.
    case listed
    /// Those of the protocol version its driver's `hello` declares (no list).
    case protocolVersion(Int)
    /// Its driver declared neither a protocol nor a list: protocol 1's. `answeredHello` tells
    /// a driver without `hello` from one whose `hello` names neither.
    case firstProtocolAssumed(answeredHello: Bool)

    /// The skip reason for a case needing `missing` (pure): `client lacks: …` and why.
    public func skipReason(missing: Set<Capability>) -> String {
        let names = missing.map(\.rawValue).sorted()
        let head = "client lacks: " + names.joined(separator: ", ")
        let added = missing.map { capability in
            "\(capability.rawValue) came with protocol \(DriverProtocolVersion.introducing(capability))"
        }.sorted().joined(separator: ", ")
        switch self {
        case .client:
            return head
        case .listed:
            return head + " (not in the capabilities its driver's hello lists)"
        case .protocolVersion(let version):
            return head + " (its driver declares protocol \(version) and lists no capabilities; " + added + ")"
        case .firstProtocolAssumed(let answeredHello):
            let why = answeredHello ? "its driver's hello declares neither protocol nor capabilities"
                                    : "its driver answers no hello"
            return head + " (" + why + ", so it has protocol 1's capabilities; " + added + ")"
        }
    }
}
