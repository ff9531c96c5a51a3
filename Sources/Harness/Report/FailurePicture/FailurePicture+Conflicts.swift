extension FailurePicture {
    /// How a step touches the object it names, for finding conflicts.
    public enum Access: Sendable, Hashable {
        /// Observes the object without changing it.
        case read
        /// Changes the object's state.
        case write

        /// How a step of `kind` touches its target, or `nil` when it touches no shared
        /// object.
        ///
        /// - Atomics: a load reads; a store and a read-modify-write write.
        /// - Mutexes: every operation writes (lock, tryLock, unlock, wake+relock), since
        ///   each changes or claims the owner.
        /// - Conditions: every operation writes (wait, signal, broadcast), since each
        ///   changes the set of waiters.
        /// - Not accesses: thread operations (start, spawn, join, cancel, exit; their
        ///   target is a thread, not a shared object), yields, sleeps, cancellation points,
        ///   a spurious wake-up (the scheduler's choice, not the thread's), and the
        ///   scheduler's and task executor's steps.
        public init?(_ kind: OperationKind) {
            switch kind {
            case .atomicLoad:
                self = .read
            case .atomicStore, .atomicReadModifyWrite,
                .lock, .tryLock, .unlock, .reacquire,
                .wait, .signal, .broadcast:
                self = .write
            case .start, .spawn, .join, .cancel, .cancellationPoint, .yield, .sleep, .resume, .exit,
                .spuriousWake, .advanceClock, .chooseJob, .enqueueJob, .takeJob, .handoff, .quiesce, .awaitTasks:
                return nil
            }
        }

        /// How `step` touches what it acts on (``TraceStep/accessTarget``): as its kind does
        /// (``init(_:)-(OperationKind)``), or for a drop-in call, as the call does: a queue's
        /// block that is not exclusive, a group's `wait` and `notify` read; every other call
        /// writes (it changes the queue's order, the semaphore's count or the group's work).
        init?(_ step: TraceStep) {
            guard let call = step.call else {
                self.init(step.kind)
                return
            }
            switch call.operation {
            case .wait where call.object.kind == .group, .notify: self = .read
            default: self = call.isExclusive ? .write : .read
            }
        }
    }

    /// Two steps that different lanes took on the same target, at least one of them a write
    /// (see ``Access``), so that their order decides what the execution does.
    ///
    /// Steps the harness takes in its own code (the task executor's lanes handing jobs to
    /// each other) are left out: they conflict at every job, and they are not the code
    /// under test.
    ///
    /// Of all such pairs the picture keeps the ones that order the execution and that
    /// program order does not already imply, which keeps their number linear in the trace:
    /// a read is paired with the write it read from, unless its lane accessed the target
    /// since that write; a write is paired with each other lane's latest read since the
    /// previous write or, when no lane read since, with that previous write. A lost update
    /// then shows as T1's load joined to T2's store, and T2's store joined to T1's store
    /// that overwrites it.
    public struct Conflict: Hashable, Sendable {
        /// The object both steps touch: `atomic#1`.
        public let target: TraceTarget
        /// The index in the trace of the earlier step.
        public let earlier: Int
        /// The index in the trace of the later step.
        public let later: Int

        /// The pair of steps `earlier` and `later` (indices in the trace) on `target`.
        public init(target: TraceTarget, earlier: Int, later: Int) {
            self.target = target
            self.earlier = earlier
            self.later = later
        }
    }

    /// The conflicts of `trace`, ordered by later step, then earlier step. Linear in the
    /// trace times the number of lanes.
    static func conflicts(in trace: [TraceStep]) -> [Conflict] {
        /// What matters of one target's past accesses.
        struct History {
            var lastWrite: (step: Int, lane: Lane)?
            /// Each lane's latest read since `lastWrite`.
            var readsSinceWrite: [(lane: Lane, step: Int)] = []
            var lastAccess: [Lane: Int] = [:]
        }
        var histories: [TraceTarget: History] = [:]
        var conflicts: [Conflict] = []
        for (index, step) in trace.enumerated() {
            guard let target = step.accessTarget, let access = Access(step), !step.isBookkeeping else { continue }
            let lane = Lane(of: step)
            var history = histories[target, default: History()]
            switch access {
            case .read:
                if let write = history.lastWrite, write.lane != lane, history.lastAccess[lane, default: -1] < write.step
                {
                    conflicts.append(Conflict(target: target, earlier: write.step, later: index))
                }
                history.readsSinceWrite.removeAll { $0.lane == lane }
                history.readsSinceWrite.append((lane, index))
            case .write:
                if history.readsSinceWrite.isEmpty {
                    if let write = history.lastWrite, write.lane != lane {
                        conflicts.append(Conflict(target: target, earlier: write.step, later: index))
                    }
                } else {
                    for read in history.readsSinceWrite where read.lane != lane {
                        conflicts.append(Conflict(target: target, earlier: read.step, later: index))
                    }
                }
                history.lastWrite = (index, lane)
                history.readsSinceWrite.removeAll()
            }
            history.lastAccess[lane] = index
            histories[target] = history
        }
        return conflicts
    }
}
