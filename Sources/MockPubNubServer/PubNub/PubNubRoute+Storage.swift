// SPDX-License-Identifier: MIT

extension PubNubRoute {
    /// The fields of a route, shared by its copies until one of them is written. Their accesses
    /// go unchecked for exclusivity: a box is written only while one route holds it.
    // @unchecked Sendable: a box is written only through `PubNubRoute.unique`, i.e. while exactly
    // one route refers to it; a box that routes share (and so other threads may read) is never written.
    final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var endpoint: PubNubEndpoint
        @exclusivity(unchecked) var subscribeKey: String?
        @exclusivity(unchecked) var publishKey: String?
        /// The channels (`channels`), one held without an array.
        @exclusivity(unchecked) var channelList: RouteList<String>
        @exclusivity(unchecked) var channelGroups: [String]
        @exclusivity(unchecked) var uuid: String?
        @exclusivity(unchecked) var targetUUID: String?
        @exclusivity(unchecked) var message: String?
        @exclusivity(unchecked) var messageTimetoken: String?
        @exclusivity(unchecked) var actionTimetoken: String?
        /// The decoded query (`query`), one item held without an array.
        @exclusivity(unchecked) var queryList: RouteList<QueryItem>
        @exclusivity(unchecked) var subscribeV1: SubscribeV1Request?
        @exclusivity(unchecked) var fileID: String?
        @exclusivity(unchecked) var fileName: String?
        @exclusivity(unchecked) var push: PushRequest?
        @exclusivity(unchecked) var token: String?
        @exclusivity(unchecked) var accessDecided = false
        @exclusivity(unchecked) var objectsAccess: ObjectsAccess?

        init(
            endpoint: PubNubEndpoint, subscribeKey: String?, publishKey: String?, channels: RouteList<String>,
            channelGroups: [String], uuid: String?, targetUUID: String?, message: String?, query: RouteList<QueryItem>
        ) {
            self.endpoint = endpoint
            self.subscribeKey = subscribeKey
            self.publishKey = publishKey
            channelList = channels
            self.channelGroups = channelGroups
            self.uuid = uuid
            self.targetUUID = targetUUID
            self.message = message
            queryList = query
        }

        /// The channels as an array; written in place as one.
        var channels: [String] {
            get { channelList.array }
            _modify {
                var list = channelList.array
                channelList = .empty // so that `list` is the array's only reference
                defer { channelList = .many(list) }
                yield &list
            }
        }

        /// The query as an array; written in place as one.
        var query: [QueryItem] {
            get { queryList.array }
            _modify {
                var list = queryList.array
                queryList = .empty
                defer { queryList = .many(list) }
                yield &list
            }
        }

        /// A new box with the same fields.
        func copy() -> Storage {
            let copy = Storage(
                endpoint: endpoint, subscribeKey: subscribeKey, publishKey: publishKey, channels: channelList,
                channelGroups: channelGroups, uuid: uuid, targetUUID: targetUUID, message: message, query: queryList)
            copy.messageTimetoken = messageTimetoken
            copy.actionTimetoken = actionTimetoken
            copy.subscribeV1 = subscribeV1
            copy.fileID = fileID
            copy.fileName = fileName
            copy.push = push
            copy.token = token
            copy.accessDecided = accessDecided
            copy.objectsAccess = objectsAccess
            return copy
        }

        /// Field-by-field equality (what the synthesized `==` of the plain struct compared).
        func isEqual(to other: Storage) -> Bool {
            endpoint == other.endpoint && subscribeKey == other.subscribeKey && publishKey == other.publishKey
                && channels == other.channels && channelGroups == other.channelGroups && uuid == other.uuid
                && targetUUID == other.targetUUID && message == other.message
                && messageTimetoken == other.messageTimetoken && actionTimetoken == other.actionTimetoken
                && query == other.query && subscribeV1 == other.subscribeV1 && fileID == other.fileID
                && fileName == other.fileName && push == other.push && token == other.token
                && accessDecided == other.accessDecided && objectsAccess == other.objectsAccess
        }

        /// Hashes every field, in declaration order.
        func hash(into hasher: inout Hasher) {
            hasher.combine(endpoint)
            hasher.combine(subscribeKey)
            hasher.combine(publishKey)
            hasher.combine(channels)
            hasher.combine(channelGroups)
            hasher.combine(uuid)
            hasher.combine(targetUUID)
            hasher.combine(message)
            hasher.combine(messageTimetoken)
            hasher.combine(actionTimetoken)
            hasher.combine(query)
            hasher.combine(subscribeV1)
            hasher.combine(fileID)
            hasher.combine(fileName)
            hasher.combine(push)
            hasher.combine(token)
            hasher.combine(accessDecided)
            hasher.combine(objectsAccess)
        }
    }
}
