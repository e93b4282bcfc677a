// SPDX-License-Identifier: MIT
import HarnessJSON

/// Publish (GET and POST) and signal requests, and their response parser.
enum PublishEndpoints {
    static func publish(publishKey: String, subscribeKey: String, channel: String, messageText: String, meta: JSONValue?,
                        store: Bool?, ttl: Int?, usePOST: Bool, sequence: Int, replicate: Bool = true,
                        customMessageType: String? = nil) -> PubNubRequest
    {
        var query: [(String, String)] = []
        if let store { query.append(("store", store ? "1" : "0")) }
        if !replicate { query.append(("norep", "true")) }
        if let ttl, store != false, ttl > 0 { query.append(("ttl", String(ttl))) }
        if let meta { query.append(("meta", meta.jsonText)) }
        query.append(("seqn", String(sequence)))
        if let customMessageType { query.append(("custom_message_type", customMessageType)) }
        var path = "/publish/\(PercentEncoding.encode(publishKey))/\(PercentEncoding.encode(subscribeKey))/0/\(PercentEncoding.encode(channel))/0"
        var body: [UInt8]?
        if usePOST {
            body = Array(messageText.utf8)
        } else {
            path += "/" + PercentEncoding.encode(messageText)
        }
        return PubNubRequest(operation: .publish, method: usePOST ? "POST" : "GET", path: path, query: query, body: body,
                             channels: [channel])
    }

    static func signal(publishKey: String, subscribeKey: String, channel: String, messageText: String,
                       customMessageType: String? = nil) -> PubNubRequest {
        PubNubRequest(operation: .signal,
                      path: "/signal/\(PercentEncoding.encode(publishKey))/\(PercentEncoding.encode(subscribeKey))/0/\(PercentEncoding.encode(channel))/0/\(PercentEncoding.encode(messageText))",
                      query: customMessageType.map { [("custom_message_type", $0)] } ?? [], channels: [channel])
    }

    /// `[1,"Sent","<timetoken>"]` → result; `[0,"<text>",…]` → BadRequest.
    static func parse(_ request: PubNubRequest) -> @Sendable (JSONValue) -> Result<PNPublishResult, PNStatus> {
        { body in
            if body[0]?.int64Value == 0 {
                return .failure(PNStatus(category: .badRequest, operation: request.operation, statusCode: 200,
                                         errorData: PNErrorData(information: body[1]?.stringValue ?? "publish refused", body: body)))
            }
            guard body[0]?.int64Value == 1, let tt = body[2]?.timetokenValue else {
                return .failure(ResponseClassifier.malformed(request, request.path, 200, "unexpected publish response shape", body))
            }
            return .success(PNPublishResult(timetoken: tt, information: body[1]?.stringValue ?? ""))
        }
    }
}
