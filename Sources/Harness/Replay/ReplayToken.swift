import Foundation

/// One step of a schedule as a replay token stores it: who took it, what it did, and for a
/// choice among jobs, which one.
struct EncodedStep: Hashable, Sendable, Codable, CustomStringConvertible {
    let thread: Int?
    let kind: OperationKind
    var choice: Int? = nil

    init(thread: Int?, kind: OperationKind, choice: Int? = nil) {
        self.thread = thread
        self.kind = kind
        self.choice = choice
    }

    init(_ step: TraceStep) {
        self.init(thread: step.thread, kind: step.kind, choice: step.choice)
    }

    var description: String {
        "\(thread.map { "T\($0)" } ?? "scheduler") \(kind)\(choice.map { " #\($0)" } ?? "")"
    }

    /// How many bytes the step takes: two, three for a choice.
    var byteCount: Int { choice == nil ? 2 : 3 }

    /// Calls `body` with each of the step's bytes, without allocating: the thread (0xFF for
    /// the scheduler), the operation, and for a choice the index chosen.
    func forEachByte(_ body: (UInt8) -> Void) {
        body(thread.map { UInt8(truncatingIfNeeded: $0) } ?? 0xFF)
        body(kind.rawValue)
        if let choice { body(UInt8(truncatingIfNeeded: choice)) }
    }

    /// The step's bytes.
    var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount)
        forEachByte { bytes.append($0) }
        return bytes
    }
}

/// Names one execution of one scenario exactly: replaying it follows the recorded schedule
/// step by step and reports the first step where the code no longer does what it did.
///
/// Its text form is `H4.<scenario>.<strategy>.<seed>.<execution>.<steps>`: the format
/// version, a hash of the scenario's name, the strategy and seed that found it (for the
/// reader; replay does not need them), the execution's number in its campaign, and the
/// schedule in unpadded base64url: two bytes a step (thread, operation), three for a
/// choice among jobs, the bytes coded with ``StepCompression`` (marked by a leading `z`)
/// when that is shorter.
///
/// A token recorded in a scenario that a ``LinearizabilityTest`` generated has one more
/// field before the steps, the scenario's code (``generatedScenario``):
/// `H4.<scenario>.<strategy>.<seed>.<execution>.<code>.<steps>`. The code regenerates the
/// scenario, so the one token names scenario and schedule together.
public struct ReplayToken: Sendable, Hashable, CustomStringConvertible {
    /// The version of the text form this type reads and writes, and of the scheduling
    /// points its steps follow: it changes when either does, so that a token recorded by an
    /// older harness is refused with that reason instead of diverging part way. Version 2:
    /// the task executor's own bookkeeping no longer takes scheduling decisions, and its
    /// timer thread starts with the first timer. Version 3: nor steps, unless it waits (its
    /// locks, unlocks, signals and broadcasts leave the schedule of every scenario with tasks).
    /// Version 4: its lanes wait for jobs, and `joinAll()` for the tasks, without a step (the
    /// execution holds them until a job is queued, or the executor is quiet), and its threads
    /// start, and its idle lanes exit once it closed, without steps either.
    public static let formatVersion = 4

    /// The hash of the scenario's name (FNV-1a, 32 bits).
    public let scenarioHash: UInt32
    /// The strategy that found the schedule, as ``Strategy/description`` spells it.
    public let strategy: String
    /// The campaign's seed.
    public let seed: UInt64
    /// The execution's number in its campaign, from 0.
    public let execution: Int
    /// The code of the generated scenario the schedule ran in (its seed and shrink path, see
    /// ``LinearizabilityTest``), or `nil` for a scenario written by hand. Letters, digits and
    /// `-` only.
    public let generatedScenario: String?
    let steps: [EncodedStep]

    /// The number of steps in the schedule.
    public var stepCount: Int { steps.count }

    init(
        scenario: String, strategy: String, seed: UInt64, execution: Int, steps: [EncodedStep],
        generatedScenario: String? = nil
    ) {
        scenarioHash = Self.hash(scenario)
        self.strategy = strategy
        self.seed = seed
        self.execution = execution
        self.generatedScenario = generatedScenario
        self.steps = steps
    }

    /// Reads a token from its text before the steps and the steps' bytes, as a schedule record
    /// holds them; throws an error that says what is wrong with it.
    init(parsing textBeforeSteps: String, stepBytes: [UInt8]) throws(ReplayTokenError) {
        try self.init(parsing: textBeforeSteps + Self.encodeBase64URL(stepBytes))
    }

