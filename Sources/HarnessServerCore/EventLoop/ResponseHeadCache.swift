// SPDX-License-Identifier: MIT

/// An event loop's memory of the response head it encoded last (loop thread only, one per loop).
///
/// A publish answers thousands of parked long-polls with copies of one response value: the
/// loop's connections then share one encoded head. Between different responses, the status line
/// and fields are copied from the last head when the status, reason and fields are the same (a
/// handler's constant fields): only `Content-Length` and `Connection` are encoded again, and
/// not even those when the body's length and the connection's framing are the same too. A new
/// head is written into the storage of the previous one when no connection holds that any more
/// (written out: the common case of keep-alive answers one at a time).
///
/// A decorated answer (a host with a ``CORSPolicy``) also carries its rule's fields after the
/// handler's (part of the reused start) and a `Date` line before `Content-Length` (written again
/// when the second changes).
///
/// Plain stored fields (no optional tuples) so that the checks compare in place, without copying
/// the remembered responses.
struct ResponseHeadCache {
    /// The response encoded last (`hasHead`), its framing and its head.
    private var response = HTTPResponse(status: 0)
    private var keepAlive = false
    private var http10 = false
    private var hasHead = false
    private var head: [UInt8] = []
    /// The response whose status line and fields `start` holds (`hasStart`), and its version.
    private var startResponse = HTTPResponse(status: 0)
    private var startHTTP10 = false
    private var hasStart = false
    private var start: [UInt8] = []
    /// The decoration (`CORSPolicy` rule index, -1 = none) `start` holds, and the second of the
    /// `Date` line `head` holds (0 = none).
    private var startDecoration = -1
    private var headSecond = 0
    /// The `Date` line of `dateSecond`, kept for the next head of the same second.
    private var dateSecond = -1
    private var dateLine: [UInt8] = []

    /// The wire bytes of `response` as its head and its body (`headRequest`: no body). The
    /// response is consumed: remembered by moving it in, not by a copy of its parts.
    /// `decoration`: the index of the `policy` rule whose fields the answer carries, with a `Date`
    /// line of `unixSecond`; -1 = none (then `policy` and `unixSecond` are not used).
    mutating func encode(
        _ response: consuming HTTPResponse, keepAlive: Bool, headRequest: Bool, http10: Bool,
        decoration: Int = -1, policy: Unmanaged<CORSPolicy>? = nil, unixSecond: Int = 0
    ) -> EncodedResponse {
        let body = headRequest ? [] : response.body
        let second = decoration >= 0 ? unixSecond : 0
        let sameDecoration = startDecoration == decoration && headSecond == second
        if hasHead && sameDecoration && self.keepAlive == keepAlive && self.http10 == http10 && self.response.isSameValue(as: response) {
            return EncodedResponse(head: head, body: body)
        }
        let sameStart = hasStart && startDecoration == decoration && startHTTP10 == http10 && startResponse.hasSameHead(as: response)
        if sameStart && hasHead && headSecond == second && self.keepAlive == keepAlive && self.http10 == http10
            && self.response.body.count == response.body.count {
            // The same status line, fields and framing (another body of the same length: a
            // handler's answers of one shape): the last head as it is.
            self.response = consume response
            return EncodedResponse(head: head, body: body)
        }
        if sameStart && hasHead && headSecond == second {
            // The last head is `start`, its date and its framing: keep up to `Content-Length: `,
            // write the rest. (Unique now unless a connection still queues it: then this copies,
            // as a new head would allocate.)
            head.removeLast(head.count - start.count - (second == 0 ? 0 : HTTPDate.length + 8) - HTTPResponseEncoder.framingLabelCount)
            HTTPResponseEncoder.appendFramingValues(bodyCount: response.body.count, keepAlive: keepAlive, to: &head)
            self.response = consume response
            self.keepAlive = keepAlive
            self.http10 = http10
            return EncodedResponse(head: head, body: body)
        }
        head.removeAll(keepingCapacity: true)
        if head.capacity < 192 { head.reserveCapacity(192) }
        if !sameStart {
            // Its own array: sharing the head's storage would make the next append copy the head.
            start.removeAll(keepingCapacity: true)
            HTTPResponseEncoder.appendStatusAndFields(of: response, http10: http10, to: &start)
            if decoration >= 0, let policy {
                let withCacheControl = response.headers["Cache-Control"] == nil
                start.append(contentsOf: policy.takeUnretainedValue().encodedFields(rule: decoration, withCacheControl: withCacheControl))
            }
            startResponse = response
            startHTTP10 = http10
            startDecoration = decoration
            hasStart = true
        }
        head.append(contentsOf: start)
        if second != 0 {
            if dateSecond != second {
                dateLine = HTTPDate.headerLine(unixSeconds: second)
                dateSecond = second
            }
            head.append(contentsOf: dateLine)
        }
        headSecond = second
        HTTPResponseEncoder.appendFraming(bodyCount: response.body.count, keepAlive: keepAlive, to: &head)
        self.response = consume response
        self.keepAlive = keepAlive
        self.http10 = http10
        hasHead = true
        return EncodedResponse(head: head, body: body)
    }

    /// Forgets everything (the loop stops).
    mutating func removeAll() {
        self = ResponseHeadCache()
    }
}
