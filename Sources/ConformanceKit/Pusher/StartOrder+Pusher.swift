// SPDX-License-Identifier: MIT

extension StartOrder {
    /// The estimate for a Pusher case: `wait` steps, "must not" windows, reconnect lower bounds
    /// (`atLeastMs`) and fault delays are certain; its budget is ``PusherCaseBudget/derive(_:)``.
    public static func estimate(_ testCase: PusherCase) -> Estimate {
        var certain = PusherCaseBudget.faultMilliseconds(testCase.faultPlan)
        for step in testCase.steps {
            switch step {
            case .wait(let ms), .expectNoEvent(_, let ms), .expectNoPeerEvent(_, _, let ms), .expectNoReconnect(let ms),
                 .expectNotSubscribed(_, let ms), .expectReconnect(let ms, _), .expectNoUserEvent(_, let ms):
                certain += ms
            default:
                break
            }
        }
        return Estimate(certainMilliseconds: certain, budgetMilliseconds: ShardPlan.expectedMilliseconds(testCase))
    }
}