    /// Reads a token from its text form; throws an error that says what is wrong with it.
    public init(parsing text: String) throws(ReplayTokenError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let fields = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        guard fields.count == 6 || fields.count == 7 else {
            throw .malformed(.fieldCount(fields.count, text: trimmed))
        }
        guard fields[0].hasPrefix("H"), let version = Int(fields[0].dropFirst()) else {
            throw .malformed(.version(field: String(fields[0])))
        }
        guard version == Self.formatVersion else {
            throw .unsupportedVersion(version)
        }
        guard let scenarioHash = UInt32(fields[1], radix: 16) else {
            throw .malformed(.scenario(field: String(fields[1])))
        }
        guard !fields[2].isEmpty else { throw .malformed(.emptyStrategy) }
        guard let seed = UInt64(fields[3], radix: 16) else {
            throw .malformed(.seed(field: String(fields[3])))
        }
        guard let execution = Int(fields[4]), execution >= 0 else {
            throw .malformed(.execution(field: String(fields[4])))
        }
        var generatedScenario: String?
        if fields.count == 7 {
            guard !fields[5].isEmpty, fields[5].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
            else {
                throw .malformed(.generatedScenario(field: String(fields[5])))
            }
            generatedScenario = String(fields[5])
        }
        let stepsField = fields[fields.count - 1]
        let compressed = stepsField.hasPrefix("z")
        guard let coded = Self.decodeBase64URL(compressed ? stepsField.dropFirst() : stepsField) else {
            throw .malformed(.stepsNotBase64URL)
        }
        guard let bytes = compressed ? StepCompression.decompress(coded) : coded else {
            throw .malformed(.compressedStepsCorrupt)
        }
        var steps: [EncodedStep] = []
        var index = 0
        while index < bytes.count {
            guard index + 1 < bytes.count else { throw .malformed(.stepCutShort(step: steps.count)) }
            guard let kind = OperationKind(rawValue: bytes[index + 1]) else {
                throw .malformed(.unknownOperation(step: steps.count, code: bytes[index + 1]))
            }
            var step = EncodedStep(thread: bytes[index] == 0xFF ? nil : Int(bytes[index]), kind: kind)
            index += 2
            if kind == .chooseJob {
                guard index < bytes.count else { throw .malformed(.missingJobChoice(step: steps.count)) }
                step.choice = Int(bytes[index])
                index += 1
            }
            steps.append(step)
        }
        self.scenarioHash = scenarioHash
        self.strategy = String(fields[2])
        self.seed = seed
        self.execution = execution
        self.generatedScenario = generatedScenario
        self.steps = steps
    }

    public var description: String {
        let bytes = steps.flatMap(\.bytes)
        let compressed = StepCompression.compress(bytes)
        let encoded =
            compressed.count < bytes.count ? "z" + Self.encodeBase64URL(compressed) : Self.encodeBase64URL(bytes)
        return Self.textBeforeSteps(
            scenarioHash: scenarioHash, strategy: strategy, seed: seed, execution: String(execution),
            generatedScenario: generatedScenario)
            + encoded
    }

    /// A token's text up to its steps, with `execution` written as given.
    static func textBeforeSteps(
        scenarioHash: UInt32, strategy: String, seed: UInt64, execution: String, generatedScenario: String?
    ) -> String {
        let generated = generatedScenario.map { "\($0)." } ?? ""
        let hash = String(scenarioHash, radix: 16)
        return "H\(formatVersion).\(hash).\(strategy).\(String(seed, radix: 16)).\(execution).\(generated)"
    }

    /// Whether the token was recorded for the scenario named `name`.
    public func fits(scenario name: String) -> Bool { scenarioHash == Self.hash(name) }

    static func hash(_ text: String) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash &*= 0x0100_0193
        }
        return hash
    }

    private static func encodeBase64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func decodeBase64URL(_ text: Substring) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map { [UInt8]($0) }
    }
}

/// Why a replay token could not be used; its words are in `Report/` (``description``).
public enum ReplayTokenError: Error, Sendable, Hashable {
    /// The text is not a token; the value says what is wrong.
    case malformed(Malformation)
    /// The token was written by another version of the format.
    case unsupportedVersion(Int)
    /// The token was recorded for another scenario.
    case otherScenario(token: UInt32, scenario: String)

    /// What is wrong with a text that is not a token; each field as the text holds it.
    public enum Malformation: Sendable, Hashable {
        /// The text, trimmed, has `count` fields separated by '.', not 6 (7 for a generated scenario).
        case fieldCount(Int, text: String)
        /// The first field is not 'H' and a format version.
        case version(field: String)
        /// The scenario field is not hexadecimal.
        case scenario(field: String)
        /// The strategy field is empty.
        case emptyStrategy
        /// The seed field is not hexadecimal.
        case seed(field: String)
        /// The execution field is not a whole number.
        case execution(field: String)
        /// The generated scenario field holds more than letters, digits and '-'.
        case generatedScenario(field: String)
        /// The steps field is not base64url.
        case stepsNotBase64URL
        /// The steps field is marked compressed but does not decompress.
        case compressedStepsCorrupt
        /// Step `step` (from 0) ends before its operation.
        case stepCutShort(step: Int)
        /// Step `step` has operation code `code`, which names no operation.
        case unknownOperation(step: Int, code: UInt8)
        /// Step `step` chooses a job but ends before the job's index.
        case missingJobChoice(step: Int)
    }
}
