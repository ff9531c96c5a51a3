/// A value for each thread, task and job a strategy has seen, looked up by the entity's number
/// in an array of its kind: a strategy asks at every decision, for every candidate, where a
/// dictionary hashed each time. Threads, tasks and jobs are numbered densely from 0 in an
/// execution, so the arrays are as long as the execution has entities.
struct EntityTable<Value> {
    private var threads: [Value?] = []
    private var tasks: [Value?] = []
    private var jobs: [Value?] = []
    private var clock: Value?

    /// The value of `entity`; `nil` when none was set. Setting `nil` removes it.
    subscript(entity: Entity) -> Value? {
        @inline(__always) get {
            switch entity {
            case .thread(let number): Self.value(at: number, in: threads)
            case .task(let number): Self.value(at: number, in: tasks)
            case .job(let number): Self.value(at: number, in: jobs)
            case .clock: clock
            }
        }
        set {
            switch entity {
            case .thread(let number): Self.set(newValue, at: number, in: &threads)
            case .task(let number): Self.set(newValue, at: number, in: &tasks)
            case .job(let number): Self.set(newValue, at: number, in: &jobs)
            case .clock: clock = newValue
            }
        }
    }

    /// The value of thread `number`, as `self[.thread(number)]`.
    subscript(thread number: Int) -> Value? {
        @inline(__always) get { Self.value(at: number, in: threads) }
    }

    /// Forgets every value, keeping the storage for the next execution's.
    mutating func removeAll() {
        threads.empty()
        tasks.empty()
        jobs.empty()
        clock = nil
    }

    @inline(__always)
    private static func value(at number: Int, in values: [Value?]) -> Value? {
        number >= 0 && number < values.count ? values[number] : nil
    }

    private static func set(_ value: Value?, at number: Int, in values: inout [Value?]) {
        precondition(number >= 0, "an entity is numbered from 0, not \(number)")
        guard value != nil || number < values.count else { return }
        values.pad(toHold: number, with: nil)
        values[number] = value
    }
}
