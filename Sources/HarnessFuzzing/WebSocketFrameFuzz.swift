// SPDX-License-Identifier: MIT
import HarnessWebSocket

/// Fuzz entry for the WebSocket codec (`WebSocketFrameDecoder` in the server role and
/// `WebSocketMessageAssembler`).
///
/// Invariants: the same bytes fed whole, split at an input-derived point, and (for short inputs)
/// one byte at a time yield the same frames, messages and error; every error closes with 1002,
/// 1007 or 1009; every decoded frame, encoded again with its mask key, decodes to the same frame.
enum WebSocketFrameFuzz {
    /// A small limit, so the 1009 paths are reachable from short inputs.
    static let limit = 1024

    struct Outcome: Equatable {
        var frames: [WebSocketFrame] = []
        var messages: [WebSocketMessage] = []
        var error: WebSocketProtocolError?
    }

    static func run(_ input: [UInt8]) throws(FuzzFailure) {
        let whole = feed([input[...]])
        let split = input.isEmpty ? 0 : Int(fnv1a(input) % UInt64(input.count + 1))
        let halves = feed([input[..<split], input[split...]])
        guard whole == halves else {
            throw FuzzFailure(.webSocketFrames, "whole and split at \(split) differ", "\(whole) vs \(halves)")
        }
        if input.count <= 384 {
            let bytewise = feed(input.indices.map { input[$0...$0] })
            guard whole == bytewise else {
                throw FuzzFailure(.webSocketFrames, "whole and byte-by-byte differ", "\(whole) vs \(bytewise)")
            }
        }
        if let error = whole.error, ![1002, 1007, 1009].contains(error.closeCode.rawValue) {
            throw FuzzFailure(.webSocketFrames, "an error closes with 1002/1007/1009", "\(error) -> \(error.closeCode)")
        }
        for frame in whole.frames {
            let bytes = WebSocketRawFrame(fin: frame.fin, opcode: frame.opcode.rawValue, maskKey: frame.maskKey, payload: frame.payload).bytes
            var decoder = WebSocketFrameDecoder(role: .server, maxPayloadLength: limit)
            decoder.feed(bytes)
            let again = try? decoder.nextFrame()
            guard again == frame else {
                throw FuzzFailure(.webSocketFrames, "a decoded frame re-encodes to itself", "\(frame) -> \(String(describing: again))")
            }
        }
    }

    /// Feeds `pieces` in order, taking every complete frame after each one, until the first error.
    static func feed(_ pieces: [ArraySlice<UInt8>]) -> Outcome {
        var decoder = WebSocketFrameDecoder(role: .server, maxPayloadLength: limit)
        var assembler = WebSocketMessageAssembler(maxMessageSize: limit)
        var outcome = Outcome()
        for piece in pieces {
            decoder.feed(piece)
            // Each frame consumes at least two bytes, so this is bounded by the input length.
            for _ in 0...(piece.count + 1) {
                do {
                    guard let frame = try decoder.nextFrame() else { break }
                    outcome.frames.append(frame)
                    if let message = try assembler.push(frame) { outcome.messages.append(message) }
                } catch {
                    outcome.error = error
                    return outcome
                }
            }
        }
        return outcome
    }
}
