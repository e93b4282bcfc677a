// SPDX-License-Identifier: MIT

/// Streamed answers (`ResponseAction.stream`): the head, then the stream's chunks as they come.
extension Connection {
    /// Queues the head (the host's cross-origin fields included, as for every answer) and the
    /// body as the first chunk, then hands `stream` this connection.
    func startStream(_ response: HTTPResponse, _ stream: ResponseStream, token: UInt64, chunked: Bool, keepAlive: Bool) {
        var head: [UInt8] = []
        head.reserveCapacity(256)
        HTTPResponseEncoder.appendStatusAndFields(of: response, http10: !chunked, to: &head)
        if decoratesAnswers, decoration >= 0 {
            let withCacheControl = response.headers["Cache-Control"] == nil
            head += cors.takeUnretainedValue().encodedFields(rule: decoration, withCacheControl: withCacheControl)
        }
        if chunked { head += Array("Transfer-Encoding: chunked\r\n".utf8) }
        head += Array((keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n").utf8)
        if !response.body.isEmpty { head += chunked ? HTTPConnectionMachine.chunk(response.body) : response.body }
        channel.enqueue(head)
        self.stream = stream
        stream.attach(ConnectionTarget(connection: self, loop: loop), token: token)
    }

    /// One chunk of the streamed answer to request `token` (on the loop).
    func streamWrite(_ bytes: [UInt8], token: UInt64) {
        feed(.streamWrite(bytes, token: token))
    }

    /// The streamed answer to request `token` is complete (on the loop).
    func streamEnded(token: UInt64) {
        stream = nil
        feed(.streamEnd(token: token))
    }
}
