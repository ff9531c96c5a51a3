import CShim

// The thread's own side. Cancellation is disabled on the thread except around the body, so
// a kill can only end the body, never the bookkeeping around it. No Swift frame between the
// C entry and the body holds a reference count: a kill unwinds those frames without running
// their releases. The reference that keeps the `IOThread` alive is the one `launch` passed
// as the argument, and the C cleanup releases it after the handlers, whether the body
// returned or was killed.

/// The thread's entry point, called by the seam with the retained `IOThread`.
func ioThreadEntry(_ argument: UnsafeMutableRawPointer?) {
    ThreadCancellation.setEnabled(false)
    cshim_run_with_cleanup(ioThreadCleanup, argument, ioThreadRun, argument)
}

private func ioThreadRun(_ argument: UnsafeMutableRawPointer?) {
    Unmanaged<IOThread>.fromOpaque(argument!)._withUnsafeGuaranteedRef { $0.run() }
}

private func ioThreadCleanup(_ argument: UnsafeMutableRawPointer?) {
    Unmanaged<IOThread>.fromOpaque(argument!).takeRetainedValue().runExitHandlers()
}

extension IOThread {
    /// Names the thread and runs the body, unless a kill came first; records its return.
    fileprivate func run() {
        name.withCString { check(cshim_set_current_thread_name($0), "pthread_setname_np") }
        guard lifecycle.update({ $0.enter() }) == .runBody else { return }
        ThreadCancellation.setType(cancellationType)
        ThreadCancellation.setEnabled(true)
        Seam.cancellationPoint()
        body(IOThreadControl(thread: self))
        ThreadCancellation.setEnabled(false)
        ThreadCancellation.setType(.deferred)
        lifecycle.update { $0.bodyReturned() }
    }

    /// Runs every handler registered before the thread has exited, in order, outside the lock.
    fileprivate func runExitHandlers() {
        while let batch = lifecycle.update({ $0.nextExitBatch() }) {
            for handler in batch.handlers {
                handler(batch.kind)
            }
        }
    }
}
