import Dispatch
import Harness
import Primitives

/// Stress tests of the Dispatch helpers. Dispatch runs outside the seam, so a forbidden
/// outcome here has no schedule under the deterministic scheduler: the escalation says so.
public enum DispatchStressTests {
    /// Blocks run on a concurrent queue while another thread pauses it; the outcome is how
    /// many blocks were seen running during the pause.
    public static let pausedQueue = StressTest<Int>(outcomes: [
        .acceptable(0, meaning: "no block ran during the pause"),
        .forbidden(meaning: "blocks ran while the queue was paused") { $0 > 0 }
    ]) { scenario in
        let queue = DispatchQueue(label: "stress.paused", attributes: .concurrent)
        let running = SeamAtomic(0)
        let seen = SeamAtomic(0)
        let group = DispatchGroup()
        scenario.spawn {
            for _ in 0..<8 {
                queue.async(group: group) {
                    running.add(1)
                    running.add(-1)
                }
            }
        }
        scenario.spawn {
            queue.withPaused {
                for _ in 0..<4 where running.load() != 0 { seen.add(1) }
            }
        }
        scenario.joinAll()
        group.wait()
        return seen.load()
    }

    /// Work and a barrier on ``GCD``'s shared queue, submitted from two tasks: the outcome
    /// is whether the barrier saw other work running.
    public static let barrierRunsAlone = StressTest<Bool>(outcomes: [
        .acceptable(false, meaning: "the barrier ran alone"),
        .forbidden(true, meaning: "other work ran during the barrier")
    ]) { scenario in
        let running = SeamAtomic(0)
        let overlapped = SeamAtomic(false)
        let group = DispatchGroup()
        scenario.task {
            for _ in 0..<4 {
                group.enter()
                GCD.async {
                    running.add(1)
                    running.add(-1)
                    group.leave()
                }
            }
        }
        scenario.task {
            group.enter()
            GCD.asyncBarrier {
                if running.load() != 0 { overlapped.store(true) }
                group.leave()
            }
        }
        scenario.joinAll()
        group.wait()
        return overlapped.load()
    }
}
