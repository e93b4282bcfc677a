// SPDX-License-Identifier: MIT
import HarnessJSON

extension AdminAPI {
    /// `/__admin/files` and `/__admin/files/{subscribeKey}`: list (GET) or drop (DELETE) stored files.
    func fileRoute(_ rest: [String], request: HTTPRequest) -> HTTPResponse {
        guard let control = serviceControl else { return Self.error(501, "service control is not available in this server") }
        let key = rest.count == 2 ? rest[1] : nil
        switch request.method {
        case "GET":
            let files = control.listFiles(key)
            return Self.ok(.object([
                ("files", .array(files.map(\.json))), ("count", .int(files.count)), ("bytes", .int(files.reduce(0) { $0 + $1.size })),
            ]))
        case "DELETE":
            return Self.ok(.object([("removed", .int(control.removeFiles(key)))]))
        default:
            return Self.methodNotAllowed(request.method, allowed: "GET, DELETE")
        }
    }
}
