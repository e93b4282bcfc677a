// SPDX-License-Identifier: MIT

/// An outcome that is allowed but is not the reference one; a case that ends this way is
/// reported as non-strict.
public struct Alternative: Sendable, Hashable {
    /// The categories observed instead of the reference ones.
    public var categories: [StatusCategory]
    /// Which client family behaves this way, and why it is tolerated.
    public var reason: String

    public init(_ categories: [StatusCategory], reason: String) {
        self.categories = categories
        self.reason = reason
    }
}

/// Where a case's client connects.
public enum ListenerSetup: Sendable, Hashable {
    /// The shared server.
    case shared
    /// A listener of its own with a transport fault (`ListenerFault` raw value, e.g. `tls-expired`).
    case fault(String)
    /// A port with no listener (connection refused).
    case refused
}

/// One conformance case: a value naming what it checks, the faults it installs, the steps it
/// drives and the outcome the protocol requires.
public struct ConformanceCase: Sendable, Hashable, Identifiable {
    /// Stable id `suite.group.name` (lowercase, digits, `-`), e.g. `subscribe.reconnect.catch-up`.
    public var id: String
    public var title: String
    /// The spec section checked, e.g. `§5.3`.
    public var spec: String
    /// The fault plan (docs/fault-plans.md) installed for the case's subscribe key, if any.
    public var plan: JSONValue?
    public var listener: ListenerSetup
    public var client: ClientOverrides
    public var steps: [CaseStep]
    /// Every category the case must observe (as a set; `PNCancelledCategory` is ignored).
    public var expected: [StatusCategory]
    /// Categories that may appear without failing the case (e.g. a reconnection after a fault).
    public var tolerated: [StatusCategory]
    public var alternatives: [Alternative]
    /// Wall-clock limit for the steps.
    public var timeBudget: Duration
    /// Capabilities the case needs besides those derived from what it uses
    /// (``requiredCapabilities``: every feature added since the first driver protocol is derived).
    public var requires: Set<Capability>
    /// Whether the case's keyset has Access Manager enabled.
    public var accessManager: Bool

    public init(
        _ id: String, _ title: String, spec: String, plan: JSONValue? = nil, listener: ListenerSetup = .shared,
        client: ClientOverrides = ClientOverrides(), steps: [CaseStep], expected: [StatusCategory],
        tolerated: [StatusCategory] = [], alternatives: [Alternative] = [], timeBudget: Duration = .seconds(2),
        requires: Set<Capability> = [], accessManager: Bool = false
    ) {
        self.id = id
        self.title = title
        self.spec = spec
        self.plan = plan
        self.listener = listener
        self.client = client
        self.steps = steps
        self.expected = expected
        self.tolerated = tolerated
        self.alternatives = alternatives
        self.timeBudget = timeBudget
        self.requires = requires
        self.accessManager = accessManager
    }

    /// The suite: the first component of the id.
    public var suite: String { String(id.split(separator: ".").first ?? "") }
}
