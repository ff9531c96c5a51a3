import Foundation
import Primitives

/// What one test run reads from the environment once, for every exploration in it and the
/// isolated children they start.
enum HarnessEnvironment {
    /// The seed `HARNESS_SEED=random` stands for: drawn once per process, and handed to
    /// isolated children, so a random campaign's names, options and tokens agree.
    static let randomSeed: UInt64 = {
        if let inherited = ProcessInfo.processInfo.environment[inheritedRandomSeedVariable], let seed = UInt64(inherited, radix: 16) {
            return seed
        }
        return UInt64.random(in: .min ... .max)
    }()

    /// Where a parent hands ``randomSeed`` to its isolated children.
    static let inheritedRandomSeedVariable = Knob.ChildProcess.randomSeed

    /// Reads a seed: decimal, hexadecimal with `0x`, or `random`.
    static func seed(parsing text: String) throws(HarnessConfigurationError) -> UInt64 {
        if text.lowercased() == "random" { return randomSeed }
        let parsed = text.lowercased().hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        guard let parsed else {
            throw .invalid(
                setting: ExplorationOptions.Variable.seed,
                value: text,
                expected: "a decimal or 0x-hexadecimal number from 0 to 2^64-1, or 'random'"
            )
        }
        return parsed
    }

    /// The variable that makes this run one shard of a campaign: `i/n`.
    static let shardVariable = Knob.shard.name

    /// Whether this run explores `scenario`: every scenario without `HARNESS_SHARD`; with
    /// `i/n`, the scenarios whose name hashes to shard `i` (from 1) of `n`, so `n` runs
    /// with the same seed split one campaign between them, each exploration whole, and
    /// their summaries add up to the unsharded run's. Throws when the value is not `i/n`
    /// with 1 ≤ i ≤ n ≤ 1,000.
    static func shardIncludes(_ scenario: String, environment: [String: String]) throws(HarnessConfigurationError) -> Bool {
        guard let text = Knob.shard.value(in: environment) else { return true }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), (1...1_000).contains(count), (1...count).contains(index) else {
            throw .invalid(setting: shardVariable, value: text, expected: "i/n: this run's shard i of n, with 1 ≤ i ≤ n ≤ 1000")
        }
        return Int(ReplayToken.hash(scenario) % UInt32(count)) == index - 1
    }

    /// Throws unless `path` names a file this process can write: an existing writable file,
    /// or a new one in an existing folder it can write to. Nothing is created.
    static func checkWritable(_ path: String, setting: String) throws(HarnessConfigurationError) {
        let files = FileManager.default
        var isFolder: ObjCBool = false
        let problem: String?
        if files.fileExists(atPath: path, isDirectory: &isFolder) {
            problem = isFolder.boolValue ? "it is a folder" : files.isWritableFile(atPath: path) ? nil : "it cannot be written"
        } else {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            if !files.fileExists(atPath: folder, isDirectory: &isFolder) || !isFolder.boolValue {
                problem = "its folder \(folder) does not exist"
            } else {
                problem = files.isWritableFile(atPath: folder) ? nil : "its folder \(folder) cannot be written to"
            }
        }
        if let problem {
            throw .invalid(setting: setting, value: path, expected: "a file this process can write (\(problem))")
        }
    }

    /// The token in `HARNESS_REPLAY`, when it holds one that can be read.
    static var replayToken: ReplayToken? {
        Knob.replay.value(in: ProcessInfo.processInfo.environment).flatMap { try? ReplayToken(parsing: $0) }
    }
}

extension Harness {
    /// The seeds a campaign parameterized over seeds runs, so its test and scenario names
    /// say the seed actually used: the seed of the token in `HARNESS_REPLAY`, so the replay
    /// finds its case; else the seed `HARNESS_SEED` names (`random` is drawn once per test
    /// run); else `defaults`. An unreadable value leaves `defaults`, and the exploration
    /// reports it.
    public static func seeds(default defaults: [UInt64]) -> [UInt64] {
        if let token = HarnessEnvironment.replayToken { return [token.seed] }
        if let text = Knob.seed.value(in: ProcessInfo.processInfo.environment),
           let seed = try? HarnessEnvironment.seed(parsing: text) {
            return [seed]
        }
        return defaults
    }

    /// The strategies a campaign parameterized over strategies runs: the strategy of the
    /// token in `HARNESS_REPLAY`; else the one `HARNESS_STRATEGY` names; else `defaults`.
    public static func strategies(default defaults: [Strategy]) -> [Strategy] {
        if let token = HarnessEnvironment.replayToken, let strategy = try? Strategy(tag: token.strategy) { return [strategy] }
        if let text = Knob.strategy.value(in: ProcessInfo.processInfo.environment),
           let strategy = try? Strategy(parsing: text) {
            return [strategy]
        }
        return defaults
    }
}

/// Whether the token in `HARNESS_REPLAY` fitted any scenario of the run: one that fits
/// nothing replays nothing, and the run must not pass as if it had.
enum ReplayMatching {
    private struct State {
        var fitted = 0
        var missed: [String] = []
        var checkRegistered = false
    }

    nonisolated(unsafe) private static var state = State()
    private static let lock = SeamMutex()

    /// Notes that the environment's token fitted `scenario`.
    static func noteFit() {
        lock.withLockDirectly { state.fitted += 1 }
    }

    /// Notes that the environment's token did not fit `scenario`; the first note arranges
    /// the check at exit. Isolated children and exit tests (whose parents check) are left out.
    static func noteMiss(_ scenario: String) {
        let environment = ProcessInfo.processInfo.environment
        guard environment[Harness.childScenarioVariable] == nil, environment[exitTestVariable] == nil else { return }
        let register = lock.withLockDirectly {
            state.missed.append(scenario)
            defer { state.checkRegistered = true }
            return !state.checkRegistered
        }
        if register {
            atexit { ReplayMatching.failIfNothingFitted() }
        }
    }

    /// Set by Swift Testing in the process of an exit test.
    static let exitTestVariable = "SWT_BACKCHANNEL"

    private static func failIfNothingFitted() {
        let (fitted, missed) = lock.withLockDirectly { (state.fitted, state.missed) }
        guard fitted == 0, !missed.isEmpty else { return }
        let text = ProcessInfo.processInfo.environment[ExplorationOptions.Variable.replay] ?? ""
        FileHandle.standardError.write(Data((ReplayMatching.message(token: text, missed: missed) + "\n").utf8))
        _exit(EXIT_FAILURE)
    }

    /// Why the run fails: the token fitted none of the scenarios in `missed`.
    static func message(token: String, missed: [String]) -> String {
        let shown = missed.prefix(5).map { "'\($0)'" }.joined(separator: ", ")
        let more = missed.count > 5 ? " and \(missed.count - 5) more" : ""
        return """
            error: \(ExplorationOptions.Variable.replay)='\(token)' fits none of the \(missed.count) scenarios this run explored \
            (\(shown)\(more)), so nothing was replayed. Run the command the failure printed, unchanged: its --filter \
            selects the test that recorded the token, and the scenario's name must be the one it had then.
            """
    }
}
