// SPDX-License-Identifier: MIT
import HarnessHTTPClient
import HarnessJSON
import PubNubCrypto

/// File sharing (spec pubnub-modern §3): send (upload URL, multipart upload, publish-file with
/// retries), publish a file message, list, download URL, download, delete.
extension PubNubClient {
    /// Sends a file: asks for an upload form, uploads the (encrypted, with a cipher) bytes to the
    /// URL it names, then publishes the file message, repeating that publish up to
    /// `fileUploadPublishRetryLimit` times. When the publish keeps failing, the thrown status
    /// carries the uploaded file's `id` and `name` in `errorData.body`.
    public func sendFile(channel: String, name: String, data: [UInt8], message: JSONValue? = nil, meta: JSONValue? = nil,
                         store: Bool? = nil, ttl: Int? = nil, customMessageType: String? = nil) async throws(PNStatus)
        -> PNFileUploadResult
    {
        try NameValidation.check([channel], kind: "channel", operation: .sendFile)
        guard !name.isEmpty else {
            throw PNStatus(category: .badRequest, operation: .sendFile, errorData: PNErrorData(information: "file name is empty"))
        }
        let config = configuration
        let payload: [UInt8]
        do {
            payload = try FileCrypto.module(config.cipher)?.encrypt(data) ?? data
        } catch let status as PNStatus {
            throw status
        } catch {
            throw PNStatus(category: .badRequest, operation: .sendFile, errorData: PNErrorData(information: "encryption failed: \(error)"))
        }
        let generate = FileEndpoints.generateUploadURL(subscribeKey: config.subscribeKey, channel: channel, name: name)
        let form = try await perform(generate, parse: Self.shaped(generate, FileEndpoints.uploadForm)).get()
        try await upload(form, data: payload)
        var last: PNStatus?
        for _ in 0...max(0, config.fileUploadPublishRetryLimit) {
            do {
                let published = try await publishFileMessage(channel: channel, fileID: form.id, fileName: form.name, message: message,
                                                             meta: meta, store: store, ttl: ttl, customMessageType: customMessageType)
                return PNFileUploadResult(id: form.id, name: form.name, timetoken: published.timetoken)
            } catch {
                last = error
                // A refusal (400, 403) is not repeated: the same request would be refused again.
                if error.category == .badRequest || error.category == .accessDenied { break }
            }
        }
        let failure = last ?? PNStatus(category: .unknown, operation: .publishFileMessage)
        throw PNStatus(category: failure.category, operation: .sendFile, statusCode: failure.statusCode,
                       errorData: PNErrorData(information: "file uploaded, publishing its message failed: \(failure.errorData?.information ?? "")",
                                              channels: [channel], body: .object([("id", .string(form.id)), ("name", .string(form.name))])),
                       request: failure.request)
    }

    /// Publishes the message of a file already uploaded (encrypted as a whole with a cipher).
    public func publishFileMessage(channel: String, fileID: String, fileName: String, message: JSONValue? = nil,
                                   meta: JSONValue? = nil, store: Bool? = nil, ttl: Int? = nil,
                                   customMessageType: String? = nil) async throws(PNStatus) -> PNPublishResult
    {
        try NameValidation.check([channel], kind: "channel", operation: .publishFileMessage)
        let config = configuration
        guard let publishKey = config.publishKey else {
            throw PNStatus(category: .badRequest, operation: .publishFileMessage, errorData: PNErrorData(information: "no publish key configured"))
        }
        var content: [(String, JSONValue)] = []
        if let message { content.append(("message", message)) }
        content.append(("file", .object([("id", .string(fileID)), ("name", .string(fileName))])))
        let text: String
        do {
            text = try MessageCrypto.encryptedText(.object(JSONObject(content)), cipher: config.cipher)
        } catch {
            throw PNStatus(category: .badRequest, operation: .publishFileMessage, errorData: PNErrorData(information: "encryption failed: \(error)"))
        }
        let request = FileEndpoints.publishFile(publishKey: publishKey, subscribeKey: config.subscribeKey, channel: channel, messageText: text,
                                                meta: meta, store: store, ttl: ttl, customMessageType: customMessageType)
        let parse = PublishEndpoints.parse(request)
        return try await send(request).flatMap(parse).get()
    }

    /// The files of a channel, oldest first (`limit` ≤ 100, `next` from a previous page).
    public func listFiles(channel: String, limit: Int? = nil, next: String? = nil) async throws(PNStatus) -> PNListFilesResult {
        try NameValidation.check([channel], kind: "channel", operation: .listFiles)
        let request = FileEndpoints.listFiles(subscribeKey: configuration.subscribeKey, channel: channel, limit: limit, next: next)
        return try await perform(request, parse: Self.shaped(request, FileEndpoints.list)).get()
    }

    /// Deletes a file.
    public func deleteFile(channel: String, fileID: String, fileName: String) async throws(PNStatus) -> PNStatus {
        try NameValidation.check([channel], kind: "channel", operation: .deleteFile)
        let request = FileEndpoints.deleteFile(subscribeKey: configuration.subscribeKey, channel: channel, id: fileID, name: fileName)
        return try await perform(request, parse: Self.acknowledgment(request)).get()
    }

