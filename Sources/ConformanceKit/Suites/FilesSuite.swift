// SPDX-License-Identifier: MIT
import HarnessJSON

/// File sharing (spec pubnub-modern §3): send, list, download, URL, delete, file events, history of
/// file messages, custom message types, encryption, and faults on the storage upload and download.
enum FilesSuite {
    static let files: Set<Capability> = [.files]
    static let content = "Knights who say Ni!"
    static let name = "king_arthur.txt"
    /// Short request timeouts for the stall cases.
    static let quick = ClientOverrides(nonSubscribeTimeoutMs: 300)

    static func op(_ operation: FileOperation) -> CaseStep { .perform(.files(operation)) }

    static func send(_ channel: String = "ch-file", name: String = name, message: JSONValue? = nil, customMessageType: String? = nil,
                     sizeBytes: Int? = nil) -> CaseStep {
        op(.sendFile(channel: channel, name: name, content: content, sizeBytes: sizeBytes, message: message,
                     customMessageType: customMessageType))
    }

    static let sent = CaseStep.expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false, data: ["name": .string(name)],
                                                            timetokenPaths: ["timetoken"]))
    static let downloaded = CaseStep.expectResult(.success(["name": .string(name), "content": .string(content)]))
    static let download = op(.downloadFile(channel: "ch-file", fileID: FileOperation.fileIDPlaceholder, fileName: name))

    static func fileEvent(_ channel: String = "ch-file", message: JSONValue? = nil) -> CaseStep {
        var expected: JSONObject = ["file": ["name": .string(name)]]
        if let message { expected["message"] = message }
        return .expectMessages([ExpectedMessage(channel: channel, message: .object(expected), isFile: true)], withinMs: 1_500)
    }

    /// A failed step of the file flow: the category (and HTTP status when there is one).
    static func failed(_ category: StatusCategory, status: Int? = nil) -> CaseStep {
        .expectResult(ExpectedResult(category: .some(category), isError: true, statusCode: status))
    }

    static var cases: [ConformanceCase] {
        basics + history + types + encryption + faults
    }

    static var basics: [ConformanceCase] {
        [
            ConformanceCase(
                "files.send.flow", "sendFile asks for an upload form, uploads to its URL, then publishes the file message", spec: "§3.1",
                steps: [send(), sent,
                        .expectJournal(.count(endpoint: "generate-upload-url", atLeast: 1, atMost: 1), withinMs: 300),
                        .expectJournal(.followedBy(after: "storage-upload", afterQuery: [:], endpoint: "publish-file", query: [:]), withinMs: 300)],
                expected: [.acknowledgment], requires: files),
            ConformanceCase(
                "files.list.empty", "The file list of an empty channel is empty", spec: "§3.2",
                steps: [op(.listFiles(channel: "ch-none")), .expectResult(.success(["files": [], "count": 0]))],
                expected: [], requires: files),
            ConformanceCase(
                "files.list.uploaded", "A sent file is listed with its name and size", spec: "§3.2",
                steps: [send(), sent, op(.listFiles(channel: "ch-file")),
                        .expectResult(.success(["files": [["name": .string(name), "size": 19]], "count": 1]))],
                expected: [.acknowledgment], requires: files),
            ConformanceCase(
                "files.list.pages", "limit pages the list; next gives the rest", spec: "§3.2",
                steps: [send(name: "a.txt"), send(name: "b.txt"), send(name: "c.txt"),
                        op(.listFiles(channel: "ch-file", limit: 2)),
                        .expectResult(.success(["files": [["name": "a.txt"], ["name": "b.txt"]], "count": 2])),
                        op(.listFiles(channel: "ch-file", limit: 2, next: FileOperation.nextPagePlaceholder)),
                        .expectResult(.success(["files": [["name": "c.txt"]], "count": 1]))],
                expected: [.acknowledgment], requires: files),
            ConformanceCase(
                "files.download.bytes", "Downloading follows the redirect to the storage and returns the bytes", spec: "§3.2",
                steps: [send(), sent, download, downloaded,
                        .expectJournal(.followedBy(after: "get-file", afterQuery: [:], endpoint: "storage-download", query: [:]), withinMs: 300)],
                expected: [.acknowledgment], requires: files),
            ConformanceCase(
                "files.url.built", "The file URL of a sent file is given without an error", spec: "§3.2",
                steps: [send(), sent, op(.getFileURL(channel: "ch-file", fileID: FileOperation.fileIDPlaceholder, fileName: name)),
                        .expectResult(ExpectedResult(isError: false))],
                expected: [.acknowledgment], requires: files),
            ConformanceCase(
                "files.delete.unlisted", "A deleted file is no longer listed", spec: "§3.2",
                steps: [send(), sent, op(.deleteFile(channel: "ch-file", fileID: FileOperation.fileIDPlaceholder, fileName: name)),
                        .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false)),
                        op(.listFiles(channel: "ch-file")), .expectResult(.success(["files": [], "count": 0]))],
                expected: [.acknowledgment], requires: files),
            ConformanceCase(
                "files.event.subscribe", "A subscriber receives the file event with the file name and the message", spec: "§3.3",
                steps: [.subscribe(["ch-file"]), .expect(.connected), send(message: ["note": "hi"]), sent,
                        fileEvent(message: ["note": "hi"])],
                expected: [.connected, .acknowledgment], requires: files),
            ConformanceCase(
                "files.publish.message-again", "Publishing the message of an uploaded file again delivers another file event", spec: "§3.1",
                steps: [send(), sent, .subscribe(["ch-file"]), .expect(.connected),
                        op(.publishFileMessage(channel: "ch-file", fileID: FileOperation.fileIDPlaceholder, fileName: name, message: "again")),
                        .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false, timetokenPaths: ["timetoken"])),
                        fileEvent(message: "again")],
                expected: [.acknowledgment, .connected], requires: files),
        ]
    }

    static var history: [ConformanceCase] {
        [
            ConformanceCase(
                "files.history.fetch", "Fetch messages returns the file message with its file and message", spec: "§3.3",
                steps: [send(message: "look"), sent,
                        .perform(.fetchMessages(channels: ["ch-file"])),
                        .expectResult(.success(["channels": ["ch-file": [["message": ["message": "look", "file": ["name": .string(name)]]]]]]))],
                expected: [.acknowledgment], requires: files.union([.history])),
            ConformanceCase(
                "files.history.v2", "History returns the file message", spec: "§3.3",
                steps: [send(message: "look"), sent, .perform(.history(channel: "ch-file")),
                        .expectResult(.success(["messages": [["message": ["message": "look", "file": ["name": .string(name)]]]]]))],
                expected: [.acknowledgment], requires: files.union([.history])),
        ]
    }

    static var types: [ConformanceCase] {
        [
            ConformanceCase(
                "files.custom-message-type.sent", "custom_message_type travels with the file message and arrives with the event", spec: "§6.2",
                steps: [.subscribe(["ch-file"]), .expect(.connected), send(customMessageType: "file-note"), sent,
                        .expectJournal(.count(endpoint: "publish-file", query: ["custom_message_type": "file-note"], atLeast: 1), withinMs: 300),
                        fileEvent()],
                expected: [.connected, .acknowledgment], requires: files),
            ConformanceCase(
                "files.custom-message-type.refused", "A reserved custom message type (pn-…) is refused", spec: "§6.2",
                steps: [send(customMessageType: "pn-reserved"), failed(.badRequest)],
                expected: [.badRequest], requires: files),
            ConformanceCase(
                "files.upload.oversize", "A file over 5 MiB is refused by the storage", spec: "§3.2",
                steps: [send(name: "big.bin", sizeBytes: 5 * 1024 * 1024 + 1), failed(.badRequest, status: 400),
                        .expectJournal(.count(endpoint: "publish-file", atLeast: 0, atMost: 0), withinMs: 100)],
                expected: [.badRequest], timeBudget: .seconds(3), requires: files),
        ]
    }

    static var encryption: [ConformanceCase] {
        [
            ConformanceCase(
                "files.encrypted.round-trip", "An encrypted file (CryptoModule aescbc) downloads to the original bytes", spec: "§3.2, crypto §4",
                client: ClientOverrides(cipherKey: "enigma", cipherScheme: "aescbc"),
                steps: [send(), sent, download, downloaded,
                        .expectJournal(.pathContains(endpoint: "publish-file", substring: "/0/%22", true), withinMs: 300)],
                expected: [.acknowledgment], requires: files.union([.encryption])),
            ConformanceCase(
                "files.encrypted.legacy", "An encrypted file (legacy cipher, random IV for files) downloads to the original bytes", spec: "crypto §4",
                client: ClientOverrides(cipherKey: "enigma", cipherScheme: "legacy"),
                steps: [send(), sent, download, downloaded],
                expected: [.acknowledgment], requires: files.union([.encryption])),
            ConformanceCase(
                "files.encrypted.event", "The encrypted file message is decrypted for the file event", spec: "§3.3",
                client: ClientOverrides(cipherKey: "enigma", cipherScheme: "aescbc"),
                steps: [.subscribe(["ch-file"]), .expect(.connected), send(message: ["secret": 1]), sent, fileEvent(message: ["secret": 1])],
                expected: [.connected, .acknowledgment], requires: files.union([.encryption])),
        ]
    }

    static var faults: [ConformanceCase] {
        let reset = FaultCatalog.transport("reset", "", PlanBuilder.kind("reset")).requestAlternatives
        func fault(_ id: String, _ title: String, endpoint: String, fault: JSONValue, category: StatusCategory, status: Int? = nil,
                   alternatives: [Alternative] = [], downloading: Bool) -> ConformanceCase {
            ConformanceCase(
                id, title, spec: "§3.2, §11.3",
                plan: PlanBuilder.plan(PlanBuilder.rule(id, endpoint: endpoint, times: 1, fault: fault)), client: quick,
                steps: downloading ? [send(), sent, download, failed(category, status: status)] : [send(), failed(category, status: status)],
                expected: downloading ? [.acknowledgment, category] : [category], alternatives: alternatives,
                requires: files)
        }
        return [
            fault("files.upload.status-500", "The storage answers the upload with 500 → PNUnknownCategory", endpoint: "storage-upload",
                  fault: PlanBuilder.status(500), category: .unknown, status: 500, downloading: false),
            fault("files.upload.reset", "The storage resets the upload → PNNetworkIssuesCategory", endpoint: "storage-upload",
                  fault: PlanBuilder.kind("reset"), category: .networkIssues, alternatives: reset, downloading: false),
            fault("files.upload.stall", "The storage never answers the upload → PNTimeoutCategory", endpoint: "storage-upload",
                  fault: PlanBuilder.kind("hang"), category: .timeout, downloading: false),
            fault("files.download.status-503", "The storage answers the download with 503 → PNUnknownCategory", endpoint: "storage-download",
                  fault: PlanBuilder.status(503), category: .unknown, status: 503, downloading: true),
            fault("files.download.reset", "The storage resets the download → PNNetworkIssuesCategory", endpoint: "storage-download",
                  fault: PlanBuilder.kind("reset"), category: .networkIssues, alternatives: reset, downloading: true),
            fault("files.download.stall", "The storage never answers the download → PNTimeoutCategory", endpoint: "storage-download",
                  fault: PlanBuilder.kind("hang"), category: .timeout, downloading: true),
            ConformanceCase(
                "files.publish.retried", "A failed publish-file step is repeated and the send succeeds", spec: "§3.2",
                plan: PlanBuilder.plan(PlanBuilder.rule("publish-file-503", endpoint: "publish-file", times: 1, fault: PlanBuilder.status(503))),
                steps: [send(), sent, .expectJournal(.count(endpoint: "publish-file", atLeast: 2), withinMs: 300)],
                expected: [.acknowledgment], requires: files),
        ]
    }
}
