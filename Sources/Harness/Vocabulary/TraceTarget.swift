import Primitives

/// A shared object of one execution: its kind and its number among the objects of that kind,
/// counted in order of first use. Addresses differ from one execution to the next; the order
/// of first use does not, so the same schedule names the same objects.
public struct SharedObject: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What the object is. Each case prints its name.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A `SeamMutex`.
        case mutex
        /// A `SeamCondition`.
        case condition
        /// A `SeamAtomic`.
        case atomic
        /// A `HarnessDispatchQueue`.
        case queue
        /// A `HarnessDispatchSemaphore`.
        case semaphore
        /// A `HarnessDispatchGroup`.
        case group

        /// The kind of the drop-in a call is on.
        init(_ object: SeamCall.Object) {
            switch object {
            case .queue: self = .queue
            case .semaphore: self = .semaphore
            case .group: self = .group
            }
        }

        /// Whether it is a drop-in, whose own mutexes and conditions carry out the calls on it
        /// (``DropInCall``) and are named as the drop-in is.
        public var isDropIn: Bool {
            switch self {
            case .mutex, .condition, .atomic: false
            case .queue, .semaphore, .group: true
            }
        }
    }

    /// What the object is.
    public let kind: Kind
    /// Its number among the execution's objects of its kind, from 1.
    public let number: Int

    public init(_ kind: Kind, _ number: Int) {
        self.kind = kind
        self.number = number
    }

    /// The kind's name and the number: `mutex#1`.
    public var description: String { "\(kind.rawValue)#\(number)" }
}

/// What a step of a schedule acts on (``TraceStep/target``).
public enum TraceTarget: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A shared object: prints its name, `mutex#1`.
    case object(SharedObject)
    /// The thread a step spawns, joins or cancels: prints its label, `T2`.
    case thread(Int)
    /// The job a thread queues on the scenario's task executor, of the task numbered `task`
    /// (from 1, as ``TraceStep/task``): prints `task 2`; with `nil`, a job of no task, prints
    /// `a job of no task`.
    case job(task: Int?)
    /// The deadline of a sleep, `nanoseconds` on the virtual clock after the step: prints
    /// `until +5.0 ms`.
    case deadline(nanoseconds: UInt64)
    /// The virtual clock advancing by `nanoseconds`: prints `+5.0 ms`.
    case clockAdvance(nanoseconds: UInt64)
    /// A lane's choice of the job at `position` (from 1) of the `count` queued: prints
    /// `(queued job 2 of 3)`.
    case queuedJob(position: Int, count: Int)

    public var description: String {
        switch self {
        case .object(let object): "\(object)"
        case .thread(let thread): "T\(thread)"
        case .job(let task): task.map { "task \($0)" } ?? "a job of no task"
        case .deadline(let nanoseconds): "until +\(Self.milliseconds(nanoseconds)) ms"
        case .clockAdvance(let nanoseconds): "+\(Self.milliseconds(nanoseconds)) ms"
        case let .queuedJob(position, count): "(queued job \(position) of \(count))"
        }
    }

    /// The shared object, when the step acts on one.
    public var object: SharedObject? {
        if case .object(let object) = self { object } else { nil }
    }

    private static func milliseconds(_ nanoseconds: UInt64) -> Double {
        Double(nanoseconds) / 1_000_000
    }
}