    /// The download URL of a file, built locally as the SDKs do (no request): the service answers
    /// it with a redirect to the bytes.
    public func fileURL(channel: String, fileID: String, fileName: String) -> String {
        let config = configuration
        let request = FileEndpoints.downloadFile(subscribeKey: config.subscribeKey, channel: channel, id: fileID, name: fileName)
        let host = config.host.contains(":") ? "[\(config.host)]" : config.host
        let defaultPort = config.tlsEnabled ? 443 : 80
        return (config.tlsEnabled ? "https://" : "http://") + host + (config.port == defaultPort ? "" : ":\(config.port)")
            + targetBuilder.target(for: request)
    }

    /// Downloads a file: follows the service's redirect to the storage and decrypts with the cipher.
    public func downloadFile(channel: String, fileID: String, fileName: String) async throws(PNStatus) -> PNFileDownloadResult {
        try NameValidation.check([channel], kind: "channel", operation: .downloadFile)
        let config = configuration
        let request = FileEndpoints.downloadFile(subscribeKey: config.subscribeKey, channel: channel, id: fileID, name: fileName)
        let http = targetBuilder.httpRequest(for: request)
        var response = try Self.fileResponse(await transport.perform(http, timeout: config.nonSubscribeRequestTimeout),
                                             operation: .downloadFile, summary: http.summary)
        if (301...308).contains(response.statusCode), let location = response.header("location") {
            let target: (HTTPTransport, String)
            if location.hasPrefix("/") {
                target = (transport, location)
            } else if let url = FileURL(location) {
                target = (try storageTransport(for: url, operation: .downloadFile), url.target)
            } else {
                throw PNStatus(category: .malformedResponse, operation: .downloadFile, statusCode: response.statusCode,
                               errorData: PNErrorData(information: "unusable Location \"\(location)\""), request: http.summary)
            }
            let follow = HTTPClientRequest(method: "GET", target: target.1)
            response = try Self.fileResponse(await target.0.perform(follow, timeout: config.nonSubscribeRequestTimeout),
                                             operation: .downloadFile, summary: follow.summary)
        }
        guard response.statusCode == 200 else {
            throw Self.storageStatus(response, operation: .downloadFile, summary: http.summary)
        }
        var bytes = response.body
        if let module = try FileCrypto.module(config.cipher) {
            do {
                bytes = try module.decrypt(bytes)
            } catch {
                throw PNStatus(category: .decryptionError, operation: .downloadFile, statusCode: 200,
                               errorData: PNErrorData(information: "file could not be decrypted: \(error)"), request: http.summary)
            }
        }
        return PNFileDownloadResult(name: fileName, data: bytes, contentType: response.header("content-type"))
    }

    /// POSTs the form fields in order and the file last to the upload URL.
    func upload(_ form: FileUploadForm, data: [UInt8]) async throws(PNStatus) {
        guard let url = FileURL(form.url) else {
            throw PNStatus(category: .malformedResponse, operation: .sendFile,
                           errorData: PNErrorData(information: "unusable upload URL \"\(form.url)\""))
        }
        let storage = try storageTransport(for: url, operation: .sendFile)
        let boundary = MultipartBody.boundary(avoiding: data)
        let request = HTTPClientRequest(method: "POST", target: url.target,
                                        body: MultipartBody.encode(fields: form.fields, fileName: form.name, data: data, boundary: boundary),
                                        contentType: "multipart/form-data; boundary=\(boundary)")
        let response = try Self.fileResponse(await storage.perform(request, timeout: configuration.nonSubscribeRequestTimeout),
                                             operation: .sendFile, summary: request.summary)
        guard (200..<300).contains(response.statusCode) else {
            throw Self.storageStatus(response, operation: .sendFile, summary: request.summary)
        }
    }

    /// The client's own transport when `url` is its origin, else one for the storage's host.
    private func storageTransport(for url: FileURL, operation: PNOperationType) throws(PNStatus) -> HTTPTransport {
        let config = configuration
        if url.host == transport.host, url.port == transport.port, url.isTLS == config.tlsEnabled { return transport }
        do {
            return try HTTPTransport(host: url.host, port: url.port, trustedCA: url.isTLS ? config.trustedCA : nil, userAgent: config.sdkName)
        } catch {
            throw PNStatus(category: .tlsConnectionFailed, operation: operation, errorData: PNErrorData(information: error.description))
        }
    }

    private static func fileResponse(_ outcome: Result<HTTPClientResponse, TransportError>, operation: PNOperationType,
                                     summary: String) throws(PNStatus) -> HTTPClientResponse {
        switch outcome {
        case .success(let response): return response
        case .failure(let error):
            throw PNStatus(category: error.category, operation: operation,
                           errorData: PNErrorData(information: error.description, transportError: error), request: summary)
        }
    }

    /// A failed storage or redirect answer: the category by status, the XML `<Message>` (or JSON message) as information.
    static func storageStatus(_ response: HTTPClientResponse, operation: PNOperationType, summary: String) -> PNStatus {
        let code = response.statusCode
        let category: PNStatusCategory = switch code {
        case 400: .badRequest
        case 403: .accessDenied
        case 404: .resourceNotFound
        default: .unknown
        }
        let text = String(decoding: response.body, as: UTF8.self)
        var information = "HTTP \(code)"
        if let open = text.range(of: "<Message>"), let close = text.range(of: "</Message>"), open.upperBound <= close.lowerBound {
            information = String(text[open.upperBound..<close.lowerBound])
        } else if let json = try? JSONValue.parse(response.body), let message = ResponseClassifier.serverMessage(json) {
            information = message
        }
        return PNStatus(category: category, operation: operation, statusCode: code,
                        errorData: PNErrorData(information: information, body: try? JSONValue.parse(response.body)), request: summary)
    }
}
