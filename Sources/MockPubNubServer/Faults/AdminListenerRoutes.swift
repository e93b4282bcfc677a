// SPDX-License-Identifier: MIT
import HarnessJSON

extension AdminAPI {
    /// `/__admin/listeners...` and `/__admin/refused-port`, through `ListenerFaultControl`.
    ///
    /// - `POST /__admin/listeners` `{"fault":"tls-expired"}` → `{"port":N,"fault":"tls-expired"}`
    /// - `DELETE /__admin/listeners/{port}`
    /// - `POST /__admin/listeners/{port}/connection-faults` `{"faults":["reset-on-accept",...]}`
    /// - `GET /__admin/refused-port` → `{"port":N}`
    func listenerRoute(_ rest: [String], request: HTTPRequest) -> HTTPResponse {
        guard let listeners = listenerControl else {
            return Self.error(501, "listener control is not available in this server")
        }
        let method = request.method
        do {
            switch (rest[0], rest.count, method) {
            case ("refused-port", 1, "GET"):
                return Self.ok(.object([("port", .int(try listeners.refusedPort()))]))
            case ("listeners", 1, "POST"):
                let body = try Self.object(request.body, allowed: ["fault"])
                let fault = try Self.listenerFault(body.value("fault") ?? .null, path: "fault")
                let port = try listeners.openListener(fault: fault)
                return Self.ok(.object([("port", .int(port)), ("fault", .string(fault.rawValue))]))
            case ("listeners", 2, "DELETE"):
                let port = try Self.port(rest[1])
                try listeners.closeListener(port: port)
                return Self.ok(.object([("port", .int(port)), ("closed", .bool(true))]))
            case ("listeners", 3, "POST") where rest[2] == "connection-faults":
                let port = try Self.port(rest[1])
                let body = try Self.object(request.body, allowed: ["faults"])
                guard case .array(let items)? = body.value("faults") else {
                    throw FaultPlanError(path: "faults", message: "expected an array of listener fault names")
                }
                var faults: [ListenerFault] = []
                for (index, item) in items.enumerated() {
                    faults.append(try Self.listenerFault(item, path: "faults[\(index)]"))
                }
                try listeners.queueConnectionFaults(faults, port: port)
                return Self.ok(.object([("port", .int(port)), ("queued", .int(faults.count))]))
            default:
                return Self.error(404, "no admin route \(method) \(request.rawPath)")
            }
        } catch let error as FaultPlanError {
            return Self.error(400, error.description)
        } catch {
            return Self.error(400, "\(error)")
        }
    }

    static func object(_ body: [UInt8], allowed: [String]) throws(FaultPlanError) -> PlanFieldReader {
        let json: JSONValue
        do {
            json = try JSONValue.parse(body, maxDepth: 64)
        } catch {
            throw FaultPlanError(path: "$", message: error.description)
        }
        return try PlanFieldReader(json, path: "", allowed: allowed)
    }

    static func listenerFault(_ json: JSONValue, path: String) throws(FaultPlanError) -> ListenerFault {
        guard case .string(let name) = json else {
            throw FaultPlanError(path: path, message: "expected a listener fault name")
        }
        guard let fault = ListenerFault(rawValue: name) else {
            throw FaultPlanError(path: path, message: "unknown listener fault \"\(name)\"")
        }
        return fault
    }

    static func port(_ text: String) throws(FaultPlanError) -> Int {
        guard let port = Int(text), (1...65_535).contains(port) else {
            throw FaultPlanError(path: "port", message: "expected a port number 1...65535, found \"\(text)\"")
        }
        return port
    }
}
