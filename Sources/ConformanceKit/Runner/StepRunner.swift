// SPDX-License-Identifier: MIT
import HarnessJSON
import Foundation

/// A problem found while running a case's steps.
enum StepFailure: Sendable, Hashable {
    /// An `expectStatus` that did not see its category (an alternative may still explain it).
    case missingStatus(StatusCategory, step: Int)
    /// Anything else that makes the case fail.
    case failed(String)
    /// The client does not offer something the case needs.
    case unsupported(String)

    var text: String {
        switch self {
        case .missingStatus(let category, let step): "step \(step): expected \(category.rawValue), not observed"
        case .failed(let text): text
        case .unsupported(let text): text
        }
    }
}

/// Runs one case's steps against a session and the server, recording failures.
final class StepRunner: Sendable {
    let testCase: ConformanceCase
    let keys: CaseKeys
    let server: any HarnessServer
    let session: any ClientSession
    let log: ObservationLog
    let runSeed: UInt64
    let state = StepState()
    /// The last v3 token granted or issued in this case (`{token}` in later steps).
    let lastToken = TokenSlot()
    /// Published message and added action timetokens, the last listing's next page (`{message.N}`, …).
    let timetokens = CaseTimetokens()
    /// The case's presence observer (started by an `observerSubscribe` step, stopped by the executor).
    let observer: PresenceObserver

    init(testCase: ConformanceCase, keys: CaseKeys, server: any HarnessServer, session: any ClientSession,
         log: ObservationLog, runSeed: UInt64, observer: PresenceObserver) {
        self.observer = observer
        self.testCase = testCase
        self.keys = keys
        self.server = server
        self.session = session
        self.log = log
        self.runSeed = runSeed
    }

    var failures: [StepFailure] { get async { await state.failures } }
    var currentStep: Int { get async { await state.step } }

    /// Runs every step in order; stops at the first step that cannot go on (unsupported, error).
    func run() async {
        // Categories that only alternatives name: seeing one ends an expectStatus wait early.
        let alternativeOnly = Set(testCase.alternatives.flatMap(\.categories)).subtracting(testCase.expected)
        for (index, step) in testCase.steps.enumerated() {
            await state.set(step: index + 1)
            await log.mark(step: index + 1, step.timelineName)
            if Task.isCancelled { return }
            let keepGoing = await execute(step, number: index + 1, alternativeOnly: alternativeOnly)
            if !keepGoing { return }
        }
        await checkNoExtraMessages()
    }

