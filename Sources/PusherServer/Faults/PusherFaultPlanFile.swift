// SPDX-License-Identifier: MIT
import HarnessJSON

extension PusherFaultPlan {
    /// A plan file (`serve --pusher-plan FILE`): one plan or an array of plans, each naming its
    /// `appKey`; two plans for one key are refused.
    public static func decodeFile(json bytes: [UInt8]) throws(PusherFaultPlanError) -> [PusherFaultPlan] {
        let value: JSONValue
        do { value = try JSONValue.parse(bytes) } catch { throw PusherFaultPlanError(path: "$", message: "invalid JSON: \(error)") }
        let items: [(JSONValue, String)]
        if let array = value.arrayValue {
            items = array.enumerated().map { ($0.element, "$[\($0.offset)]") }
        } else {
            items = [(value, "$")]
        }
        var plans: [PusherFaultPlan] = []
        for (item, path) in items {
            let plan = try decode(item, path: path)
            let keyPath = path == "$" ? "appKey" : "\(path).appKey"
            guard let key = plan.appKey, !key.isEmpty else { throw PusherFaultPlanError(path: keyPath, message: "required in a plan file") }
            if plans.contains(where: { $0.appKey == key }) {
                throw PusherFaultPlanError(path: keyPath, message: "a second plan for key \"\(key)\"")
            }
            plans.append(plan)
        }
        return plans
    }
}
