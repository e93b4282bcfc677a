// SPDX-License-Identifier: MIT
import CPosix
import Glibc

/// The TLS 1.3 record layer of one server connection after OpenSSL's `SSL` was freed: seals and
/// opens application_data records (RFC 8446 §5.2) with the traffic keys derived at the end of the
/// handshake, and handles what a client may send afterwards (KeyUpdate, alerts).
///
/// Loop-confined like every stream. An idle connection holds its key block (two directions, 192
/// bytes) and nothing else: the receive buffer exists only while a record is incomplete or its
/// plaintext not yet handed over, unsent ciphertext only while the socket refuses it, and the AEAD
/// context and the sealing buffer belong to the thread (``TLSRecordScratch``).
///
/// Writes follow OpenSSL's partial-write mode: each record that reaches the socket whole counts
/// its plaintext as written; a record the socket takes only part of is kept and the write reports
/// `.wantWrite` (or the bytes of the records before it). The caller offers the same bytes again
/// (the connection's outbound buffer does); the next write sends the rest first and then reports
/// that record's plaintext as written.
final class DetachedTLSStream {
    private let fd: Int32
    private let keyBlock: UnsafeMutableRawPointer
    private var receiving: TrafficKeys
    private var sending: TrafficKeys

    /// Received bytes: ciphertext in `inStart..<inEnd`; plaintext of the opened record not yet
    /// handed over in `plainStart..<plainEnd` (before `inStart`).
    private var inbound: UnsafeMutableRawBufferPointer?
    private var inStart = 0
    private var inEnd = 0
    private var plainStart = 0
    private var plainEnd = 0

    /// Sealed bytes the socket has not taken yet, from `pendingOffset`.
    private var pending: [UInt8] = []
    private var pendingOffset = 0
    /// The plaintext count of the data record in `pending`, reported once `pending` is sent.
    private var pendingPlaintext = 0

    /// How reading ended (close_notify, EOF, or a failure); every later read answers the same.
    private var readEnd: IOResult?
    /// Set once close_notify or a fatal alert was sent: nothing more is sealed.
    private var sendingClosed = false
    private var writeFailure: IOResult?
    /// The most recent failure, typed.
    private(set) var lastError: TLSError?

    /// The receive buffer's size: the largest record a peer may send.
    static let inboundCapacity = TLSRecordFormat.headerLength + TLSRecordFormat.maxCiphertextBody

    /// A record layer on `fd` with the application traffic secrets of a completed handshake
    /// (sequence numbers 0: nothing was sent or received under them yet).
    init(fd: Int32, suite: TLS13CipherSuite, clientSecret: UnsafeRawBufferPointer, serverSecret: UnsafeRawBufferPointer) throws(TLSError) {
        self.fd = fd
        let block = UnsafeMutableRawPointer.allocate(byteCount: 2 * TrafficKeys.byteCount, alignment: 8)
        block.initializeMemory(as: UInt8.self, repeating: 0, count: 2 * TrafficKeys.byteCount)
        do {
            receiving = try TrafficKeys(suite: suite, base: block, secret: clientSecret)
            sending = try TrafficKeys(suite: suite, base: block + TrafficKeys.byteCount, secret: serverSecret)
        } catch {
            block.initializeMemory(as: UInt8.self, repeating: 0, count: 2 * TrafficKeys.byteCount)
            block.deallocate()
            throw error
        }
        keyBlock = block
    }

    deinit {
        keyBlock.initializeMemory(as: UInt8.self, repeating: 0, count: 2 * TrafficKeys.byteCount)
        keyBlock.deallocate()
        inbound?.deallocate()
    }

    /// Whether a receive buffer is held (false on an idle connection).
    var holdsReceiveBuffer: Bool { inbound != nil }
    /// Whether sealed bytes wait for the socket.
    var holdsUnsentRecords: Bool { pendingOffset < pending.count }

    // MARK: Reading

