// SPDX-License-Identifier: MIT

/// App Context (spec modern §1): uuid and channel metadata, memberships, members. Failures are
/// statuses: 400 → bad request, 403 → access denied, 404 → resource not found, 412 (a stale
/// `ifMatchesETag`) → precondition failed.
extension PubNubClient {
    // MARK: UUID metadata

    /// The metadata of `uuid` (the client's own uuid when nil).
    public func getUUIDMetadata(uuid: String? = nil, include: [String] = ["custom"]) async throws(PNStatus) -> PNAppContextObjectResult {
        try await perform(try objectCall(.getUUIDMetadata, "uuids", uuid ?? configuration.uuid, include: include)).get()
    }

    public func getUUIDMetadata(uuid: String? = nil, include: [String] = ["custom"],
                                completion: @escaping @Sendable (Result<PNAppContextObjectResult, PNStatus>) -> Void) {
        deliver({ () throws(PNStatus) in try objectCall(.getUUIDMetadata, "uuids", uuid ?? configuration.uuid, include: include) }, completion)
    }

    /// Sets (upserts) the fields of `metadata` (a JSON object: `name`, `externalId`, `profileUrl`,
    /// `email`, `status`, `type`, `custom`) on `uuid`; with `ifMatchesETag` only if unchanged since.
    public func setUUIDMetadata(uuid: String? = nil, _ metadata: JSONValue, include: [String] = ["custom"],
                                ifMatchesETag: String? = nil) async throws(PNStatus) -> PNAppContextObjectResult {
        try await perform(try objectCall(.setUUIDMetadata, "uuids", uuid ?? configuration.uuid, include: include,
                                         body: metadata, ifMatch: ifMatchesETag)).get()
    }

    public func setUUIDMetadata(uuid: String? = nil, _ metadata: JSONValue, include: [String] = ["custom"], ifMatchesETag: String? = nil,
                                completion: @escaping @Sendable (Result<PNAppContextObjectResult, PNStatus>) -> Void) {
        deliver({ () throws(PNStatus) in
            try objectCall(.setUUIDMetadata, "uuids", uuid ?? configuration.uuid, include: include, body: metadata, ifMatch: ifMatchesETag)
        }, completion)
    }

    /// Removes the metadata of `uuid`; acknowledged also when there was none.
    public func removeUUIDMetadata(uuid: String? = nil) async -> PNStatus {
        await acknowledgeRemoval(.removeUUIDMetadata, "uuids", uuid ?? configuration.uuid)
    }

    /// One page of every uuid's metadata.
    public func getAllUUIDMetadata(_ query: PNAppContextQuery = PNAppContextQuery()) async throws(PNStatus) -> PNAppContextListResult {
        try await perform(listCall(.getAllUUIDMetadata, path: "/uuids", query: query)).get()
    }

    // MARK: Channel metadata

    public func getChannelMetadata(channel: String, include: [String] = ["custom"]) async throws(PNStatus) -> PNAppContextObjectResult {
        try await perform(try objectCall(.getChannelMetadata, "channels", channel, include: include)).get()
    }

    public func getChannelMetadata(channel: String, include: [String] = ["custom"],
                                   completion: @escaping @Sendable (Result<PNAppContextObjectResult, PNStatus>) -> Void) {
        deliver({ () throws(PNStatus) in try objectCall(.getChannelMetadata, "channels", channel, include: include) }, completion)
    }

    /// Sets (upserts) `name`, `description`, `status`, `type`, `custom` of `channel`.
    public func setChannelMetadata(channel: String, _ metadata: JSONValue, include: [String] = ["custom"],
                                   ifMatchesETag: String? = nil) async throws(PNStatus) -> PNAppContextObjectResult {
        try await perform(try objectCall(.setChannelMetadata, "channels", channel, include: include, body: metadata,
                                         ifMatch: ifMatchesETag)).get()
    }

    public func setChannelMetadata(channel: String, _ metadata: JSONValue, include: [String] = ["custom"], ifMatchesETag: String? = nil,
                                   completion: @escaping @Sendable (Result<PNAppContextObjectResult, PNStatus>) -> Void) {
        deliver({ () throws(PNStatus) in
            try objectCall(.setChannelMetadata, "channels", channel, include: include, body: metadata, ifMatch: ifMatchesETag)
        }, completion)
    }

    public func removeChannelMetadata(channel: String) async -> PNStatus {
        await acknowledgeRemoval(.removeChannelMetadata, "channels", channel)
    }

    public func getAllChannelMetadata(_ query: PNAppContextQuery = PNAppContextQuery()) async throws(PNStatus) -> PNAppContextListResult {
        try await perform(listCall(.getAllChannelMetadata, path: "/channels", query: query)).get()
    }

    // MARK: Memberships (the channels of a uuid)

