/// The calls of one generated scenario: an initial part, run alone; a parallel part, one list
/// of calls per client, run at once; and a final part, run alone after it.
struct GeneratedScenario<Call: Sendable>: Sendable {
    var initial: [Call]
    var parallel: [[Call]]
    var final: [Call]

    /// How many calls it makes.
    var callCount: Int {
        initial.count + parallel.reduce(0) { $0 + $1.count } + final.count
    }

    /// Its shape in words: `3 threads, 17 calls (2 initial, 13 parallel, 2 final)`.
    func shape(clients: String) -> String {
        let parallelCount = parallel.reduce(0) { $0 + $1.count }
        let plural = parallel.count == 1 ? "" : "s"
        return "\(parallel.count) \(clients)\(plural), \(callCount) call\(callCount == 1 ? "" : "s") "
            + "(\(initial.count) initial, \(parallelCount) parallel, \(final.count) final)"
    }
}

/// A generator that could not produce a value, and the operation it draws arguments for.
public struct GeneratorFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The generator's name.
    public let generator: String
    /// Where the operation it belongs to was declared: `File.swift:12`.
    public let operation: String

    public var description: String {
        "the generator \(generator) of the operation declared at \(operation) cannot produce a value"
            + " (an empty range or list, or a filter that rejected \(Generator<Int>.filterAttempts) draws in a row)"
    }
}

extension LinearizabilityTest {
    /// Draws the scenario of `seed` under `options`: its shape first, then each call's
    /// operation (evenly among the operations) and argument, initial part, parallel part
    /// thread by thread, final part. The initial and final parts, run alone, draw among the
    /// operations that are not blocking only (none, when every one is): a blocking call
    /// there could wait for good with nothing else running. Throws when a generator
    /// produces no value.
    func generate(seed: UInt64, options: LinearizabilityOptions) throws(GeneratorFailure) -> GeneratedScenario<Call> {
        var random = ScenarioRandom(seed: seed)
        let threads = Int.random(in: options.threads, using: &random)
        let initialCount = Int.random(in: options.initialOperations, using: &random)
        let perThread = (0..<threads).map { _ in Int.random(in: options.operationsPerThread, using: &random) }
        let finalCount = Int.random(in: options.finalOperations, using: &random)
        let aloneChoices = operations.indices.filter { !operations[$0].isBlocking }
        func calls(_ count: Int, alone: Bool) throws(GeneratorFailure) -> [Call] {
            let choices = alone ? aloneChoices : Array(operations.indices)
            guard !choices.isEmpty else { return [] }
            var calls: [Call] = []
            for _ in 0..<count {
                let spec = operations[choices[Int.random(in: choices.indices, using: &random)]]
                guard let call = spec.draw(&random) else {
                    throw GeneratorFailure(generator: spec.generatorName, operation: spec.declaredAt)
                }
                calls.append(call)
            }
            return calls
        }
        let initial = try calls(initialCount, alone: true)
        var parallel: [[Call]] = []
        for count in perThread {
            parallel.append(try calls(count, alone: false))
        }
        return GeneratedScenario(initial: initial, parallel: parallel, final: try calls(finalCount, alone: true))
    }

    /// How many scenarios ``generate(_:campaignSeed:options:coverage:)`` draws to pick one.
    static var scenarioDraws: Int { 8 }

    /// Scenario `index` of the campaign of `campaignSeed`: of ``scenarioDraws`` scenarios,
    /// each drawn from a seed of its own (the first from the seed a campaign without this
    /// choice would use), the one with the most sequence shapes `coverage` has not seen
    /// (the first among equals), so that the operation mix keeps reaching sequences earlier
    /// scenarios did not. Its code is its own seed: regenerating it draws it alone. Notes its
    /// shapes in `coverage`.
    func generate(
        _ index: Int,
        campaignSeed: UInt64,
        options: LinearizabilityOptions,
        coverage: inout SequenceCoverageCounter
    ) throws(GeneratorFailure) -> (code: ScenarioCode, scenario: GeneratedScenario<Call>) {
        let first = SplitMix64.seed(campaignSeed, execution: index)
        var best: (code: ScenarioCode, scenario: GeneratedScenario<Call>, shapes: Set<SequenceShape>, novelty: Int)?
        for draw in 0..<Self.scenarioDraws {
            let code = ScenarioCode(seed: draw == 0 ? first : SplitMix64.seed(first, execution: draw))
            let scenario = try generate(seed: code.seed, options: options)
            let shapes = scenario.sequenceShapes
            let novelty = coverage.novelty(of: shapes)
            if novelty > best?.novelty ?? -1 {
                best = (code, scenario, shapes, novelty)
            }
        }
        guard let best else { preconditionFailure("no scenario drawn") }
        coverage.note(best.shapes)
        return (best.code, best.scenario)
    }

    /// The scenario `code` names: the one its seed draws, shrunk along its path. Throws
    /// when a step of the path names a candidate the scenario no longer offers (the test's
    /// operations or generators changed since the code was recorded).
    func regenerate(_ code: ScenarioCode, options: LinearizabilityOptions) throws(LinearizabilityTestError)
        -> GeneratedScenario<Call>
    {
        var scenario: GeneratedScenario<Call>
        do {
            scenario = try generate(seed: code.seed, options: options)
        } catch {
            throw .generator(error)
        }
        for (step, index) in code.path.enumerated() {
            let candidates = scenario.shrinkCandidates()
            guard index < candidates.count else {
                throw .scenarioCodeOutdated(
                    code: code.description, step: step, candidate: index, candidates: candidates.count)
            }
            scenario = candidates[index]
        }
        return scenario
    }
}
