import Harness
import Primitives

/// Stress tests of killable threads. They cancel threads with `pthread_cancel`, which
/// ThreadSanitizer does not survive: see ``RuntimeSanitizer``.
public enum KillableThreadStressTests {
    /// How a kill raced the end of a thread's body.
    public struct KillRace: Hashable, Sendable, CustomStringConvertible {
        /// What `kill()` returned.
        public let killReturned: Bool
        /// How the thread exited, as `join()` reported it.
        public let exit: ExitKind
        /// Whether the body reached its end.
        public let completed: Bool

        public var description: String {
            "kill() \(killReturned ? "requested" : "did nothing"), exit \(exit), body "
                + "\(completed ? "completed" : "cut short")"
        }
    }

    /// A thread whose body passes two cancellation points is killed from another thread
    /// while it runs: a kill that did something and a body that completed are both fine,
    /// but the exit kind must say whether the body completed, and a kill that did nothing
    /// must come after the body completed.
    public static func killRace(_ make: @escaping KillableThreadMaker) -> StressTest<KillRace> {
        StressTest(outcomes: [
            .acceptable(KillRace(killReturned: true, exit: .killed, completed: false), meaning: "killed in its body"),
            .acceptable(
                KillRace(killReturned: false, exit: .finished, completed: true),
                meaning: "the body ended before the kill"),
            .interesting(
                KillRace(killReturned: true, exit: .finished, completed: true),
                meaning: "the kill came while the body returned: the body won"
            )
        ]) { scenario in
            let completed = SeamAtomic(false)
            let killed = SeamAtomic(false)
            let thread = make {
                Seam.cancellationPoint()
                Seam.cancellationPoint()
                completed.store(true)
            }
            Harness.check(thread.start(), "start failed")
            scenario.spawn { killed.store(thread.kill()) }
            scenario.joinAll()
            guard case .joined(let exit) = thread.join() else {
                Harness.check(false, "join did not reap the thread")
                return KillRace(killReturned: killed.load(), exit: .finished, completed: completed.load())
            }
            return KillRace(killReturned: killed.load(), exit: exit, completed: completed.load())
        }
    }
}