    private func execute(_ step: CaseStep, number: Int, alternativeOnly: Set<StatusCategory>) async -> Bool {
        switch step {
        case .perform(let planned):
            let operation = Self.resolving(await state.resolvingPlaceholders(planned), last: await state.lastResult)
            do {
                let operation = resolvingMessageActions(in: substitutingToken(in: operation))
                let result = try await session.perform(operation)
                rememberToken(from: operation, result: result)
                timetokens.record(operation, result)
                await log.record(result: result)
                await state.set(lastResult: result)
            } catch let error as ClientAdapterError {
                if case .unsupported(let what) = error {
                    await state.fail(.unsupported("client does not support \(what)"))
                } else {
                    await state.fail(.failed("step \(number) \(operation.name): \(error)"))
                }
                return false
            } catch {
                // Cancelled by the runner when the budget ran out: that failure is the budget's
                // (reported by the executor), not the client's.
                if Task.isCancelled { return false }
                await state.fail(.failed("step \(number) \(operation.name): client error \(error)"))
                return false
            }
        case .serverPublish(let channel, let message):
            do {
                try await server.publish(subscribeKey: keys.subscribeKey, publishKey: keys.publishKey, channel: channel, message: message.jsonText)
            } catch {
                await state.fail(.failed("step \(number) server publish: \(error)"))
                return false
            }
        case .serverRequest(let method, let path, let query, let body):
            let query = query.sorted { $0.key < $1.key }.map { ($0.key, substitute($0.value)) }
            let bytes = body.map { Array(substituted($0).jsonText.utf8) }
            return await serverCall(number, "server request") {
                try await self.server.request(method: method, path: self.substitute(path), query: query, body: bytes)
            }
        case .issueToken(let grant):
            return await issueToken(grant, number: number)
        case .grant(let grant):
            do {
                try await server.grant(grant, subscribeKey: keys.subscribeKey)
            } catch let error as HarnessServerError {
                if case .unsupported = error { await state.fail(.unsupported("\(error)")) } else { await state.fail(.failed("step \(number) grant: \(error)")) }
                return false
            } catch {
                await state.fail(.failed("step \(number) grant: \(error)"))
                return false
            }
        case .setPlan(let plan):
            do {
                if let plan {
                    try await server.installPlan(json: seeded(plan), subscribeKey: keys.subscribeKey)
                } else {
                    try await server.clearPlan(subscribeKey: keys.subscribeKey)
                }
            } catch {
                await state.fail(.failed("step \(number) set plan: \(error)"))
                return false
            }
        case .wait(let ms):
            try? await Task.sleep(for: .milliseconds(ms))
        case .expectStatus(let category, let within):
            await expectStatus(category, within: within, number: number, alternativeOnly: alternativeOnly)
        case .expectNoStatus(let category, let ms):
            // Any occurrence beyond those earlier expect steps accounted for counts, whenever it
            // arrived: the check does not depend on when this step happens to start.
            let allowed = await state.consumedCount(category)
            let deadline = ContinuousClock.now + .milliseconds(ms)
            let (_, seen) = await log.wait(until: deadline) { snapshot in
                snapshot.statuses.count { $0 == category } > allowed
            }
            if seen {
                await state.fail(.failed("step \(number): \(category.rawValue) observed within \(ms) ms, must not be"))
            }
        case .expectMessages(let expected, let within):
            await expectMessages(expected, within: within, number: number)
        case .expectMessageCount(let count, let within):
            let deadline = ContinuousClock.now + .milliseconds(within)
            let (snapshot, seen) = await log.wait(until: deadline) { $0.messages.count >= count }
            if !seen {
                await state.fail(.failed("step \(number): expected \(count) message(s), received \(snapshot.messages.count) within \(within) ms"))
            }
        case .expectNoMoreMessages(let ms):
            try? await Task.sleep(for: .milliseconds(ms))
            let consumed = await state.messageCursor
            let messages = await log.current.messages
            if messages.count > consumed {
                let extra = messages[consumed]
                await state.fail(.failed("step \(number): unexpected message within \(ms) ms (duplicate or leaked): \(extra.channel) \(extra.message.jsonText)"))
                await state.advanceMessages(by: messages.count - consumed)
            }
        case .expectPresence(let expected, let within):
            await expectPresence(expected, within: within, number: number)
        case .expectAppContextEvent(let expected, let within):
            if let failure = await appContextFailure(expected, within: within, number: number) { await state.fail(.failed(failure)) }
        case .expectMessageAction(let expected, let within):
            if let failure = await messageActionFailure(expected, within: within, number: number) { await state.fail(.failed(failure)) }
        case .expectResult(let expected):
            await checkResult(expected, number: number)
        case .expectJournal(let expectation, let within):
            await expectJournal(expectation.substituting(substitute), within: within, number: number)
        case .observerSubscribe(let channels):
            return await observerSubscribe(channels, number: number)
        case .expectObservedPresence(let expected, let within):
            await expectObservedPresence(expected, within: within, number: number)
        case .expectNoObservedPresence(let expected, let ms):
            await expectNoObservedPresence(expected, forMs: ms, number: number)
        }
        return true
    }

    private func expectStatus(_ category: StatusCategory, within: Int, number: Int, alternativeOnly: Set<StatusCategory>) async {
        let consumed = await state.consume(category)
        let deadline = ContinuousClock.now + .milliseconds(within)
        let (_, seen) = await log.wait(until: deadline) { snapshot in
            snapshot.statuses.count { $0 == category } >= consumed
                || snapshot.statuses.contains { alternativeOnly.contains($0) }
        }
        let count = await log.current.statuses.count { $0 == category }
        if !seen || count < consumed {
            await state.fail(.missingStatus(category, step: number))
        }
    }

