// SPDX-License-Identifier: MIT

/// Why the service refused a parameter; each case maps to a PubNub error body at the endpoint.
enum PubNubServiceError: Error, Sendable, Hashable {
    /// A timetoken parameter that is not all digits (or does not fit 64 bits).
    case invalidTimetoken(parameter: String, value: String)
    /// A grant parameter with a value the grant endpoint does not accept.
    case invalidGrantParameter(name: String, value: String)
}