    /// Fills `buffer` with plaintext from as many buffered records as fit, reading the socket only
    /// when nothing is ready; handles KeyUpdates and alerts on the way. `.wantRead` releases an
    /// empty receive buffer; `.eof` after close_notify or a clean FIN; `.failed` after a bad record
    /// (the alert is sent) or a peer's alert.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        guard buffer.count > 0 else { return .bytes(0) }
        var filled = 0
        for _ in 0..<10_000 {
            if plainStart < plainEnd, let inbound {
                let count = min(buffer.count - filled, plainEnd - plainStart)
                UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<filled + count])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: inbound[plainStart..<plainStart + count]))
                plainStart += count
                filled += count
                if filled == buffer.count { return .bytes(filled) }
                continue
            }
            if let readEnd { return filled > 0 ? .bytes(filled) : readEnd }
            if let ended = openBufferedRecord() {
                if case .bytes = ended { continue }
                readEnd = ended
                releaseInboundIfEmpty()
                continue
            }
            if filled > 0 { return .bytes(filled) }
            switch receive() {
            case nil: continue
            case let result?:
                if case .wantRead = result { releaseInboundIfEmpty() } else { readEnd = result; releaseInboundIfEmpty() }
                return result
            }
        }
        return .bytes(filled)
    }

    /// Opens the record at `inStart` if it is complete: `.bytes(0)` when one was handled (its
    /// plaintext, if any, is ready), nil when more bytes are needed, else how reading ends.
    private func openBufferedRecord() -> IOResult? {
        guard let inbound else { return nil }
        let available = UnsafeRawBufferPointer(rebasing: inbound[inStart..<inEnd])
        switch TLSRecordFormat.header(available) {
        case .incomplete:
            return nil
        case .unexpected(let type, let version):
            return fail(.unexpectedMessage("a record of type \(type), version 0x\(String(version, radix: 16)) after the TLS 1.3 handshake"), alert: .unexpectedMessage)
        case .overflow(let length):
            return fail(.recordOverflow(bodyLength: length), alert: .recordOverflow)
        case .record(let bodyLength):
            let recordLength = TLSRecordFormat.headerLength + bodyLength
            guard available.count >= recordLength else { return nil }
            let recordStart = inStart
            inStart += recordLength
            let record = UnsafeMutableRawBufferPointer(rebasing: inbound[recordStart..<recordStart + recordLength])
            guard let scratch = TLSRecordScratch.current else { return fail(.crypto("no AEAD context"), alert: .internalError) }
            guard let innerLength = scratch.open(record, keys: receiving) else { return fail(.badRecordMAC, alert: .badRecordMAC) }
            receiving.sequence &+= 1
            guard innerLength <= TLSRecordFormat.maxInnerPlaintext else {
                return fail(.recordOverflow(bodyLength: innerLength), alert: .recordOverflow)
            }
            let contentStart = recordStart + TLSRecordFormat.headerLength
            let inner = UnsafeRawBufferPointer(rebasing: inbound[contentStart..<contentStart + innerLength])
            guard let (type, length) = TLSRecordFormat.innerContent(inner) else {
                return fail(.unexpectedMessage("a record without a content type"), alert: .unexpectedMessage)
            }
            return handle(type: type, content: UnsafeRawBufferPointer(rebasing: inner[0..<length]), at: contentStart)
        }
    }

    private func handle(type: UInt8, content: UnsafeRawBufferPointer, at start: Int) -> IOResult {
        switch TLSContentType(rawValue: type) {
        case .applicationData:
            plainStart = start
            plainEnd = start + content.count
            return .bytes(0)
        case .alert:
            guard content.count == 2 else { return fail(.unexpectedMessage("an alert of \(content.count) bytes"), alert: .decodeError) }
            let alert = TLSAlert(code: content[1])
            if alert == .closeNotify { return .eof }
            sendingClosed = true  // a peer's alert other than close_notify ends the connection: answer nothing
            return fail(.peerAlert(alert), alert: nil)
        case .handshake:
            switch TLSRecordFormat.postHandshakeMessage(content) {
            case .keyUpdate(let updateRequested):
                do throws(TLSError) {
                    try receiving.update()
                    if updateRequested && !sendingClosed {
                        sendControl(.handshake, TLSRecordFormat.keyUpdateNotRequested)
                        try sending.update()
                    }
                } catch {
                    lastError = error
                    return fail(.crypto("key update"), alert: .internalError)
                }
                return .bytes(0)
            case .unexpected(let what):
                return fail(.unexpectedMessage(what), alert: .unexpectedMessage)
            }
        case .changeCipherSpec, nil:
            return fail(.unexpectedMessage("content type \(type) after the handshake"), alert: .unexpectedMessage)
        }
    }

    /// One read from the socket into the receive buffer: nil when bytes arrived, else the result.
    private func receive() -> IOResult? {
        let buffer = inbound ?? UnsafeMutableRawBufferPointer.allocate(byteCount: Self.inboundCapacity, alignment: 16)
        if inbound == nil { inbound = buffer }
        if inStart > 0 {
            let count = inEnd - inStart
            if count > 0 { buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + inStart, byteCount: count) }
            inStart = 0
            inEnd = count
            plainStart = 0
            plainEnd = 0
        }
        while true {
            let n = Glibc.read(fd, buffer.baseAddress! + inEnd, buffer.count - inEnd)
            if n > 0 {
                inEnd += n
                return nil
            }
            if n == 0 {
                // A bare FIN reads as end of stream, as with SSL_OP_IGNORE_UNEXPECTED_EOF, unless a record was cut.
                return inStart == inEnd ? .eof : fail(.truncatedRecord(bytes: inEnd - inStart), alert: nil)
            }
            let code = errno
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wantRead
            default:
                let error = TLSError.connection(operation: "read", errno: code, openSSLErrors: [])
                lastError = error
                return .failed(errno: code, detail: error.description)
            }
        }
    }

    private func releaseInboundIfEmpty() {
        guard let inbound, inStart == inEnd, plainStart == plainEnd else { return }
        inbound.deallocate()
        self.inbound = nil
        inStart = 0
        inEnd = 0
        plainStart = 0
        plainEnd = 0
    }

    /// Records a failure, sends `alert` (best effort) and ends sending.
    private func fail(_ failure: TLSRecordFailure, alert: TLSAlert?) -> IOResult {
        if let alert, !sendingClosed { sendControl(.alert, alert.wire) }
        sendingClosed = true
        let error = TLSError.record(failure)
        lastError = error
        return .failed(errno: 0, detail: error.description)
    }

    // MARK: Writing

    /// Seals the pieces into records of up to 16 KB (pieces share records) and sends them: the
    /// plaintext count of the records the socket took whole, `.wantWrite` when it took none, or a
    /// failure. Unsent records from before go out first (see the type's note on partial writes).
    func write(gathering pieces: UnsafeBufferPointer<UnsafeRawBufferPointer>) -> IOResult {
        if let writeFailure { return writeFailure }
        if holdsUnsentRecords {
            switch flushPending() {
            case .bytes:
                let reported = pendingPlaintext
                pendingPlaintext = 0
                if reported > 0 { return .bytes(reported) }
            case let other:
                return other
            }
        }
        let total = pieces.reduce(0) { $0 + $1.count }
        guard total > 0 else { return .bytes(0) }
        guard !sendingClosed else { return failWrite(.unexpectedMessage("write after the connection's TLS alert")) }
        guard let scratch = TLSRecordScratch.current else { return failWrite(.crypto("no AEAD context")) }
        var cursor = GatherCursor()
        var consumed = 0
        while consumed < total {
            let contentLength = min(TLSRecordScratch.maxPlaintext, total - consumed)
            let sealed = scratch.seal(contentLength: contentLength, type: .applicationData, keys: sending) { append in
                cursor.take(contentLength, from: pieces, append)
            }
            guard let sealed else { return failWrite(.crypto("sealing a record")) }
            sending.sequence &+= 1
            let record = UnsafeRawBufferPointer(rebasing: scratch.output[0..<sealed])
            switch send(record) {
            case .bytes(let sent) where sent == sealed:
                consumed += contentLength
            case .bytes(let sent):
                pending = Array(record[sent...])
                pendingOffset = 0
                pendingPlaintext = contentLength
                return consumed > 0 ? .bytes(consumed) : .wantWrite
            case let other:
                return other
            }
        }
        return .bytes(consumed)
    }

    /// ``write(gathering:)`` with one piece.
    func write(_ bytes: UnsafeRawBufferPointer) -> IOResult {
        withUnsafeTemporaryAllocation(of: UnsafeRawBufferPointer.self, capacity: 1) { pieces in
            pieces[0] = bytes
            return write(gathering: UnsafeBufferPointer(pieces))
        }
    }

    /// Sends a fatal `alert` (best effort) and ends sending: nothing is sealed afterwards.
    func sendAlert(_ alert: TLSAlert) {
        guard !sendingClosed else { return }
        sendControl(.alert, alert.wire)
        sendingClosed = true
    }

    /// Sends close_notify once (best effort, after any unsent records), then `shutdown(SHUT_WR)`.
    func shutdownWrite() {
        if !sendingClosed && writeFailure == nil {
            sendControl(.alert, TLSAlert.closeNotify.wire)
            sendingClosed = true
        }
        if holdsUnsentRecords { _ = flushPending() }
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    /// Seals a record that carries no caller plaintext (an alert, our KeyUpdate) and sends it, or
    /// queues it behind unsent records. Best effort: a failure here is reported by the next write.
    private func sendControl(_ type: TLSContentType, _ content: [UInt8]) {
        guard writeFailure == nil, let scratch = TLSRecordScratch.current else { return }
        let sealed = content.withUnsafeBytes { bytes in
            scratch.seal(contentLength: bytes.count, type: type, keys: sending) { append in append(bytes) }
        }
        guard let sealed else { return }
        sending.sequence &+= 1
        let record = UnsafeRawBufferPointer(rebasing: scratch.output[0..<sealed])
        if holdsUnsentRecords {
            pending.append(contentsOf: record)
            return
        }
        if case .bytes(let sent) = send(record), sent < sealed {
            pending = Array(record[sent...])
            pendingOffset = 0
        }
    }

    /// Sends unsent records: `.bytes(0)` when all are gone, `.wantWrite` or a failure otherwise.
    private func flushPending() -> IOResult {
        let result = pending.withUnsafeBytes { send(UnsafeRawBufferPointer(rebasing: $0[pendingOffset...])) }
        guard case .bytes(let sent) = result else { return result }
        pendingOffset += sent
        guard pendingOffset == pending.count else { return .wantWrite }
        pending = []
        pendingOffset = 0
        return .bytes(0)
    }

    /// Sends as much of `bytes` as the socket takes: `.bytes(count)` (0 when it is full), or a failure.
    private func send(_ bytes: UnsafeRawBufferPointer) -> IOResult {
        var sent = 0
        while sent < bytes.count {
            let n = cposix_send(fd, bytes.baseAddress! + sent, bytes.count - sent)
            if n > 0 {
                sent += n
                continue
            }
            let code = errno
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .bytes(sent)
            default:
                let error = TLSError.connection(operation: "write", errno: code, openSSLErrors: [])
                lastError = error
                let failure = IOResult.failed(errno: code, detail: error.description)
                writeFailure = failure
                return failure
            }
        }
        return .bytes(sent)
    }

    private func failWrite(_ failure: TLSRecordFailure) -> IOResult {
        let error = TLSError.record(failure)
        lastError = error
        let result = IOResult.failed(errno: 0, detail: error.description)
        writeFailure = result
        return result
    }
}

/// A position in a gather list, handing out the next bytes piece by piece.
private struct GatherCursor {
    private var piece = 0
    private var offset = 0

    /// Passes the next `count` bytes to `append` (in as many slices as pieces they span).
    mutating func take(
        _ count: Int, from pieces: UnsafeBufferPointer<UnsafeRawBufferPointer>, _ append: (UnsafeRawBufferPointer) -> Bool
    ) -> Bool {
        var left = count
        while left > 0 && piece < pieces.count {
            let current = pieces[piece]
            let take = min(left, current.count - offset)
            if take > 0 {
                guard append(UnsafeRawBufferPointer(rebasing: current[offset..<offset + take])) else { return false }
            }
            offset += take
            left -= take
            if offset == current.count {
                piece += 1
                offset = 0
            }
        }
        return left == 0
    }
}