    private func expectMessages(_ expected: [ExpectedMessage], within: Int, number: Int) async {
        let start = await state.messageCursor
        let deadline = ContinuousClock.now + .milliseconds(within)
        let (snapshot, _) = await log.wait(until: deadline) { $0.messages.count >= start + expected.count }
        let received = Array(snapshot.messages.dropFirst(start).prefix(expected.count))
        await state.advanceMessages(by: received.count)
        for (offset, wanted) in expected.enumerated() {
            guard offset < received.count else {
                await state.fail(.failed("step \(number): expected \(expected.count) message(s), received \(received.count) within \(within) ms; first missing: \(wanted.channel) \(wanted.message.jsonText)"))
                return
            }
            if !wanted.matches(received[offset], caseUUID: keys.uuid) {
                let got = received[offset]
                await state.fail(.failed("step \(number): message \(offset + 1) expected \(wanted.channel) \(wanted.message.jsonText)\(wanted.decryptionFailed ? " (decryption failed)" : ""), received \(got.channel) \(got.message.jsonText)\(got.decryptionFailed ? " (decryption failed)" : "")"))
                return
            }
        }
    }

    private func expectPresence(_ expected: ExpectedPresence, within: Int, number: Int) async {
        let deadline = ContinuousClock.now + .milliseconds(within)
        let uuid = keys.uuid
        let (_, seen) = await log.wait(until: deadline) { snapshot in
            snapshot.presence.contains { expected.matches($0, caseUUID: uuid) }
        }
        if !seen {
            await state.fail(.failed("step \(number): no presence \(expected.action) on \(expected.channel)\(expected.uuid.map { " for \($0)" } ?? "") within \(within) ms"))
        }
    }

    private func checkResult(_ expected: ExpectedResult, number: Int) async {
        guard let result = await state.lastResult else {
            await state.fail(.failed("step \(number): no operation result to check"))
            return
        }
        var problems: [String] = []
        if let category = expected.category, result.category != category {
            problems.append("category \(result.category?.rawValue ?? "none (result)"), expected \(category?.rawValue ?? "none (result)")")
        }
        if let isError = expected.isError, result.isError != isError {
            problems.append(isError ? "expected an error, got success" : "expected success, got error \(result.category?.rawValue ?? "")")
        }
        if let code = expected.statusCode, result.statusCode != code {
            problems.append("HTTP status \(result.statusCode.map(String.init) ?? "none"), expected \(code)")
        }
        if let data = expected.data.map(substituted), !(result.data?.contains(data) ?? false) {
            problems.append("data \(result.data?.jsonText ?? "none") does not contain \(data.jsonText)")
        }
        for path in expected.timetokenPaths where !Self.isTimetoken(Self.value(at: path, in: result.data)) {
            problems.append("\(path) is not a 17-digit timetoken")
        }
        for path in expected.absentPaths {
            if let value = Self.value(at: path, in: result.data), value != .null {
                problems.append("\(path) is \(value.jsonText), expected absent")
            }
        }
        if !problems.isEmpty {
            await state.fail(.failed("step \(number): result " + problems.joined(separator: "; ")))
        }
    }

    private func expectJournal(_ expectation: JournalExpectation, within: Int, number: Int) async {
        let deadline = ContinuousClock.now + .milliseconds(within)
        var lastError: String?
        // Polls the journal (bounded by the deadline): the server offers no push of new entries.
        while true {
            do {
                let entries = try await server.journal(subscribeKey: keys.subscribeKey)
                if JournalCheck.holds(expectation, in: entries) { return }
                lastError = nil
            } catch {
                lastError = "\(error)"
            }
            if ContinuousClock.now >= deadline || Task.isCancelled { break }
            try? await Task.sleep(for: .milliseconds(min(50, within)))
        }
        await state.fail(.failed("step \(number): journal: expected \(expectation.summary)\(lastError.map { " (\($0))" } ?? "")"))
    }

