import Foundation

/// How the harness reads the values of its knobs that are more than a number: a seed, a
/// shard, a file to write; and the seed `random` stands for, drawn once per test run.
enum HarnessEnvironment {
    /// The seed `HARNESS_SEED=random` stands for: drawn once per process, and handed to
    /// isolated children, so a random campaign's names, options and tokens agree.
    static let randomSeed: UInt64 = {
        if let inherited = EnvironmentSnapshot.current().variables[inheritedRandomSeedVariable],
            let seed = UInt64(inherited, radix: 16)
        {
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
                setting: Knob.seed.name,
                value: text,
                expected: "a decimal or 0x-hexadecimal number from 0 to 2^64-1, or 'random'"
            )
        }
        return parsed
    }

    /// The variable that makes this run one shard of a campaign: `i/n`.
    static let shardVariable = Knob.shard.name

    /// This run's shard of a campaign (`HARNESS_SHARD`): `nil` without one; with `i/n`, the
    /// scenarios whose name hashes to shard `i` (from 1) of `n`, so `n` runs with the same
    /// seed split one campaign between them, each exploration whole, and their summaries add
    /// up to the unsharded run's; with `i/n:schedules`, shard `i` of each exploration's
    /// schedules (``ScheduleShard``) where its options can split them
    /// (``CampaignOptions/splittingSchedules(_:)``), and the scenario whole otherwise. Throws
    /// when the value is neither, or not with 1 ≤ i ≤ n ≤ 1,000.
    static func shard(in environment: EnvironmentSnapshot) throws(HarnessConfigurationError) -> CampaignShard? {
        guard let text = environment[.shard] else { return nil }
        let modes = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let parts = modes[0].split(separator: "/", omittingEmptySubsequences: false)
        guard modes.count == 1 || modes[1] == CampaignShard.schedulesSuffix, parts.count == 2,
            let index = Int(parts[0]), let count = Int(parts[1]), ScheduleShard.counts.contains(count),
            (1...count).contains(index)
        else {
            throw .invalid(
                setting: shardVariable, value: text,
                expected: "i/n (this run's shard i of n of the scenarios) or i/n:\(CampaignShard.schedulesSuffix) "
                    + "(of each exploration's schedules), with 1 ≤ i ≤ n ≤ \(ScheduleShard.counts.upperBound)")
        }
        return CampaignShard(part: ScheduleShard(index, of: count), splitsSchedules: modes.count == 2)
    }

    /// Throws unless `path` names a file this process can write: an existing writable file,
    /// or a new one in an existing folder it can write to. Nothing is created.
    static func checkWritable(_ path: String, setting: String) throws(HarnessConfigurationError) {
        let files = FileManager.default
        var isFolder: ObjCBool = false
        let problem: String?
        if files.fileExists(atPath: path, isDirectory: &isFolder) {
            problem =
                isFolder.boolValue
                ? "it is a folder" : files.isWritableFile(atPath: path) ? nil : "it cannot be written"
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
}
