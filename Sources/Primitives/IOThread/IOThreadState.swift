/// What has happened to an ``IOThread`` so far. Flags are only ever added.
public struct IOThreadState: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8

    /// Creates a state from its raw flags.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// No flag: ``IOThread/start()`` has not launched a thread.
    public static let unused: IOThreadState = []
    /// ``IOThread/start()`` launched the OS thread.
    public static let started = IOThreadState(rawValue: 1 << 0)
    /// The thread is entering or has entered the body, no kill having come first: from here
    /// a kill cancels the thread, which ends at the body's entry or at one of its
    /// cancellation points.
    public static let entered = IOThreadState(rawValue: 1 << 1)
    /// The body returned.
    public static let finished = IOThreadState(rawValue: 1 << 2)
    /// ``IOThread/kill()`` requested the thread's end. It may still have finished: see
    /// ``ExitKind``.
    public static let cancelled = IOThreadState(rawValue: 1 << 3)
    /// The thread ran every handler registered before it exited; the OS thread is ending or
    /// gone.
    public static let exited = IOThreadState(rawValue: 1 << 4)

    private static let names: [(IOThreadState, String)] = [
        (.started, "started"), (.entered, "entered"), (.finished, "finished"),
        (.cancelled, "cancelled"), (.exited, "exited")
    ]

    /// Every flag present, such as `started, entered, cancelled`; `unused` when there is none.
    public var description: String {
        let present = Self.names.filter { contains($0.0) }.map(\.1)
        return present.isEmpty ? "unused" : present.joined(separator: ", ")
    }
}
