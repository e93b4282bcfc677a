// SPDX-License-Identifier: MIT
import HarnessJSON

/// A plan file as `pubnub-harness serve --plan FILE` reads it.
///
/// The file holds one plan or an array of plans. Each plan is installed under its
/// `subscribeKey`, or under `FaultLayer.wildcardKey` (every key without a plan of its own) when
/// it names none. Two plans for the same key are refused.
public enum FaultPlanFile {
    /// The plans of a file, with the key each one is installed under, in file order.
    public static func decode(json bytes: [UInt8]) throws(FaultPlanError) -> [(subscribeKey: String, plan: FaultPlan)] {
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes, maxDepth: 64)
        } catch {
            throw FaultPlanError(path: "$", message: error.description)
        }
        var plans: [FaultPlan] = []
        var paths: [String] = []
        if case .array(let items) = document {
            for (index, item) in items.enumerated() {
                let path = PlanFieldPath.element("", index)
                plans.append(try FaultPlan(json: item, path: path))
                paths.append(path)
            }
        } else {
            plans.append(try FaultPlan(json: document))
            paths.append("")
        }
        var seen: Set<String> = []
        var result: [(subscribeKey: String, plan: FaultPlan)] = []
        for (plan, path) in zip(plans, paths) {
            let key = plan.subscribeKey ?? FaultLayer.wildcardKey
            guard seen.insert(key).inserted else {
                throw FaultPlanError(path: PlanFieldPath.member(path, "subscribeKey"), message: "a second plan for key \"\(key)\"")
            }
            result.append((key, plan))
        }
        return result
    }
}

extension FaultLayer {
    /// Installs every plan of a plan file (see `FaultPlanFile`); returns the keys and seeds in file order.
    @discardableResult
    ///
    /// Every plan is checked before the first is installed, so an invalid file installs nothing.
    package func installPlans(fromFile bytes: [UInt8]) throws(FaultPlanError) -> [(subscribeKey: String, seed: UInt64)] {
        let plans = try FaultPlanFile.decode(json: bytes)
        var installed: [(subscribeKey: String, seed: UInt64)] = []
        for (key, plan) in plans {
            installed.append((key, try installPlan(plan, for: key)))
        }
        return installed
    }
}
