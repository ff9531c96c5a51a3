import Dispatch

/// A drop-in for the parts of `DispatchQueue` that protect state: serial and concurrent
/// queues, barriers, `sync`, `async` and `asyncAfter`. In production each call is the
/// `DispatchQueue` call behind one branch; on a thread a harness controls, the queue is
/// modelled with seam operations, so the scheduler decides when each block runs.
///
/// ```swift
/// let cache = HarnessDispatchQueue(label: "cache", attributes: .concurrent)
/// let hit = cache.sync { entries[key] }                    // readers side by side
/// cache.async(flags: .barrier) { entries[key] = value }    // a writer alone
/// cache.asyncAfter(deadline: .now() + .seconds(5)) { entries.removeAll() }
/// ```
///
/// Under a harness: blocks start in submission order; every block of a serial queue, and a
/// barrier on a concurrent queue, waits for the blocks before it to finish and runs alone;
/// `async` runs its block on a new controlled thread; `asyncAfter` submits it at its
/// deadline on the virtual clock (the distance from now, rounded to the millisecond), so
/// delays take no wall time. `sync` runs the block on the calling thread, as Dispatch
/// does; a `sync` onto a serial queue from its own block is reported as a deadlock instead
/// of crashing.
///
/// Not modelled: quality of service, target queues, `.initiallyInactive`,
/// `suspend`/`resume`, `DispatchWorkItem`s. A queue is used either in a scenario or
/// outside one: blocks submitted outside run on the real queue, blocks submitted inside on
/// the model, and the two do not exclude each other.
public final class HarnessDispatchQueue: @unchecked Sendable {
    /// The real queue, used in production.
    public let base: DispatchQueue
    /// Whether blocks may run side by side (the queue was created `.concurrent`).
    public let isConcurrent: Bool
    private let model = DispatchQueueModel()

    /// Creates a queue, serial unless `attributes` contains `.concurrent`.
    public init(
        label: String,
        qos: DispatchQoS = .unspecified,
        attributes: DispatchQueue.Attributes = [],
        autoreleaseFrequency: DispatchQueue.AutoreleaseFrequency = .inherit,
        target: DispatchQueue? = nil
    ) {
        base = DispatchQueue(
            label: label, qos: qos, attributes: attributes, autoreleaseFrequency: autoreleaseFrequency, target: target)
        isConcurrent = attributes.contains(.concurrent)
    }

    /// The label the queue was created with.
    public var label: String { base.label }

    /// Runs `work` on the queue and waits for it; returns what it returns.
    @inlinable
    public func sync<Result>(file: StaticString = #fileID, line: UInt = #line, execute work: () throws -> Result)
        rethrows -> Result
    {
        guard Seam.controllerForCurrentThread() != nil else { return try base.sync(execute: work) }
        return try runControlled(exclusive: !isConcurrent, file: file, line: line, work)
    }

    /// Runs `work` on the queue with `flags` (`.barrier` makes it run alone on a concurrent
    /// queue) and waits for it; returns what it returns.
    @inlinable
    public func sync<Result>(
        flags: DispatchWorkItemFlags,
        file: StaticString = #fileID,
        line: UInt = #line,
        execute work: () throws -> Result
    ) rethrows -> Result {
        guard Seam.controllerForCurrentThread() != nil else { return try base.sync(flags: flags, execute: work) }
        return try runControlled(exclusive: !isConcurrent || flags.contains(.barrier), file: file, line: line, work)
    }

    /// Submits `work` to run on the queue and returns at once. With a `group`, the group is
    /// entered now and left when `work` has run.
    @inlinable
    public func async(
        group: HarnessDispatchGroup? = nil,
        qos: DispatchQoS = .unspecified,
        flags: DispatchWorkItemFlags = [],
        file: StaticString = #fileID,
        line: UInt = #line,
        execute work: @escaping @Sendable @convention(block) () -> Void
    ) {
        guard Seam.controllerForCurrentThread() != nil else {
            base.async(group: group?.base, qos: qos, flags: flags, execute: work)
            return
        }
        submitControlled(
            group: group, exclusive: !isConcurrent || flags.contains(.barrier), deadline: nil, file: file, line: line,
            work)
    }

    /// Submits `work` to the queue at `deadline` (not before) and returns at once. Under a
    /// harness the deadline is on the virtual clock.
    @inlinable
    public func asyncAfter(
        deadline: DispatchTime,
        qos: DispatchQoS = .unspecified,
        flags: DispatchWorkItemFlags = [],
        file: StaticString = #fileID,
        line: UInt = #line,
        execute work: @escaping @Sendable @convention(block) () -> Void
    ) {
        guard Seam.controllerForCurrentThread() != nil else {
            base.asyncAfter(deadline: deadline, qos: qos, flags: flags, execute: work)
            return
        }
        let exclusive = !isConcurrent || flags.contains(.barrier)
        submitControlled(group: nil, exclusive: exclusive, deadline: deadline, file: file, line: line, work)
    }

    @usableFromInline
    func runControlled<Result>(exclusive: Bool, file: StaticString, line: UInt, _ work: () throws -> Result) rethrows
        -> Result
    {
        let call = SeamCall(.queue, .sync, isExclusive: exclusive)
        return try Seam.performing(call, on: self, insides: model.insides, file: file, line: line) {
            let ticket = model.submit(file: file, line: line)
            return try model.run(ticket: ticket, exclusive: exclusive, file: file, line: line, work)
        }
    }

    /// Submits a block under a controller: takes its ticket now (or, delayed, at its deadline
    /// on the controller's clock) and runs it on a controlled thread of its own.
    @usableFromInline
    func submitControlled(
        group: HarnessDispatchGroup?,
        exclusive: Bool,
        deadline dispatchDeadline: DispatchTime?,
        file: StaticString,
        line: UInt,
        _ work: @escaping @Sendable () -> Void
    ) {
        let deadline = dispatchDeadline.flatMap(HarnessDispatch.deadline)
        if dispatchDeadline != nil && deadline == nil { return }  // `.distantFuture`: never
        let call = SeamCall(.queue, dispatchDeadline == nil ? .async : .asyncAfter, isExclusive: exclusive)
        let model = model
        Seam.performing(call, on: self, insides: model.insides, file: file, line: line) {
            group?.enter(file: file, line: line)
            let ticket = dispatchDeadline == nil ? model.submit(file: file, line: line) : nil
            HarnessDispatch.spawn(file: file, line: line) {
                if let deadline { Seam.sleep(until: deadline, file: file, line: line) }
                let place = ticket ?? model.submit(file: file, line: line)
                model.run(ticket: place, exclusive: exclusive, file: file, line: line, work)
                group?.leave(file: file, line: line)
            }
        }
    }
}
