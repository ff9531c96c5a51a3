import Primitives

/// Makes the stress runs of a process take turns, first come, first served: each run has
/// the machine to itself, so its time budget buys the same iterations whatever else the
/// test run does, and a suite's budgets add up to its duration. A waiting run suspends its
/// task; it does not hold a thread.
enum StressTurns {
    private struct State {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private static let lock = SeamMutex()
    nonisolated(unsafe) private static var state = State()

    /// Runs `body` once every run that asked before has ended.
    static func take<Result>(_ body: () async -> Result) async -> Result {
        await acquire()
        defer { release() }
        return await body()
    }

    private static func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = lock.withLockDirectly {
                guard state.busy else {
                    state.busy = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    private static func release() {
        let next = lock.withLockDirectly {
            guard !state.waiting.isEmpty else {
                state.busy = false
                return nil as CheckedContinuation<Void, Never>?
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
