// SPDX-License-Identifier: MIT
import HarnessJSON
import MockPubNubServer
import PubNubCrypto
import Testing
@testable import ClientUnderTest

/// File sharing end to end against the in-process mock server: send, event, list, download, delete,
/// encryption, and failures of the storage upload and of the publish step.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MockServerFileTests {
    @Test func sendDeliversAFileEventAndTheFileCanBeListedDownloadedAndDeleted() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let sender = try makeClient(origin: mock.origin)
        let receiver = try makeClient(origin: mock.origin) { $0.uuid = "reader" }
        let events = Recorder()
        receiver.addListener(events)
        try await receiver.subscribe(channels: ["docs"])
        #expect(await events.waitStatuses(1)?.map(\.category) == [.connected])

        let bytes = Array("Knights who say Ni!".utf8)
        let sent = try await sender.sendFile(channel: "docs", name: "king_arthur.txt", data: bytes, message: ["note": "hi"],
                                             customMessageType: "file-note")
        let event = try #require(await events.events.wait(timeout: 5) { $0.contains { $0.fileEvent != nil } }?.compactMap(\.fileEvent).first)
        #expect(event.fileID == sent.id)
        #expect(event.fileName == "king_arthur.txt")
        #expect(event.message == ["note": "hi"])
        #expect(event.publisher == "tester")
        #expect(event.customMessageType == "file-note")
        #expect(event.timetoken == sent.timetoken)
        #expect(event.fileURL == "http://\(mock.origin)/v1/files/sub-k/channels/docs/files/\(sent.id)/king_arthur.txt?uuid=reader&pnsdk=PubNub-Swift-Linux%2F1.0.0")

        let list = try await sender.listFiles(channel: "docs")
        #expect(list.files.map(\.id) == [sent.id])
        #expect(list.files.first?.size == 19)
        #expect(list.next == nil)
        let download = try await receiver.downloadFile(channel: "docs", fileID: sent.id, fileName: "king_arthur.txt")
        #expect(download.data == bytes)
        #expect(download.contentType == "text/plain; charset=utf-8")
        #expect(try await sender.deleteFile(channel: "docs", fileID: sent.id, fileName: "king_arthur.txt").category == .acknowledgment)
        #expect(try await sender.listFiles(channel: "docs").files.isEmpty)
        await #expect(throws: PNStatus.self) { _ = try await receiver.downloadFile(channel: "docs", fileID: sent.id, fileName: "king_arthur.txt") }
        // The upload was a multipart POST to the mock's storage, fields in order and the file last.
        let upload = try #require(mock.journal.first { $0.endpoint == .storageUpload })
        #expect(upload.path == "/file-storage/sub-k/docs")
        #expect(upload.body?.hasSuffix("Knights who say Ni!\r\n--" + (upload.body?.split(separator: "\r\n").first?.dropFirst(2) ?? "") + "--\r\n") == true)
        await receiver.unsubscribeAll()
    }

    @Test(arguments: [CryptoScheme.aesCBC, .legacy])
    func encryptedFilesRoundTripAndAreStoredEncrypted(scheme: CryptoScheme) async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let cipher = try PubNubCryptoCipher(cipherKey: "enigma", scheme: scheme)
        let client = try makeClient(origin: mock.origin) { $0.cipher = cipher }
        let bytes = (0..<300).map { UInt8($0 % 251) }
        let sent = try await client.sendFile(channel: "vault", name: "data.bin", data: bytes, message: "secret")
        let stored = try #require(mock.server.service.fileSummaries(subscribeKey: "sub-k").first)
        #expect(stored.size != bytes.count)
        #expect(try await client.downloadFile(channel: "vault", fileID: sent.id, fileName: "data.bin").data == bytes)
        // The file message travelled encrypted as a whole: a JSON string in the path.
        let publish = try #require(mock.journal.first { $0.endpoint == .publishFile })
        #expect(publish.path.hasPrefix("/v1/files/publish-file/pub-k/sub-k/0/vault/0/%22"))
        // A client without the key gets the ciphertext; the module reads it as the scheme's format.
        let plain = try makeClient(origin: mock.origin)
        let raw = try await plain.downloadFile(channel: "vault", fileID: sent.id, fileName: "data.bin").data
        var reader = cipher.module
        if scheme == .legacy { reader.scheme = .legacyRandomIV }
        #expect(try reader.decrypt(raw) == bytes)
        if scheme == .aesCBC { #expect(Array(raw.prefix(8)) == Array("PNED\u{01}ACR".utf8)) }
    }

    @Test func aFailedUploadIsReportedWithTheStorageErrorAndNothingIsPublished() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let client = try makeClient(origin: mock.origin)
        try mock.installRule(match: #"{"endpoint":"storage-upload"}"#, times: 1, fault: #"{"kind":"status","status":500}"#)
        await #expect { _ = try await client.sendFile(channel: "docs", name: "a.txt", data: [1]) } throws: { error in
            (error as? PNStatus)?.category == .unknown && (error as? PNStatus)?.statusCode == 500
        }
        #expect(!mock.journal.contains { $0.endpoint == .publishFile })
        // Oversize: the storage's EntityTooLarge, read as a bad request.
        let big = [UInt8](repeating: 1, count: 5 * 1024 * 1024 + 1)
        await #expect { _ = try await client.sendFile(channel: "docs", name: "big.bin", data: big) } throws: { error in
            let status = error as? PNStatus
            return status?.category == .badRequest && status?.errorData?.information == "Your proposed upload exceeds the maximum allowed size"
        }
        // Exactly the limit goes through the route's larger body limit.
        let limit = [UInt8](repeating: 2, count: 5 * 1024 * 1024)
        let sent = try await client.sendFile(channel: "docs", name: "limit.bin", data: limit)
        #expect(try await client.downloadFile(channel: "docs", fileID: sent.id, fileName: "limit.bin").data.count == limit.count)
        // The journal keeps the first 64 KiB of an upload's body, not the whole file.
        let uploads = mock.journal.filter { $0.endpoint == .storageUpload }
        #expect(uploads.count == 3)
        #expect(uploads.last?.body?.utf8.count == 64 * 1024)
    }

    @Test func thePublishStepIsRetriedAndAFinalFailureCarriesTheFileID() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let client = try makeClient(origin: mock.origin) { $0.fileUploadPublishRetryLimit = 2 }
        try mock.installRule(match: #"{"endpoint":"publish-file"}"#, times: 2, fault: #"{"kind":"status","status":503}"#)
        let sent = try await client.sendFile(channel: "docs", name: "a.txt", data: [1])
        #expect(mock.journal.filter { $0.endpoint == .publishFile }.count == 3)
        #expect(sent.timetoken > 0)

        try mock.installRule(match: #"{"endpoint":"publish-file"}"#, fault: #"{"kind":"status","status":503}"#)
        await #expect { _ = try await client.sendFile(channel: "docs", name: "b.txt", data: [2]) } throws: { error in
            guard let status = error as? PNStatus, status.operation == .sendFile, status.statusCode == 503,
                  let id = status.errorData?.body?["id"]?.stringValue else { return false }
            return mock.server.service.fileSummaries(subscribeKey: "sub-k").contains { $0.id == id && $0.name == "b.txt" }
        }
        // A refused custom message type is not repeated.
        mock.server.clearPlan(subscribeKey: "sub-k")
        let before = mock.journal.filter { $0.endpoint == .publishFile }.count
        await #expect { _ = try await client.sendFile(channel: "docs", name: "c.txt", data: [3], customMessageType: "pn-bad") } throws: { error in
            (error as? PNStatus)?.category == .badRequest
        }
        #expect(mock.journal.filter { $0.endpoint == .publishFile }.count == before + 1)
    }

    @Test func listPagesAndFileURLsAreBuiltLocally() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let client = try makeClient(origin: mock.origin)
        var ids: [String] = []
        for n in 0..<3 { ids.append(try await client.sendFile(channel: "pages", name: "f\(n).txt", data: [UInt8(n)]).id) }
        let first = try await client.listFiles(channel: "pages", limit: 2)
        #expect(first.files.map(\.id) == Array(ids.prefix(2)))
        #expect(first.count == 2)
        let second = try await client.listFiles(channel: "pages", limit: 2, next: first.next)
        #expect(second.files.map(\.id) == [ids[2]])
        let requests = mock.journal.count
        #expect(client.fileURL(channel: "pages", fileID: "x", fileName: "a b.txt").hasSuffix("/v1/files/sub-k/channels/pages/files/x/a%20b.txt?uuid=tester&pnsdk=PubNub-Swift-Linux%2F1.0.0"))
        #expect(mock.journal.count == requests)
    }
}