    public func getMemberships(uuid: String? = nil, _ query: PNAppContextQuery = PNAppContextQuery()) async throws(PNStatus)
        -> PNAppContextListResult {
        try await perform(try membershipCall(.getMemberships, uuid: uuid, query: query)).get()
    }

    /// Adds or updates memberships; answers the uuid's whole resulting list (one page).
    public func setMemberships(uuid: String? = nil, channels: [PNMembershipInput], _ query: PNAppContextQuery = PNAppContextQuery())
        async throws(PNStatus) -> PNAppContextListResult {
        try await perform(try membershipCall(.setMemberships, uuid: uuid, query: query, set: channels)).get()
    }

    public func removeMemberships(uuid: String? = nil, channels: [String], _ query: PNAppContextQuery = PNAppContextQuery())
        async throws(PNStatus) -> PNAppContextListResult {
        try await perform(try membershipCall(.removeMemberships, uuid: uuid, query: query, remove: channels)).get()
    }

    public func manageMemberships(uuid: String? = nil, set: [PNMembershipInput], remove: [String],
                                  _ query: PNAppContextQuery = PNAppContextQuery()) async throws(PNStatus) -> PNAppContextListResult {
        try await perform(try membershipCall(.manageMemberships, uuid: uuid, query: query, set: set, remove: remove)).get()
    }

    // MARK: Members (the uuids of a channel)

    public func getMembers(channel: String, _ query: PNAppContextQuery = PNAppContextQuery()) async throws(PNStatus) -> PNAppContextListResult {
        try await perform(try memberCall(.getMembers, channel: channel, query: query)).get()
    }

    public func setMembers(channel: String, uuids: [PNMembershipInput], _ query: PNAppContextQuery = PNAppContextQuery())
        async throws(PNStatus) -> PNAppContextListResult {
        try await perform(try memberCall(.setMembers, channel: channel, query: query, set: uuids)).get()
    }

    public func removeMembers(channel: String, uuids: [String], _ query: PNAppContextQuery = PNAppContextQuery())
        async throws(PNStatus) -> PNAppContextListResult {
        try await perform(try memberCall(.removeMembers, channel: channel, query: query, remove: uuids)).get()
    }

    public func manageMembers(channel: String, set: [PNMembershipInput], remove: [String],
                              _ query: PNAppContextQuery = PNAppContextQuery()) async throws(PNStatus) -> PNAppContextListResult {
        try await perform(try memberCall(.manageMembers, channel: channel, query: query, set: set, remove: remove)).get()
    }

    // MARK: Completion-handler forms of the removals and lists

    public func removeUUIDMetadata(uuid: String? = nil, completion: @escaping @Sendable (PNStatus) -> Void) {
        Task { completion(await removeUUIDMetadata(uuid: uuid)) }
    }

    public func removeChannelMetadata(channel: String, completion: @escaping @Sendable (PNStatus) -> Void) {
        Task { completion(await removeChannelMetadata(channel: channel)) }
    }

    public func getAllUUIDMetadata(_ query: PNAppContextQuery = PNAppContextQuery(), completion: @escaping @Sendable (Result<PNAppContextListResult, PNStatus>) -> Void) {
        deliver({ () throws(PNStatus) in listCall(.getAllUUIDMetadata, path: "/uuids", query: query) }, completion)
    }

    public func getAllChannelMetadata(_ query: PNAppContextQuery = PNAppContextQuery(), completion: @escaping @Sendable (Result<PNAppContextListResult, PNStatus>) -> Void) {
        deliver({ () throws(PNStatus) in listCall(.getAllChannelMetadata, path: "/channels", query: query) }, completion)
    }

    public func getMemberships(uuid: String? = nil, _ query: PNAppContextQuery = PNAppContextQuery(),
                               completion: @escaping @Sendable (Result<PNAppContextListResult, PNStatus>) -> Void) {
        deliver({ () throws(PNStatus) in try membershipCall(.getMemberships, uuid: uuid, query: query) }, completion)
    }

    public func manageMemberships(uuid: String? = nil, set: [PNMembershipInput], remove: [String], _ query: PNAppContextQuery = PNAppContextQuery(),
                                  completion: @escaping @Sendable (Result<PNAppContextListResult, PNStatus>) -> Void) {
        deliver({ () throws(PNStatus) in
            try membershipCall(set.isEmpty ? .removeMemberships : remove.isEmpty ? .setMemberships : .manageMemberships,
                               uuid: uuid, query: query, set: set, remove: remove)
        }, completion)
    }

    public func getMembers(channel: String, _ query: PNAppContextQuery = PNAppContextQuery(),
                           completion: @escaping @Sendable (Result<PNAppContextListResult, PNStatus>) -> Void) {
        deliver({ () throws(PNStatus) in try memberCall(.getMembers, channel: channel, query: query) }, completion)
    }

