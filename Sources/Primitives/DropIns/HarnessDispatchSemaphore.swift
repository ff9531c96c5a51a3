import Dispatch

/// A drop-in for `DispatchSemaphore`: `init(value:)`, `signal()`, `wait()` and
/// `wait(timeout:)`. The `DispatchSemaphore` calls behind one branch in production;
/// modelled with seam operations on a thread a harness controls, where timeouts are on the
/// virtual clock and a wait that can never be satisfied is reported as a deadlock.
///
/// A semaphore is used either in a scenario or outside one (see ``HarnessDispatchQueue``).
/// As with Dispatch, freeing a semaphore that was used in production while it holds fewer
/// permits than it was created with traps (libdispatch's "deallocated while in use").
public final class HarnessDispatchSemaphore: @unchecked Sendable {
    /// The real semaphore, used in production.
    public let base: DispatchSemaphore
    private let mutex = SeamMutex()
    private let available = SeamCondition()
    /// The count, under a controller.
    private var value: Int
    /// Threads waiting, under a controller.
    private var waiters = 0

    /// Creates a semaphore with `value` permits (not negative).
    public init(value: Int) {
        precondition(value >= 0, "HarnessDispatchSemaphore(value:) needs a value of 0 or more, not \(value)")
        base = DispatchSemaphore(value: value)
        self.value = value
    }

    /// Adds a permit, waking a waiter if there is one; returns non-zero if it woke one.
    @discardableResult
    @inlinable
    public func signal(file: StaticString = #fileID, line: UInt = #line) -> Int {
        guard Seam.controllerForCurrentThread() != nil else { return base.signal() }
        return signalControlled(file: file, line: line)
    }

    @usableFromInline
    func signalControlled(file: StaticString, line: UInt) -> Int {
        Seam.performing(SeamCall(.semaphore, .signal), on: self, insides: insides, file: file, line: line) {
            mutex.withLock(file: file, line: line) {
                value += 1
                guard waiters > 0 else { return 0 }
                available.signal(file: file, line: line)
                return 1
            }
        }
    }

    /// The seam objects that carry out the semaphore's calls, which reports show as the calls.
    private var insides: [AnyObject] { [mutex, available] }

    /// Takes a permit, waiting until there is one.
    @inlinable
    public func wait(file: StaticString = #fileID, line: UInt = #line) {
        guard Seam.controllerForCurrentThread() != nil else { return base.wait() }
        waitControlled(file: file, line: line)
    }

    @usableFromInline
    func waitControlled(file: StaticString, line: UInt) {
        _ = take(deadline: nil, file: file, line: line)
    }

    /// Takes a permit, waiting until there is one or until `timeout`; says which. A timeout
    /// already reached, such as `.now()`, does not wait: it takes a permit only if one is there.
    public func wait(timeout: DispatchTime, file: StaticString = #fileID, line: UInt = #line) -> DispatchTimeoutResult {
        guard Seam.currentController != nil else { return base.wait(timeout: timeout) }
        return DispatchTimeoutResult(take(deadline: HarnessDispatch.deadline(timeout), file: file, line: line))
    }

    private func take(deadline: SeamInstant?, file: StaticString, line: UInt) -> Bool {
        let call = SeamCall(.semaphore, .wait)
        return Seam.performing(call, on: self, insides: insides, file: file, line: line, outcome: SeamCall.Outcome.init)
        {
            takePermit(deadline: deadline, file: file, line: line)
        }
    }

    private func takePermit(deadline: SeamInstant?, file: StaticString, line: UInt) -> Bool {
        mutex.withLock(file: file, line: line) {
            waiters += 1
            defer { waiters -= 1 }
            let permitted: Bool
            if let deadline {
                permitted = available.wait(on: mutex, until: { value > 0 }, deadline: deadline, file: file, line: line)
            } else {
                available.wait(on: mutex, until: { value > 0 }, file: file, line: line)
                permitted = true
            }
            if permitted { value -= 1 }
            return permitted
        }
    }
}
