// SPDX-License-Identifier: MIT
import Testing

/// The test suite's own time budgets (`TestTime` in HarnessTesting): how the environment and the
/// load probe stretch them.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct TestTimeTests {
    @Test func environmentScaleIsANumberAtLeastOne() {
        #expect(TestTime.environmentScale(nil) == 1)
        #expect(TestTime.environmentScale("3") == 3)
        #expect(TestTime.environmentScale("2.5") == 2.5)
        #expect(TestTime.environmentScale("0.5") == 1)
        #expect(TestTime.environmentScale("fast") == 1)
        #expect(TestTime.environmentScale("nan") == 1)
        #expect(TestTime.environmentScale("1e9") == 100)
    }

    @Test func probeFactorIsTheWorseOfCPUWaitAndLoadPerCore() {
        // Quiet: the loop got its core, the load is below the core count.
        #expect(TestTime.factor(cpuWall: 0.010, cpuThread: 0.010, loadAverage: 0.5, cores: 2) == 1)
        // The loop waited three times its CPU time for a core.
        #expect(TestTime.factor(cpuWall: 0.030, cpuThread: 0.010, loadAverage: 1, cores: 2) == 3)
        // A load of 12 on 2 cores: 6 runnable threads per core.
        #expect(TestTime.factor(cpuWall: 0.010, cpuThread: 0.010, loadAverage: 12, cores: 2) == 6)
        #expect(TestTime.factor(cpuWall: 5, cpuThread: 0.001, loadAverage: 40, cores: 2) == TestTime.maximumProbeFactor)
        #expect(TestTime.factor(cpuWall: 0.01, cpuThread: 0, loadAverage: .nan, cores: 0) == TestTime.maximumProbeFactor)
    }

    @Test func budgetsAreStretchedBySomethingAtLeastOne() {
        #expect(TestTime.scale >= 1)
        // The load may change between two reads (the scale follows it), within the probe's bounds.
        let ceiling = 2 * TestTime.maximumProbeFactor * TestTime.environmentFactor
        #expect(TestTime.budget(2) >= 2 && TestTime.budget(2) <= ceiling)
        #expect(TestTime.budgetMs(100) >= 100)
        #expect(TestTime.budgetMs(Int(Int32.max)) == Int32.max)
        #expect(TestTime.duration(1) >= .seconds(1))
    }
}
