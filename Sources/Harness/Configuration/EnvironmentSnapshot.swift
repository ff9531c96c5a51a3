import CShim
import Foundation

/// The part of the process's environment the harness reads, taken once when a campaign begins
/// (``current()``): every `HARNESS_` variable set to a non-empty value (an empty one is unset,
/// for every ``Knob``); the variables a parent sets for its isolated child
/// (``Knob/ChildProcess``), and `CI`, as they are set (the child's test case is empty outside a
/// parameterized test); and whether the process runs a Swift Testing exit test. A campaign
/// reads every knob from its snapshot, so its steps (the options, the shard, replay, kept
/// failures, the summary) see one environment; ``current()`` is the one place the harness
/// reads the process's environment for them.
struct EnvironmentSnapshot: Sendable, Hashable {
    /// The variables kept, by name.
    let variables: [String: String]

    /// The variables of `environment` the harness reads.
    init(_ environment: [String: String]) {
        variables = environment.filter { name, value in
            if Knob.ChildProcess.all.contains(name) { return true }
            return name.hasPrefix(Self.harnessPrefix) ? !value.isEmpty : name == Self.ci || name == Self.exitTest
        }
    }

    /// The process's environment now. Read from the process's environment block, where a
    /// variable becomes a string only if its name may be one the harness reads
    /// (``mayBeRead(_:)``): building the whole environment as a dictionary
    /// (`ProcessInfo.environment`) cost about 100 µs, at every campaign. Of a name set twice,
    /// the first value counts, as for `getenv`.
    static func current() -> EnvironmentSnapshot {
        var environment: [String: String] = [:]
        // No block at all after `clearenv()`.
        guard var entry = cshim_environment() else { return EnvironmentSnapshot(environment) }
        while let variable = entry.pointee {
            entry += 1
            let bytes = UnsafeRawBufferPointer(start: variable, count: strlen(variable))
            guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")), mayBeRead(bytes[..<equals]) else { continue }
            let name = String(decoding: bytes[..<equals], as: UTF8.self)
            if environment[name] == nil {
                environment[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
            }
        }
        return EnvironmentSnapshot(environment)
    }

    /// Whether a variable named `name` may be one the harness reads, compared as bytes;
    /// ``init(_:)`` decides.
    private static func mayBeRead(_ name: Slice<UnsafeRawBufferPointer>) -> Bool {
        name.starts(with: harnessPrefix.utf8) || name.elementsEqual(ci.utf8) || name.elementsEqual(exitTest.utf8)
    }

    /// The value of `knob`; `nil` when it is unset or empty.
    subscript(knob: Knob) -> String? {
        variables[knob.name]
    }

    /// The scenario this process explores as an isolated child, if it is one
    /// (``Knob/ChildProcess/scenario``).
    var childScenario: String? {
        variables[Knob.ChildProcess.scenario]
    }

    /// Whether this process sums up its test run: not an isolated child nor an exit test,
    /// whose parents sum up theirs.
    var sumsUpRun: Bool {
        childScenario == nil && variables[Self.exitTest] == nil
    }

    /// The prefix of every knob's name, and of the variables a parent sets for its child.
    static let harnessPrefix = "HARNESS_"
    /// Set by CI services: kept failures are replayed there but not written.
    static let ci = "CI"
    /// Set by Swift Testing in the process of an exit test.
    static let exitTest = "SWT_BACKCHANNEL"
}
