// SPDX-License-Identifier: MIT
import MockPubNubServer
import Testing
@testable import ClientUnderTest

/// The App Context API end to end against the mock server: requests on the wire, results,
/// status categories, events.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MockServerAppContextTests {
    @Test func uuidMetadataRoundTripWithIfMatch() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let client = try makeClient(origin: mock.origin)
        let set = try await client.setUUIDMetadata(["name": "Tess", "email": "t@x", "custom": ["team": "blue"]],
                                                   include: ["custom", "status", "type"])
        #expect(set.id == "tester" && set.data["name"] == "Tess" && set.data["custom"] == ["team": "blue"] && set.data["status"] == .null)
        let patch = try #require(mock.journal.last)
        #expect(patch.method == "PATCH" && patch.endpoint == .objects && patch.path == "/v2/objects/sub-k/uuids/tester")
        #expect(patch.query("include") == "custom,status,type" && patch.body == #"{"name":"Tess","email":"t@x","custom":{"team":"blue"}}"#)
        let got = try await client.getUUIDMetadata()
        #expect(got.eTag == set.eTag && got.data["email"] == "t@x")
        let updated = try await client.setUUIDMetadata(["name": "Tessa"], ifMatchesETag: set.eTag)
        #expect(updated.eTag != set.eTag)
        do {
            _ = try await client.setUUIDMetadata(["name": "late"], ifMatchesETag: set.eTag)
            Issue.record("a stale eTag was accepted")
        } catch {
            #expect(error.category == .preconditionFailed && error.statusCode == 412 && error.isError)
            #expect(error.errorData?.information == "User to update has been modified after it was read.")
            #expect(error.operation == .setUUIDMetadata)
        }
        #expect(await client.removeUUIDMetadata().category == .acknowledgment)
        do {
            _ = try await client.getUUIDMetadata(uuid: "tester")
            Issue.record("removed metadata was found")
        } catch {
            #expect(error.category == .resourceNotFound && error.statusCode == 404)
        }
    }

    @Test func listsPageSortFilterAndCount() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let client = try makeClient(origin: mock.origin)
        for (id, name) in [("c1", "Zed"), ("c2", "Amy"), ("c3", "Bob")] {
            _ = try await client.setChannelMetadata(channel: id, ["name": .string(name), "description": "d"])
        }
        let first = try await client.getAllChannelMetadata(PNAppContextQuery(limit: 2, sort: ["name:asc"], includeCount: true))
        #expect(first.data.map { $0["id"] } == ["c2", "c3"] && first.totalCount == 3 && first.next == "Mg" && first.prev == nil)
        let second = try await client.getAllChannelMetadata(PNAppContextQuery(limit: 2, sort: ["name:asc"], start: first.next))
        #expect(second.data.map { $0["id"] } == ["c1"] && second.prev == "Mg" && second.totalCount == nil)
        #expect(mock.journal.last?.query("sort") == "name:asc" && mock.journal.last?.query("start") == "Mg")
        let filtered = try await client.getAllChannelMetadata(PNAppContextQuery(filter: "name LIKE \"*b\""))
        #expect(filtered.data.map { $0["id"] } == ["c3"])
        do {
            _ = try await client.getAllChannelMetadata(PNAppContextQuery(filter: "name =="))
            Issue.record("an invalid filter was accepted")
        } catch {
            #expect(error.category == .badRequest && error.statusCode == 400 && error.errorData?.information == "Invalid filter expression.")
        }
        #expect(try await client.getChannelMetadata(channel: "c2", include: []).data["custom"] == nil)
        #expect(await client.removeChannelMetadata(channel: "c2").category == .acknowledgment)
        #expect(try await client.getAllChannelMetadata().data.count == 2)
    }

    @Test func membershipsAndMembersFromBothSides() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let client = try makeClient(origin: mock.origin)
        _ = try await client.setChannelMetadata(channel: "room", ["name": "Room"])
        let set = try await client.setMemberships(channels: [PNMembershipInput(id: "room", custom: ["role": "admin"], status: "on"),
                                                             PNMembershipInput(id: "lobby")],
                                                  PNAppContextQuery(include: ["custom", "status", "channel.custom"]))
        #expect(set.data.map { $0["channel"]?["id"] } == ["lobby", "room"])
        #expect(set.data[1]["channel"]?["name"] == "Room" && set.data[1]["custom"] == ["role": "admin"] && set.data[1]["status"] == "on")
        #expect(mock.journal.last?.body == #"{"set":[{"channel":{"id":"room"},"custom":{"role":"admin"},"status":"on"},{"channel":{"id":"lobby"}}],"delete":[]}"#)
        let members = try await client.getMembers(channel: "room", PNAppContextQuery(include: ["custom"], includeCount: true))
        #expect(members.data.map { $0["uuid"]?["id"] } == ["tester"] && members.totalCount == 1)
        let managed = try await client.manageMembers(channel: "room", set: [PNMembershipInput(id: "other")], remove: ["tester"])
        #expect(managed.data.map { $0["uuid"]?["id"] } == ["other"])
        let left = try await client.removeMemberships(channels: ["lobby"])
        #expect(left.data.isEmpty && left.next == nil)
        #expect(try await client.getMemberships(uuid: "other").data.map { $0["channel"]?["id"] } == ["room"])
    }

    @Test func completionHandlerFormsDeliverTheSameOutcomes() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let client = try makeClient(origin: mock.origin)
        let set = await withCheckedContinuation { continuation in
            client.setChannelMetadata(channel: "room", ["name": "Room"]) { continuation.resume(returning: $0) }
        }
        #expect((try? set.get())?.data["name"] == "Room")
        let managed = await withCheckedContinuation { continuation in
            client.manageMembers(channel: "room", set: [PNMembershipInput(id: "a"), PNMembershipInput(id: "b")], remove: []) {
                continuation.resume(returning: $0)
            }
        }
        #expect((try? managed.get())?.data.map { $0["uuid"]?["id"] } == ["a", "b"])
        #expect(mock.journal.last?.body == #"{"set":[{"uuid":{"id":"a"}},{"uuid":{"id":"b"}}],"delete":[]}"#)
        let page = await withCheckedContinuation { continuation in
            client.getMembers(channel: "room", PNAppContextQuery(limit: 1, includeCount: true)) { continuation.resume(returning: $0) }
        }
        #expect((try? page.get())?.totalCount == 2 && (try? page.get())?.next == "MQ")
        let removed = await withCheckedContinuation { continuation in
            client.removeChannelMetadata(channel: "room") { continuation.resume(returning: $0) }
        }
        #expect(removed.category == .acknowledgment)
        let missing = await withCheckedContinuation { continuation in
            client.getChannelMetadata(channel: "room") { continuation.resume(returning: $0) }
        }
        if case .failure(let status) = missing {
            #expect(status.category == .resourceNotFound && status.operation == .getChannelMetadata)
        } else {
            Issue.record("removed channel metadata was found")
        }
    }

    @Test func eventsReachListenersAndDeniedRequestsAreAccessDenied() async throws {
        let mock = try MockServerHarness(keysets: [Keyset(subscribeKey: "pam-k", publishKey: "pub-k", secretKey: "sec")])
        defer { mock.stop() }
        let open = try makeClient(origin: mock.origin)
        let recorder = Recorder()
        open.addListener(recorder)
        try await open.subscribe(channels: ["room"])
        #expect(await recorder.waitStatuses(1)?.map(\.category) == [.connected])
        _ = try await open.setChannelMetadata(channel: "room", ["name": "Room"])
        let events = await recorder.events.wait(timeout: 5) { $0.contains { if case .appContext = $0 { true } else { false } } }
        let event = try #require(events?.compactMap { if case .appContext(let e) = $0 { e } else { nil } }.first)
        #expect(event.channel == "room" && event.event == "set" && event.type == "channel")
        #expect(event.data["name"] == "Room" && event.data["id"] == "room" && event.data["eTag"]?.stringValue?.count == 32)
        await open.unsubscribeAll()

        let denied = try makeClient(origin: mock.origin) { $0.subscribeKey = "pam-k"; $0.authKey = "nobody" }
        do {
            _ = try await denied.getChannelMetadata(channel: "room")
            Issue.record("a request without a grant was answered")
        } catch {
            #expect(error.category == .accessDenied && error.statusCode == 403 && error.errorData?.channels == ["room"])
        }
    }
}