    public func manageMembers(channel: String, set: [PNMembershipInput], remove: [String], _ query: PNAppContextQuery = PNAppContextQuery(),
                              completion: @escaping @Sendable (Result<PNAppContextListResult, PNStatus>) -> Void) {
        deliver({ () throws(PNStatus) in
            try memberCall(set.isEmpty ? .removeMembers : remove.isEmpty ? .setMembers : .manageMembers,
                           channel: channel, query: query, set: set, remove: remove)
        }, completion)
    }

    // MARK: Calls

    private func perform<T: Sendable>(_ call: Call<T>) async -> Result<T, PNStatus> {
        await perform(call.request, parse: call.parse)
    }

    private func deliver<T: Sendable>(_ build: () throws(PNStatus) -> Call<T>,
                                      _ completion: @escaping @Sendable (Result<T, PNStatus>) -> Void) {
        do throws(PNStatus) {
            let call = try build()
            run(call.request, parse: call.parse, deliver: completion)
        } catch { completion(.failure(error)) }
    }

    private static func checkID(_ id: String, _ kind: String, _ operation: PNOperationType) throws(PNStatus) {
        guard !id.isEmpty else {
            throw PNStatus(category: .badRequest, operation: operation, errorData: PNErrorData(information: "\(kind) is empty"))
        }
    }

    /// GET or PATCH of one uuid's / channel's metadata.
    private func objectCall(_ operation: PNOperationType, _ collection: String, _ id: String, include: [String],
                            body: JSONValue? = nil, ifMatch: String? = nil) throws(PNStatus) -> Call<PNAppContextObjectResult> {
        try Self.checkID(id, collection == "uuids" ? "uuid" : "channel", operation)
        if let body, body.objectValue == nil {
            throw PNStatus(category: .badRequest, operation: operation, errorData: PNErrorData(information: "metadata must be a JSON object"))
        }
        var request = PubNubRequest(operation: operation, method: body == nil ? "GET" : "PATCH",
                                    path: AppContextEndpoints.base(configuration.subscribeKey) + "/\(collection)/\(PercentEncoding.encode(id))",
                                    query: AppContextEndpoints.query(PNAppContextQuery(include: include), list: false),
                                    body: body?.jsonBytes, channels: collection == "channels" ? [id] : [])
        if let ifMatch { request.headers["If-Match"] = ifMatch }
        return (request, Self.shaped(request, AppContextEndpoints.parseObject))
    }

    private func acknowledgeRemoval(_ operation: PNOperationType, _ collection: String, _ id: String) async -> PNStatus {
        do throws(PNStatus) { try Self.checkID(id, collection == "uuids" ? "uuid" : "channel", operation) } catch { return error }
        let request = PubNubRequest(operation: operation, method: "DELETE",
                                    path: AppContextEndpoints.base(configuration.subscribeKey) + "/\(collection)/\(PercentEncoding.encode(id))",
                                    channels: collection == "channels" ? [id] : [])
        return await acknowledge(request)
    }

    private func listCall(_ operation: PNOperationType, path: String, query: PNAppContextQuery) -> Call<PNAppContextListResult> {
        let request = PubNubRequest(operation: operation, path: AppContextEndpoints.base(configuration.subscribeKey) + path,
                                    query: AppContextEndpoints.query(query, list: true))
        return (request, Self.shaped(request, AppContextEndpoints.parseList))
    }

    private func membershipCall(_ operation: PNOperationType, uuid: String?, query: PNAppContextQuery,
                                set: [PNMembershipInput] = [], remove: [String] = []) throws(PNStatus) -> Call<PNAppContextListResult> {
        let owner = uuid ?? configuration.uuid
        try Self.checkID(owner, "uuid", operation)
        return membershipListCall(operation, path: "/uuids/\(PercentEncoding.encode(owner))/channels", key: "channel",
                                  query: query, set: set, remove: remove, channels: set.map(\.id) + remove)
    }

    private func memberCall(_ operation: PNOperationType, channel: String, query: PNAppContextQuery,
                            set: [PNMembershipInput] = [], remove: [String] = []) throws(PNStatus) -> Call<PNAppContextListResult> {
        try Self.checkID(channel, "channel", operation)
        return membershipListCall(operation, path: "/channels/\(PercentEncoding.encode(channel))/uuids", key: "uuid",
                                  query: query, set: set, remove: remove, channels: [channel])
    }

    private func membershipListCall(_ operation: PNOperationType, path: String, key: String, query: PNAppContextQuery,
                                    set: [PNMembershipInput], remove: [String], channels: [String]) -> Call<PNAppContextListResult> {
        let isWrite = operation != .getMemberships && operation != .getMembers
        let request = PubNubRequest(operation: operation, method: isWrite ? "PATCH" : "GET",
                                    path: AppContextEndpoints.base(configuration.subscribeKey) + path,
                                    query: AppContextEndpoints.query(query, list: true),
                                    body: isWrite ? AppContextEndpoints.membershipBody(key: key, set: set, remove: remove) : nil,
                                    channels: channels)
        return (request, Self.shaped(request, AppContextEndpoints.parseList))
    }
}
