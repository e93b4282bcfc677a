// SPDX-License-Identifier: MIT
import HarnessTesting
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Preflights (`OPTIONS`) on loopback, exact heads (the `Date` line checked, then taken out):
/// every route admits the announced method and echoes the announced headers (INFERRED answers).
@Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct PreflightEndToEndTests {
    static let all = "GET, POST, PUT, PATCH, DELETE, OPTIONS"

    @Test func publishByPostWithAJSONBody() async throws {
        try await EndToEnd.run { _, port in
            let answer = try CrossOrigin.send(port: port, CrossOrigin.preflight(
                "/publish/pub-k/sub-k/0/ch/0?uuid=u1", method: "POST", headers: "content-type"))
            #expect(CrossOrigin.undated(answer.head) == CrossOrigin.preflightHead(methods: Self.all, allowHeaders: "content-type"))
            #expect(answer.body.isEmpty)
        }
    }

    @Test func appContextPatchWithIfMatch() async throws {
        try await EndToEnd.run { _, port in
            let answer = try CrossOrigin.send(port: port, CrossOrigin.preflight(
                "/v2/objects/sub-k/uuids/u1?uuid=u1", method: "PATCH", headers: "Content-Type, If-Match"))
            #expect(CrossOrigin.undated(answer.head) == CrossOrigin.preflightHead(
                methods: Self.all, allowHeaders: "Content-Type, If-Match", credentials: true, expose: true))
        }
    }

    @Test func deleteHistoryAndAnUnlistedMethodIsAdmitted() async throws {
        try await EndToEnd.run { _, port in
            let delete = try CrossOrigin.send(port: port, CrossOrigin.preflight("/v3/history/sub-key/sub-k/channel/ch", method: "DELETE", headers: nil))
            #expect(CrossOrigin.undated(delete.head) == CrossOrigin.preflightHead(methods: Self.all, allowHeaders: nil))
            let odd = try CrossOrigin.send(port: port, CrossOrigin.preflight("/time/0", method: "PROPFIND", headers: nil))
            #expect(odd.header("Access-Control-Allow-Methods") == Self.all + ", PROPFIND")
        }
    }

    @Test func generateUploadURLAndTheStorageUpload() async throws {
        try await EndToEnd.run { _, port in
            let generate = try CrossOrigin.send(port: port, CrossOrigin.preflight(
                "/v1/files/sub-k/channels/ch/generate-upload-url?uuid=u1", method: "POST", headers: "content-type"))
            #expect(CrossOrigin.undated(generate.head) == CrossOrigin.preflightHead(
                methods: Self.all, allowHeaders: "content-type", credentials: true, expose: true))
            let upload = try CrossOrigin.send(port: port, CrossOrigin.preflight("/file-storage/sub-k/upload", method: "POST", headers: nil))
            #expect(CrossOrigin.undated(upload.head) == CrossOrigin.preflightHead(methods: Self.all, allowHeaders: nil, expose: true))
        }
    }

    @Test func adminRoutesAndThePusherAuthEndpoint() async throws {
        try await EndToEnd.run { _, port in
            for target in ["/__admin/plans/sub-k", "/__admin", "/__admin/pusher/auth/key/user"] {
                let answer = try CrossOrigin.send(port: port, CrossOrigin.preflight(target, method: "PUT", headers: "content-type"))
                #expect(CrossOrigin.undated(answer.head) == CrossOrigin.preflightHead(
                    methods: Self.all, allowHeaders: "content-type", expose: true), "\(target)")
            }
        }
    }

    @Test func aPreflightIsJournaledUnderItsKey() async throws {
        try await EndToEnd.run { server, port in
            _ = try CrossOrigin.send(port: port, CrossOrigin.preflight("/v3/history/sub-key/sub-j/channel/ch", method: "DELETE", headers: nil))
            let entries = server.journal(subscribeKey: "sub-j")
            #expect(entries.count == 1)
            #expect(entries.first?.method == "OPTIONS")
        }
    }
}
