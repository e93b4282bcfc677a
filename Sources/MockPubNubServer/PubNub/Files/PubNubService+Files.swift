// SPDX-License-Identifier: MIT
import HarnessJSON

/// File sharing (spec pubnub-modern §3): the Files REST service and the mock's own storage, which
/// upload URLs and download redirects point at (on the listener the request came in on).
extension PubNubService {
    /// Answers every file endpoint.
    func files(_ route: PubNubRoute, request: HTTPRequest, context: RequestContext) -> HTTPResponse {
        switch route.endpoint {
        case .generateUploadURL: return generateUploadURL(route, request: request, context: context)
        case .storageUpload: return storageUpload(route, request: request, context: context)
        case .publishFile: return publishFile(route)
        case .listFiles: return listFiles(route)
        case .getFile: return getFile(route, request: request, context: context)
        case .storageDownload: return storageDownload(route, request: request)
        case .deleteFile: return deleteFile(route)
        default: return PubNubErrors.notFound(path: request.rawPath)
        }
    }

    private var fileSettings: FileServiceSettings { configuration.files }

    /// The channel of a Files request, or the Files 400 for a reserved name (SDK fixture shape).
    private func fileChannel(_ route: PubNubRoute) -> Result<String, FileRequestError> {
        let channel = route.channels.first ?? ""
        guard ChannelNames.isValid(channel) else {
            return .failure(FileRequestError(FileBodies.error(400, "[channel] contains invalid characters", code: 3001)))
        }
        return .success(channel)
    }

