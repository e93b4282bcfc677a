// SPDX-License-Identifier: MIT
import Foundation
import Testing
@testable import MockPubNubServer

/// File sharing over loopback sockets: upload URL, multipart upload to the mock's storage,
/// publish-file, subscribe and history, list, download redirect, delete, storage errors, admin.
@Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct EndToEndFilesTests {
    /// One request with raw bytes; the parsed response.
    static func send(_ server: EndToEndServer, _ method: String, _ target: String, headers: [String: String] = [:],
                     body: [UInt8] = []) throws -> HTTPResponseText {
        let client = try server.connect()
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        client.send(Array(head.utf8) + body)
        return HTTPResponseText(client.readToEnd().bytes)
    }

    struct Upload {
        var id: String
        var url: String
        var fields: [(String, String)]
        var path: String { String(url.dropFirst("http://127.0.0.1:".count).drop { $0 != "/" }) }
    }

    static func generate(_ server: EndToEndServer, key: String = "fk", channel: String = "docs", name: String) throws -> Upload {
        let response = try send(server, "POST", "/v1/files/\(key)/channels/\(channel)/generate-upload-url?uuid=u",
                                headers: ["Content-Type": "application/json"], body: Array("{\"name\": \"\(name)\"}".utf8))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        let object = try #require(EndToEndServer.json(response.bodyText) as? [String: Any])
        let data = try #require(object["data"] as? [String: Any])
        let request = try #require(object["file_upload_request"] as? [String: Any])
        let form = try #require(request["form_fields"] as? [[String: String]])
        return Upload(id: try #require(data["id"] as? String), url: try #require(request["url"] as? String),
                      fields: form.map { ($0["key"] ?? "", $0["value"] ?? "") })
    }

    static func upload(_ server: EndToEndServer, _ upload: Upload, fields: [(String, String)]? = nil, file: [UInt8],
                       fileFirst: Bool = false) throws -> HTTPResponseText {
        var parts = (fields ?? upload.fields).map { MultipartFormData.Part(name: $0.0, body: Array($0.1.utf8)) }
        let filePart = MultipartFormData.Part(name: "file", fileName: "f", contentType: "application/octet-stream", body: file)
        if fileFirst { parts.insert(filePart, at: 0) } else { parts.append(filePart) }
        return try send(server, "POST", upload.path, headers: ["Content-Type": "multipart/form-data; boundary=tb0"],
                        body: MultipartFormData.encode(parts, boundary: "tb0"))
    }

    @Test func uploadPublishListDownloadAndDeleteRoundTrip() throws {
        let server = try EndToEndServer()
        let upload = try Self.generate(server, name: "king_arthur.txt")
        #expect(upload.url == "http://127.0.0.1:\(server.port)/file-storage/fk/docs")
        #expect(upload.fields.map(\.0) == ["tagging", "key", "Content-Type", "X-Amz-Credential", "X-Amz-Security-Token",
                                           "X-Amz-Algorithm", "X-Amz-Date", "Policy", "X-Amz-Signature"])
        #expect(upload.fields[2].1 == "text/plain; charset=utf-8")
        #expect(upload.id.count == 36)

        let stored = try Self.upload(server, upload, file: Array("Knights who say Ni!".utf8))
        #expect(stored.status == 204)
        #expect(stored.body.isEmpty)
        #expect(stored.header("ETag") == "\"3676cdb7a927db43c846070c4e7606c7\"")  // MD5 of the bytes

        let message = "{\"message\":{\"note\":\"hi\"},\"file\":{\"id\":\"\(upload.id)\",\"name\":\"king_arthur.txt\"}}"
        let (status, sent) = try server.call("/v1/files/publish-file/fk/fk/0/docs/0/\(PercentDecoding.encode(message))?uuid=u&meta=null&store=1&ttl=22")
        #expect(status == 200)
        let timetoken = try #require(EndToEndServer.sentTimetoken(sent))

        let (_, subscribed) = try server.call("/v2/subscribe/fk/docs/0?tt=\(timetoken - 1)&uuid=reader")
        let envelope = try #require(EndToEndServer.envelopes(subscribed).first)
        #expect(envelope["e"] as? Int == 4)
        #expect(envelope["i"] as? String == "u")
        #expect(envelope["s"] == nil)
        #expect(subscribed.contains("\"d\":" + message))

        let (_, fetched) = try server.call("/v3/history/sub-key/fk/channel/docs?include_message_type=true")
        #expect(fetched.contains("{\"message\":" + message + ",\"timetoken\":\"\(timetoken)\",\"message_type\":4}"))

        let (listStatus, list) = try server.call("/v1/files/fk/channels/docs/files?uuid=u")
        #expect(listStatus == 200)
        #expect(list.hasPrefix("{\"status\":200,\"data\":[{\"name\":\"king_arthur.txt\",\"id\":\"\(upload.id)\",\"size\":19,\"created\":\""))
        #expect(list.hasSuffix("\"}],\"next\":null,\"count\":1}"))

        let redirect = try Self.send(server, "GET", "/v1/files/fk/channels/docs/files/\(upload.id)/king_arthur.txt?uuid=u")
        #expect(redirect.status == 307)
        #expect(redirect.header("Cache-Control") == "public, max-age=2235, immutable")
        let location = try #require(redirect.header("Location"))
        #expect(location == "http://127.0.0.1:\(server.port)/file-storage/fk/docs/\(upload.id)/king_arthur.txt")
        let download = try Self.send(server, "GET", String(location.dropFirst("http://127.0.0.1:\(server.port)".count)) + "?uuid=u&pnsdk=x")
        #expect(download.status == 200)
        #expect(download.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(download.bodyText == "Knights who say Ni!")

        let deleted = try Self.send(server, "DELETE", "/v1/files/fk/channels/docs/files/\(upload.id)/king_arthur.txt")
        #expect(deleted.status == 200)
        #expect(deleted.bodyText == "{\"status\":200}")
        let gone = try Self.send(server, "GET", String(location.dropFirst("http://127.0.0.1:\(server.port)".count)))
        #expect(gone.status == 404)
        #expect(gone.header("Content-Type") == "application/xml")
        #expect(gone.bodyText.contains("<Code>NoSuchKey</Code>"))
    }

    @Test func listPagesWithANextTokenWhenThePageIsFull() throws {
        let server = try EndToEndServer()
        var ids: [String] = []
        for index in 0..<3 {
            let upload = try Self.generate(server, name: "f\(index).bin")
            #expect(try Self.upload(server, upload, file: [UInt8(index)]).status == 204)
            ids.append(upload.id)
        }
        let (_, first) = try server.call("/v1/files/fk/channels/docs/files?limit=2")
        let page = try #require(EndToEndServer.json(first) as? [String: Any])
        #expect(page["count"] as? Int == 2)
        #expect((page["data"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == Array(ids.prefix(2)))
        let next = try #require(page["next"] as? String)
        let (_, second) = try server.call("/v1/files/fk/channels/docs/files?limit=2&next=\(next)")
        let rest = try #require(EndToEndServer.json(second) as? [String: Any])
        #expect((rest["data"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [ids[2]])
        #expect(rest["next"] is NSNull)
        let (badStatus, bad) = try server.call("/v1/files/fk/channels/docs/files?next=garbage")
        #expect(badStatus == 400)
        #expect(bad == "{\"status\":400,\"error\":{\"message\":\"[next] is not a valid page token\",\"source\":\"Files\",\"code\":3001}}")
    }

    @Test func theStorageRefusesMissingFieldsFieldsAfterTheFileAndOversizeFiles() throws {
        let server = try EndToEndServer(files: FileServiceSettings(maxFileBytes: 1000, storageBytesPerKeyspace: 1500))
        let upload = try Self.generate(server, name: "a.png")

        let noKey = try Self.upload(server, upload, fields: upload.fields.filter { $0.0 != "key" }, file: [1])
        #expect(noKey.status == 400)
        #expect(noKey.bodyText.contains("<Code>InvalidArgument</Code><Message>Bucket POST must contain a field named 'key'."))
        let noPolicy = try Self.upload(server, upload, fields: upload.fields.filter { $0.0 != "Policy" }, file: [1])
        #expect(noPolicy.bodyText.contains("<ArgumentName>Policy</ArgumentName>"))
        // Fields after the file are ignored, so the key is missing.
        let fileFirst = try Self.upload(server, upload, file: [1], fileFirst: true)
        #expect(fileFirst.status == 400)
        #expect(fileFirst.bodyText.contains("named 'key'"))
        let tampered = try Self.upload(server, upload, fields: upload.fields.map { $0.0 == "Content-Type" ? ($0.0, "text/html") : $0 }, file: [1])
        #expect(tampered.status == 403)
        #expect(tampered.bodyText.contains("<Code>AccessDenied</Code>"))
        let noFile = try Self.send(server, "POST", upload.path, headers: ["Content-Type": "multipart/form-data; boundary=q"],
                                   body: MultipartFormData.encode(upload.fields.map { .init(name: $0.0, body: Array($0.1.utf8)) }, boundary: "q"))
        #expect(noFile.bodyText.contains("POST requires exactly one file upload per request."))
        let garbage = try Self.send(server, "POST", upload.path, headers: ["Content-Type": "text/plain"], body: [1, 2])
        #expect(garbage.status == 400)
        #expect(garbage.bodyText.contains("<Code>MalformedPOSTRequest</Code>"))

        let big = try Self.upload(server, upload, file: [UInt8](repeating: 7, count: 1001))
        #expect(big.status == 400)
        #expect(big.bodyText.contains("<Code>EntityTooLarge</Code>"))
        #expect(big.bodyText.contains("<ProposedSize>1001</ProposedSize><MaxSizeAllowed>1000</MaxSizeAllowed>"))
        #expect(try Self.upload(server, upload, file: [UInt8](repeating: 7, count: 1000)).status == 204)
        // The keyspace cap (1500 bytes) leaves 500 for a second file.
        let second = try Self.generate(server, name: "b.png")
        let overCap = try Self.upload(server, second, file: [UInt8](repeating: 1, count: 600))
        #expect(overCap.bodyText.contains("<MaxSizeAllowed>500</MaxSizeAllowed>"))

        let admin = try Self.send(server, "GET", "/__admin/files/fk")
        let listed = try #require(EndToEndServer.json(admin.bodyText) as? [String: Any])
        #expect(listed["count"] as? Int == 1)
        #expect(listed["bytes"] as? Int == 1000)
        #expect(try Self.send(server, "DELETE", "/__admin/files").bodyText == "{\"removed\":1}")
        #expect(server.server.service.fileSummaries(subscribeKey: nil).isEmpty)
    }

    @Test func publishFileValidatesTheCustomMessageTypeAndDeliversCmt() throws {
        let server = try EndToEndServer()
        let message = PercentDecoding.encode("{\"file\":{\"id\":\"2222\",\"name\":\"test\"}}")
        for bad in ["ab", "-abc", "_abc", "pn-abc", "PN_abc", "a b c", String(repeating: "x", count: 51)] {
            let (status, body) = try server.call("/v1/files/publish-file/fk/fk/0/docs/0/\(message)?custom_message_type=\(PercentDecoding.encode(bad))")
            #expect(status == 400, "\(bad)")
            #expect(body.hasPrefix("[0,\"Invalid custom message type\",\""), "\(bad)")
        }
        let (status, sent) = try server.call("/v1/files/publish-file/fk/fk/0/docs/0/\(message)?custom_message_type=file-msg&store=0&uuid=p")
        #expect(status == 200)
        let timetoken = try #require(EndToEndServer.sentTimetoken(sent))
        let (_, subscribed) = try server.call("/v2/subscribe/fk/docs/0?tt=\(timetoken - 1)")
        #expect(EndToEndServer.envelopes(subscribed).first?["cmt"] as? String == "file-msg")
        let (_, fetched) = try server.call("/v3/history/sub-key/fk/channel/docs")
        #expect(fetched == "{\"status\": 200, \"error\": false, \"error_message\": \"\", \"channels\": {}}")
    }

    @Test func faultPlansAimAtTheStorageByEndpointName() throws {
        let server = try EndToEndServer()
        try server.server.installPlan(json: Array(#"{"rules":[{"match":{"endpoint":"files"},"nth":2,"fault":{"kind":"status","status":503}}]}"#.utf8),
                                      subscribeKey: "fk")
        let upload = try Self.generate(server, name: "a.txt")
        #expect(try Self.upload(server, upload, file: [1]).status == 503)
        #expect(try Self.upload(server, upload, file: [1]).status == 204)
        let journal = try Self.send(server, "GET", "/__admin/journal/fk")
        #expect(journal.bodyText.contains("\"endpoint\":\"storage-upload\""))
        #expect(journal.bodyText.contains("\"endpoint\":\"generate-upload-url\""))
    }
}
