// SPDX-License-Identifier: MIT
import MockPubNubServer

/// Fuzz entry for fault-plan decoding (`FaultPlan.decode`, `FaultPlanFile.decode`).
///
/// Invariants: JSON the fault layer parses writes back to text that parses to the same value; a
/// plan that decodes re-encodes (`plan.json`) and decodes to the same plan; a plan file that
/// decodes, written back as an array of its plans, decodes to the same keys and plans; refusals
/// name a field path.
enum FaultPlanFuzz {
    static func run(_ input: [UInt8]) throws(FuzzFailure) {
        if let document = try? JSONValue.parse(input, maxDepth: 64) {
            let text = document.jsonBytes
            guard let again = try? JSONValue.parse(text, maxDepth: 64), again == document else {
                throw FuzzFailure(.faultPlan, "plan JSON writes back to the same value", String(decoding: text, as: UTF8.self))
            }
        }
        do {
            let plan = try FaultPlan.decode(json: input)
            try roundTrip(plan)
        } catch let failure as FuzzFailure {
            throw failure
        } catch let error as FaultPlanError {
            try checkRefusal(error)
        } catch {}
        do {
            let plans = try FaultPlanFile.decode(json: input)
            let file = JSONValue.array(plans.map(\.plan.json)).jsonBytes
            let again: [(subscribeKey: String, plan: FaultPlan)]
            do {
                again = try FaultPlanFile.decode(json: file)
            } catch {
                throw FuzzFailure(.faultPlan, "a re-encoded plan file decodes", "\(error) for \(String(decoding: file, as: UTF8.self))")
            }
            guard again.map(\.subscribeKey) == plans.map(\.subscribeKey), again.map(\.plan) == plans.map(\.plan) else {
                throw FuzzFailure(.faultPlan, "a re-encoded plan file decodes to the same plans", String(decoding: file, as: UTF8.self))
            }
        } catch let failure as FuzzFailure {
            throw failure
        } catch let error as FaultPlanError {
            try checkRefusal(error)
        } catch {}
    }

    static func roundTrip(_ plan: FaultPlan) throws(FuzzFailure) {
        let text = plan.json.jsonBytes
        let again: FaultPlan
        do {
            again = try FaultPlan.decode(json: text)
        } catch {
            throw FuzzFailure(.faultPlan, "a re-encoded plan decodes", "\(error) for \(String(decoding: text, as: UTF8.self))")
        }
        guard again == plan else {
            throw FuzzFailure(.faultPlan, "a re-encoded plan decodes to the same plan", String(decoding: text, as: UTF8.self))
        }
    }

    static func checkRefusal(_ error: FaultPlanError) throws(FuzzFailure) {
        guard !error.path.isEmpty, !error.message.isEmpty else {
            throw FuzzFailure(.faultPlan, "a refusal names a path and a reason", error.description)
        }
    }
}
