// SPDX-License-Identifier: MIT
import HarnessJSON

extension PubNubService {
    /// The App Context state of `subscribeKey` (uuids, channels, memberships), for inspection.
    public func objectsSnapshot(subscribeKey: String) -> JSONValue {
        withState(subscribeKey) { state, _, _ in state.objects.json }
    }

    /// Forgets the App Context state of `subscribeKey` (messages, presence and grants stay).
    public func resetObjects(subscribeKey: String) {
        withState(subscribeKey) { state, _, _ in state.objects = ObjectsStore() }
    }
}

extension AdminAPI {
    /// `GET /__admin/objects/{subscribeKey}`: the key's App Context state;
    /// `DELETE`: forget it.
    func objectsRoute(key: String, request: HTTPRequest) -> HTTPResponse {
        guard let control = serviceControl else { return Self.error(501, "service control is not available in this server") }
        switch request.method {
        case "GET":
            return Self.ok(.object([("subscribeKey", .string(key)), ("objects", control.objects(key))]))
        case "DELETE":
            control.resetObjects(key)
            return Self.ok(.object([("subscribeKey", .string(key)), ("cleared", .bool(true))]))
        default:
            return Self.methodNotAllowed(request.method, allowed: "GET, DELETE")
        }
    }
}
