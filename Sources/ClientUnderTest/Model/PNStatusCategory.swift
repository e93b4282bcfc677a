// SPDX-License-Identifier: MIT

/// The status categories of the 4.x client (names as in the Objective-C SDK).
public enum PNStatusCategory: String, CaseIterable, Codable, Sendable {
    case acknowledgment = "PNAcknowledgmentCategory"
    case accessDenied = "PNAccessDeniedCategory"
    case badRequest = "PNBadRequestCategory"
    case requestURITooLong = "PNRequestURITooLongCategory"
    case malformedFilterExpression = "PNMalformedFilterExpressionCategory"
    case resourceNotFound = "PNResourceNotFoundCategory"
    case timeout = "PNTimeoutCategory"
    case networkIssues = "PNNetworkIssuesCategory"
    case malformedResponse = "PNMalformedResponseCategory"
    case tlsConnectionFailed = "PNTLSConnectionFailedCategory"
    case tlsUntrustedCertificate = "PNTLSUntrustedCertificateCategory"
    case connected = "PNConnectedCategory"
    case reconnected = "PNReconnectedCategory"
    case disconnected = "PNDisconnectedCategory"
    case unexpectedDisconnect = "PNUnexpectedDisconnectCategory"
    case cancelled = "PNCancelledCategory"
    case decryptionError = "PNDecryptionErrorCategory"
    case requestMessageCountExceeded = "PNRequestMessageCountExceededCategory"
    case unknown = "PNUnknownCategory"
    /// HTTP 412: an App Context write with an `If-Match` eTag the object no longer has.
    case preconditionFailed = "PNPreconditionFailedCategory"
    /// Event-engine mode: the handshake failed after the retry policy's last attempt.
    case connectionError = "PNConnectionErrorCategory"
    /// Event-engine mode: a long-poll failed after the retry policy's last attempt.
    case disconnectedUnexpectedly = "PNDisconnectedUnexpectedlyCategory"
    /// Event-engine mode: the channel list changed while receiving (the cursor is kept).
    case subscriptionChanged = "PNSubscriptionChangedCategory"

    /// Whether a status of this category is an error (`PNStatus.isError`): false for
    /// acknowledgment, connection changes and cancellation, true for everything else.
    public var isError: Bool {
        switch self {
        case .acknowledgment, .connected, .reconnected, .disconnected, .unexpectedDisconnect, .cancelled, .subscriptionChanged: false
        default: true
        }
    }
}

/// The operation a status or result belongs to.
public enum PNOperationType: String, CaseIterable, Codable, Sendable {
    case time = "PNTimeOperation"
    case publish = "PNPublishOperation"
    case signal = "PNSignalOperation"
    case subscribe = "PNSubscribeOperation"
    case unsubscribe = "PNUnsubscribeOperation"
    case heartbeat = "PNHeartbeatOperation"
    case hereNow = "PNHereNowOperation"
    case hereNowGlobal = "PNHereNowGlobalOperation"
    case whereNow = "PNWhereNowOperation"
    case setState = "PNSetStateOperation"
    case getState = "PNStateForChannelOperation"
    case history = "PNHistoryOperation"
    case fetchMessages = "PNFetchMessagesOperation"
    case deleteMessages = "PNDeleteMessageOperation"
    case messageCounts = "PNMessageCountOperation"
    case addChannelsToGroup = "PNAddChannelsToGroupOperation"
    case removeChannelsFromGroup = "PNRemoveChannelsFromGroupOperation"
    case channelsForGroup = "PNChannelsForGroupOperation"
    case channelGroups = "PNChannelGroupsOperation"
    case removeGroup = "PNRemoveGroupOperation"
    case grant = "PNAccessManagerGrantOperation"
    case getUUIDMetadata = "PNFetchUUIDMetadataOperation"
    case setUUIDMetadata = "PNSetUUIDMetadataOperation"
    case removeUUIDMetadata = "PNRemoveUUIDMetadataOperation"
    case getAllUUIDMetadata = "PNFetchAllUUIDMetadataOperation"
    case getChannelMetadata = "PNFetchChannelMetadataOperation"
    case setChannelMetadata = "PNSetChannelMetadataOperation"
    case removeChannelMetadata = "PNRemoveChannelMetadataOperation"
    case getAllChannelMetadata = "PNFetchAllChannelsMetadataOperation"
    case getMemberships = "PNFetchMembershipsOperation"
    case setMemberships = "PNSetMembershipsOperation"
    case removeMemberships = "PNRemoveMembershipsOperation"
    case manageMemberships = "PNManageMembershipsOperation"
    case getMembers = "PNFetchChannelMembersOperation"
    case setMembers = "PNSetChannelMembersOperation"
    case removeMembers = "PNRemoveChannelMembersOperation"
    case manageMembers = "PNManageChannelMembersOperation"
    case grantToken = "PNAccessManagerGrantTokenOperation"
    case revokeToken = "PNAccessManagerRevokeTokenOperation"
    case generateFileUploadURL = "PNGenerateFileUploadURLOperation"
    case sendFile = "PNSendFileOperation"
    case publishFileMessage = "PNPublishFileMessageOperation"
    case listFiles = "PNListFilesOperation"
    case downloadFile = "PNDownloadFileOperation"
    case deleteFile = "PNDeleteFileOperation"
    case addPushChannels = "PNAddPushNotificationsOnChannelsOperation"
    case removePushChannels = "PNRemovePushNotificationsFromChannelsOperation"
    case removeAllPushNotifications = "PNRemoveAllPushNotificationsOperation"
    case pushNotificationEnabledChannels = "PNPushNotificationEnabledChannelsOperation"
    case addMessageAction = "PNAddMessageActionOperation"
    case fetchMessageActions = "PNFetchMessageActionsOperation"
    case removeMessageAction = "PNRemoveMessageActionOperation"
    case historyWithActions = "PNHistoryWithActionsOperation"
}
