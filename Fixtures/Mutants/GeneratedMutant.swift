import Harness

/// A deliberately broken primitive that the primitive's hand-written scenarios miss and its
/// generated scenarios catch: the mutant gate shows both.
public struct GeneratedMutant: Sendable, CustomStringConvertible {
    /// A hand-written scenario of the primitive, run on the mutant.
    public struct HandWritten: Sendable {
        /// The scenario's name.
        public let name: String
        /// The scenario.
        public let scenario: @Sendable (Scenario) -> Void
    }

    /// What is broken.
    public let summary: String
    /// The primitive's hand-written scenarios that exercise what is broken, on the mutant:
    /// they pass.
    public let handWritten: [HandWritten]
    /// The options under which the generated scenarios catch it.
    public let options: LinearizabilityOptions
    /// Runs the primitive's generated scenarios on the mutant, as a test named by the first
    /// argument.
    public let generated:
        @Sendable (String, LinearizabilityOptions) throws(LinearizabilityTestError) -> LinearizabilityTestReport

    /// The mutant's name, for tests and tokens.
    public var name: String { "generated mutant: \(summary)" }

    public var description: String { summary }

    /// Every such mutant.
    public static let all: [GeneratedMutant] = [
        GeneratedMutant(
            summary: "AtomicBox.compareExchange compares outside the lock",
            handWritten: [
                HandWritten(
                    name: "atomic box updates",
                    scenario: AtomicBoxScenarios.noLostUpdates { CheckThenActAtomicBox<Int>(0) })
            ],
            options: LinearizabilityOptions(seed: 1)
        ) { name, options throws(LinearizabilityTestError) in
            try AtomicBoxOperations.test { CheckThenActAtomicBox<Int?>(0) }.run(name, options: options)
        },
        GeneratedMutant(
            summary: "a read overtakes a write another thread enqueued",
            handWritten: [
                HandWritten(
                    name: "rw exclusion", scenario: ReadWriteScenarios.exclusion { OvertakingReadWriteCoordinator() }),
                HandWritten(
                    name: "rw write order",
                    scenario: ReadWriteScenarios.enqueuedWritesInOrder { OvertakingReadWriteCoordinator() })
            ],
            options: LinearizabilityOptions(scenarios: 30, seed: 1)
        ) { name, options throws(LinearizabilityTestError) in
            try ReadWriteOperations.test { OvertakingReadWriteCoordinator() }.run(name, options: options)
        },
        GeneratedMutant(
            summary: "a limiter admits a newcomer before the task it woke",
            handWritten: [
                HandWritten(
                    name: "limiter fifo",
                    scenario: AsyncScenarios.limiterIsFIFO { BargingConcurrencyLimiter(concurrency: 1) })
            ],
            options: LinearizabilityOptions(seed: 1)
        ) { name, options throws(LinearizabilityTestError) in
            try LimiterOperations.test(limit: 1) { BargingConcurrencyLimiter(concurrency: 1) }.run(
                name, options: options)
        }
    ]
}