    /// `POST …/generate-upload-url` with `{"name":"…"}`: a file id and a storage upload form.
    func generateUploadURL(_ route: PubNubRoute, request: HTTPRequest, context: RequestContext) -> HTTPResponse {
        let channel: String
        switch fileChannel(route) {
        case .success(let name): channel = name
        case .failure(let error): return error.response
        }
        // UNVERIFIED: the live answer to a body without a usable name (not recorded).
        guard case .object(let body)? = try? JSONValue.parse(request.body), case .string(let name)? = body["name"],
            !name.isEmpty, name.utf8.count <= 1024, !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "/" })
        else { return FileBodies.error(400, "[name] must be a non-empty file name", code: 3001) }
        let subscribeKey = route.subscribeKey ?? ""
        let base = StorageURL.base(request: request, context: context)
        return withState(entry(subscribeKey), subscribeKey: subscribeKey) { state, _, env in
            if let denied = denial(.write, channels: [channel], groups: [], route: route, state: state, env: env) { return denied }
            let now = env.clock.unixSeconds
            let id = UploadForm.newFileID()
            let key = UploadForm.objectKey(subscribeKey: subscribeKey, channel: channel, id: id, name: name)
            let expiresAt = now + Int64(fileSettings.uploadURLLifetime)
            let fields = UploadForm.fields(key: key, name: name, now: now, expiresAt: expiresAt, maxFileBytes: fileSettings.maxFileBytes)
            state.files.addPending(PendingUpload(id: id, name: name, channel: channel, formFields: fields, expiresAt: expiresAt),
                                   key: key, now: now)
            let url = base + StorageURL.uploadPath(subscribeKey: subscribeKey, channel: channel)
            return .pubNub(200, FileBodies.uploadRequest(id: id, name: name, url: url, expiration: expiresAt, fields: fields), .json)
        }
    }

    /// `POST /file-storage/{sub}/{ch}` (multipart): the form fields as issued, in order, then `file`.
    func storageUpload(_ route: PubNubRoute, request: HTTPRequest, context: RequestContext) -> HTTPResponse {
        let requestID = StorageURL.requestID()
        let form: MultipartFormData
        do throws(MultipartError) {
            let boundary = try MultipartFormData.boundary(ofContentType: request.headers["Content-Type"])
            form = try MultipartFormData.parse(request.body, boundary: boundary)
        } catch {
            return StorageResponses.malformedPost(requestID: requestID)
        }
        // Fields after the file are ignored, as the storage does; the first `file` part is the file.
        guard let fileIndex = form.parts.firstIndex(where: { $0.name == "file" }) else {
            return StorageResponses.missingFile(requestID: requestID)
        }
        let fields = form.parts[..<fileIndex]
        let bytes = form.parts[fileIndex].body
        guard let key = fields.first(where: { $0.name.lowercased() == "key" })?.text else {
            return StorageResponses.missingField("key", requestID: requestID)
        }
        let subscribeKey = route.subscribeKey ?? ""
        let location = StorageURL.base(request: request, context: context) + request.rawPath + "/" + PercentDecoding.encode(key)
        return withState(entry(subscribeKey), subscribeKey: subscribeKey) { state, _, env in
            guard let pending = state.files.pendingUpload(key: key), pending.channel == route.channels.first else {
                return StorageResponses.error(403, code: "AccessDenied", message: "Access Denied", requestID: requestID)
            }
            for issued in pending.formFields {
                // Field names are case-insensitive for the storage.
                guard let sent = fields.first(where: { $0.name.lowercased() == issued.key.lowercased() }) else {
                    return StorageResponses.missingField(issued.key, requestID: requestID)
                }
                guard sent.text == issued.value else {
                    return StorageResponses.policyConditionFailed(issued.key, expected: issued.value, requestID: requestID)
                }
            }
            let now = env.clock.unixSeconds
            guard now <= pending.expiresAt else { return StorageResponses.policyExpired(requestID: requestID) }
            guard bytes.count <= fileSettings.maxFileBytes else {
                return StorageResponses.tooLarge(proposed: bytes.count, maxAllowed: fileSettings.maxFileBytes, requestID: requestID)
            }
            let free = state.files.freeBytes(cap: fileSettings.storageBytesPerKeyspace, replacing: pending.id, channel: pending.channel)
            guard bytes.count <= free else {
                return StorageResponses.tooLarge(proposed: bytes.count, maxAllowed: free, requestID: requestID)
            }
            state.files.store(StoredFile(
                id: pending.id, name: pending.name, channel: pending.channel,
                contentType: pending.field("Content-Type") ?? "application/octet-stream", bytes: bytes, created: now))
            return StorageResponses.uploaded(bytes: bytes, location: location)
        }
    }

    /// `GET /v1/files/publish-file/{pub}/{sub}/0/{ch}/0/{json}`: the file message, `e`=4 over
    /// subscribe, stored like a publish (history `message_type` 4). The file need not exist (recorded).
    func publishFile(_ route: PubNubRoute) -> HTTPResponse {
        let subscribeKey = route.subscribeKey ?? ""
        let channel = route.channels.first ?? ""
        guard ChannelNames.isValid(channel) else { return PubNubErrors.reservedCharacter() }
        let entry = entry(subscribeKey)
        if let keyset = entry.keyset, keyset.publishKey != route.publishKey {
            return PubNubErrors.publishRefusal("Invalid Key", timetoken: timetokens.next())
        }
        let text = route.message ?? ""
        guard text.utf8.count <= configuration.maxMessageBytes else {
            return PubNubErrors.publishRefusal("Message Too Large", timetoken: timetokens.next())
        }
        guard PubNubJSON.isValid(text) else { return PubNubErrors.publishRefusal("Invalid JSON", timetoken: timetokens.next()) }
        var meta: String?
        // Python sends `meta=null` when unset (recorded); `null` is no meta.
        if let metaText = route.query["meta"], !metaText.isEmpty, metaText != "null" {
            guard PubNubJSON.isValid(metaText) else { return PubNubErrors.publishRefusal("Invalid JSON", timetoken: timetokens.next()) }
            meta = metaText
        }
        let customType = route.query["custom_message_type"].flatMap { $0.isEmpty ? nil : $0 }
        if let customType, !FileMessages.isValidCustomMessageType(customType) {
            return PubNubErrors.publishRefusal(FileMessages.invalidCustomMessageType, timetoken: timetokens.next())
        }
        if let ttl = route.query["ttl"], !ParameterValidation.isNonNegativeInteger(ttl) {
            return PubNubErrors.publishRefusal(
                "Invalid value for parameter 'ttl': '" + ttl + "' (expected a non-negative integer)", timetoken: timetokens.next())
        }
        let notStored = route.query["store"] == "0"
        let ttlHours = min(max(route.query["ttl"].flatMap { Int($0) } ?? 0, 0), 24 * 365 * 10)
        return withState(entry, subscribeKey: subscribeKey) { state, outbox, env in
            if let denied = denial(.write, channels: [channel], groups: [], route: route, state: state, env: env, layout: .spaced) {
                return denied
            }
            let timetoken = env.timetokens.next()
            let message = StoredMessage(
                timetoken: timetoken, channel: channel, kind: .file, payload: text, meta: meta, publisher: route.uuid,
                sequence: nil, customMessageType: customType, originTimetoken: nil, inHistory: !notStored, live: true,
                expiresAt: ttlHours > 0 ? env.clock.unixSeconds + Int64(ttlHours) * 3600 : nil)
            state.append(message, env: env, outbox: &outbox)
            // Recorded 2024-2025: the publish array with the quoted Content-Type.
            return .pubNub(200, PubNubBodies.published(timetoken), .quoted)
        }
    }

    /// `GET …/files?limit=&next=`: the channel's files, oldest first; `next` when the page is full.
    func listFiles(_ route: PubNubRoute) -> HTTPResponse {
        let channel: String
        switch fileChannel(route) {
        case .success(let name): channel = name
        case .failure(let error): return error.response
        }
        var limit = fileSettings.maxListLimit
        if let text = route.query["limit"], !text.isEmpty {
            guard let value = Int(text), value >= 1 else {
                return FileBodies.error(400, "[limit] must be a positive integer", code: 3001)
            }
            limit = min(value, fileSettings.maxListLimit)
        }
        var offset = 0
        if let token = route.query["next"], !token.isEmpty {
            guard let value = FileMessages.offset(fromPageToken: token) else {
                return FileBodies.error(400, "[next] is not a valid page token", code: 3001)
            }
            offset = value
        }
        let subscribeKey = route.subscribeKey ?? ""
        return withState(entry(subscribeKey), subscribeKey: subscribeKey) { state, _, env in
            if let denied = denial(.read, channels: [channel], groups: [], route: route, state: state, env: env) { return denied }
            let all = state.files.files(channel: channel)
            let page = Array(all.dropFirst(offset).prefix(limit))
            // Recorded: a full page carries a token (even when nothing follows), a short one `null`.
            let next = page.count == limit ? FileMessages.pageToken(offset: offset + page.count) : nil
            return .pubNub(200, FileBodies.list(page, next: next), .json)
        }
    }

    /// `GET …/files/{id}/{name}`: 307 to the storage URL of the file (no existence check: the
    /// live service signs a URL; the storage answers 404 for a missing object).
    func getFile(_ route: PubNubRoute, request: HTTPRequest, context: RequestContext) -> HTTPResponse {
        let channel: String
        switch fileChannel(route) {
        case .success(let name): channel = name
        case .failure(let error): return error.response
        }
        let subscribeKey = route.subscribeKey ?? ""
        let denied = withState(entry(subscribeKey), subscribeKey: subscribeKey) { state, _, env in
            denial(.read, channels: [channel], groups: [], route: route, state: state, env: env)
        }
        if let denied { return denied }
        let location = StorageURL.base(request: request, context: context)
            + StorageURL.downloadPath(subscribeKey: subscribeKey, channel: channel, id: route.fileID ?? "", name: route.fileName ?? "")
        return HTTPResponse(status: 307, headers: [
            "Cache-Control": "public, max-age=" + String(fileSettings.downloadCacheMaxAge) + ", immutable",
            "Location": location,
        ])
    }

    /// `GET /file-storage/{sub}/{ch}/{id}/{name}`: the bytes, or the storage's 404.
    func storageDownload(_ route: PubNubRoute, request: HTTPRequest) -> HTTPResponse {
        let subscribeKey = route.subscribeKey ?? ""
        let channel = route.channels.first ?? ""
        let id = route.fileID ?? "", name = route.fileName ?? ""
        let file = withState(entry(subscribeKey), subscribeKey: subscribeKey) { state, _, _ in
            state.files.file(channel: channel, id: id, name: name)
        }
        guard let file else {
            return StorageResponses.noSuchKey(UploadForm.objectKey(subscribeKey: subscribeKey, channel: channel, id: id, name: name),
                                              requestID: StorageURL.requestID())
        }
        var response = StorageResponses.download(file)
        if request.method == "HEAD" { response.body = [] }
        return response
    }

    /// `DELETE …/files/{id}/{name}`: `{"status":200}` (recorded), also for a file already gone (UNVERIFIED).
    func deleteFile(_ route: PubNubRoute) -> HTTPResponse {
        let channel: String
        switch fileChannel(route) {
        case .success(let name): channel = name
        case .failure(let error): return error.response
        }
        let subscribeKey = route.subscribeKey ?? ""
        return withState(entry(subscribeKey), subscribeKey: subscribeKey) { state, _, env in
            if let denied = denial(.delete, channels: [channel], groups: [], route: route, state: state, env: env) { return denied }
            state.files.remove(channel: channel, id: route.fileID ?? "", name: route.fileName ?? "")
            return .pubNub(200, FileBodies.deleted, .json)
        }
    }
}

/// A Files request refused before any state was touched.
struct FileRequestError: Error {
    var response: HTTPResponse
    init(_ response: HTTPResponse) { self.response = response }
}