    private func checkNoExtraMessages() async {
        let consumed = await state.messageCursor
        let usesMessages = testCase.steps.contains { if case .expectMessages = $0 { return true } else { return false } }
        let snapshot = await log.current
        if usesMessages, snapshot.messages.count > consumed {
            let extra = snapshot.messages[consumed]
            await state.fail(.failed("unexpected extra message (duplicate or unasked): \(extra.channel) \(extra.message.jsonText)"))
        }
    }

    private func serverCall(_ number: Int, _ what: String, _ call: @Sendable () async throws -> (status: Int, body: [UInt8])) async -> Bool {
        do {
            let (status, body) = try await call()
            if !(200..<300).contains(status) {
                await state.fail(.failed("step \(number) \(what): HTTP \(status) \(String(decoding: body.prefix(200), as: UTF8.self))"))
                return false
            }
            return true
        } catch {
            await state.fail(.failed("step \(number) \(what): \(error)"))
            return false
        }
    }

    /// The plan with the case's derived seed, unless it names its own.
    func seeded(_ plan: JSONValue) -> JSONValue {
        guard case .object(var members) = plan, members["seed"] == nil else { return plan }
        members["seed"] = .int(CaseKeys.planSeed(runSeed: runSeed, caseID: testCase.id))
        return .object(members)
    }

    func substitute(_ text: String) -> String {
        timetokens.substitute(
            text.replacingOccurrences(of: "{sub}", with: keys.subscribeKey)
                .replacingOccurrences(of: "{pub}", with: keys.publishKey)
                .replacingOccurrences(of: "{uuid}", with: keys.uuid)
                .replacingOccurrences(of: "{token}", with: lastToken.token ?? ""))
    }

    /// `value` with placeholders replaced in every string.
    func substituted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): return .string(substitute(text))
        case .array(let items): return .array(items.map(substituted))
        case .object(let members): return .object(members.mapValues(substituted))
        default: return value
        }
    }

    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }

    static func value(at path: String, in data: JSONValue?) -> JSONValue? {
        var current = data
        for part in path.split(separator: ".") {
            if let index = Int(part), let array = current?.arrayValue {
                current = index < array.count ? array[index] : nil
            } else {
                current = current?[String(part)]
            }
        }
        return current
    }

    static func isTimetoken(_ value: JSONValue?) -> Bool {
        let text: String
        switch value {
        case .string(let string): text = string
        case .number(let number): text = number
        default: return false
        }
        return text.count == 17 && text.allSatisfy(\.isASCII) && text.allSatisfy(\.isNumber)
    }
}

/// The mutable bookkeeping of a ``StepRunner``.
actor StepState {
    private(set) var failures: [StepFailure] = []
    private(set) var step = 0
    private(set) var lastResult: OperationResult?
    private(set) var messageCursor = 0
    private var consumed: [StatusCategory: Int] = [:]

    func set(step: Int) { self.step = step }
    /// The last file `id` and list `next` a result carried (for `{fileID}` / `{nextPage}`).
    private var fileID: String?
    private var nextPage: String?

    func set(lastResult: OperationResult) {
        self.lastResult = lastResult
        if let id = lastResult.data?["id"]?.stringValue { fileID = id }
        if let next = lastResult.data?["next"]?.stringValue { nextPage = next }
    }

    /// `operation` with the file placeholders replaced by what earlier results carried.
    func resolvingPlaceholders(_ operation: ClientOperation) -> ClientOperation {
        guard case .files(let file) = operation else { return operation }
        return .files(file.resolving(fileID: fileID, nextPage: nextPage))
    }
    func fail(_ failure: StepFailure) { failures.append(failure) }
    func advanceMessages(by count: Int) { messageCursor += count }

    /// How many statuses of `category` earlier expect steps accounted for.
    func consumedCount(_ category: StatusCategory) -> Int { consumed[category, default: 0] }

    /// Counts one more expected status of `category`; returns how many must have been seen.
    func consume(_ category: StatusCategory) -> Int {
        consumed[category, default: 0] += 1
        return consumed[category, default: 0]
    }
}
