// SPDX-License-Identifier: MIT

/// What a client must be able to do for a case to run; a client lacking one gets "skipped".
///
/// The first seven are the first driver protocol's. Every feature added since is a capability
/// of its own (``DriverProtocolVersion`` says which version added it), and a case's need for
/// one is derived from what the case uses (``CapabilityDerivation``): a driver never gets a
/// case that needs a feature it did not declare.
public enum Capability: String, Sendable, Hashable, Codable, CaseIterable {
    case tls, encryption, presence, history, channelGroups, accessManager, reconnection
    /// Access Manager v3 tokens: grant, revoke, set and parse tokens.
    case accessTokens
    /// File sharing: send, list, download, delete, file events.
    case files
    /// App Context (objects): metadata, memberships and members operations, `appContext` events.
    case objects
    /// Mobile push registration: add, remove and list push channels, remove a device.
    case push
    /// Custom message types: `customMessageType` on publish, signal and file messages, and in
    /// message, signal and file events.
    case messageTypes
    /// Custom message types in fetched history (`includeCustomMessageType` on `fetchMessages`,
    /// `customMessageType` in its entries).
    case historyMessageTypes
    /// Subscribe filter expressions (`filterExpression` in `configure`).
    case filters
    /// Wildcard subscriptions (`a.*`), reported with the wildcard as `subscription`.
    case wildcardSubscribe
    /// Message actions: add, get (with paging) and remove actions, `messageAction` events, and
    /// fetched messages with their actions (`includeMessageActions` on `fetchMessages`).
    case messageActions
    /// An event engine run with a case's retry policy (`eventEngine`, `retryPolicy`,
    /// `suppressLeaveEvents` in `configure`), and the `disconnect` and `reconnect` operations.
    case eventEngine
}
