import Testing

/// The tests that cannot run under a sanitizer, each skipped for one stated reason, decided
/// at run time by ``BuildConfiguration/sanitizer``.
extension Trait where Self == ConditionTrait {
    /// For a test that kills a thread blocked in a call ThreadSanitizer intercepts (`read`,
    /// `nanosleep`, `pthread_join`, a condition wait). The interceptor suspends part of
    /// TSan's bookkeeping for the call and restores it on return; a cancellation unwinds the
    /// call without returning, so the thread ends with it suspended and TSan aborts the
    /// process ("thread T… finished with ignores enabled"; google/sanitizers#646). Kills at
    /// `pthread_testcancel` (``IOThreadControl/checkCancellation(file:line:)``) are fine.
    static var killsInsideBlockingCalls: Self {
        .disabled(
            if: BuildConfiguration.sanitizer == .thread,
            "TSan aborts when a thread is cancelled inside a call it intercepts (finished with ignores enabled)"
        )
    }

    /// For a test whose stall report reads the stack of a thread blocked in a system call
    /// ThreadSanitizer does not intercept (the futex of `Synchronization.Mutex`'s slow path,
    /// in an uninstrumented library). TSan runs a signal handler only when the thread next
    /// passes through its runtime, which a thread blocked there never does, so the harness's
    /// stack-reading signal goes unanswered and the report cannot name the mutex.
    static var readsTheStackOfAThreadBlockedOutsideTSan: Self {
        .disabled(
            if: BuildConfiguration.sanitizer == .thread,
            "ThreadSanitizer holds back signals to a thread blocked in a system call it does not intercept"
        )
    }

    /// For a test that does long single-threaded work with nothing concurrent in it for
    /// ThreadSanitizer to check: it took 74 s under TSan, a fifth of the Conformance run.
    static var longSingleThreadedWork: Self {
        .disabled(
            if: BuildConfiguration.sanitizer == .thread,
            "single-threaded work that takes over a minute under ThreadSanitizer, with nothing concurrent to check"
        )
    }

    /// For a test that checks a thread gets exactly the stack size it asked for.
    /// ThreadSanitizer's `pthread_create` raises any stack below 128 KiB plus the static TLS
    /// size to that size (a 64 KiB request gets 137,472 bytes here).
    static var checksExactStackSizes: Self {
        .disabled(
            if: BuildConfiguration.sanitizer == .thread,
            "ThreadSanitizer enlarges stacks below 128 KiB plus the TLS size"
        )
    }

    /// For a test of an isolated child whose scenario overflows its thread's stack. Both
    /// sanitizers handle SIGSEGV themselves (`handle_segv`) after the harness's handler: they
    /// report the overflow and exit with their own status (1 for AddressSanitizer, 66 for
    /// ThreadSanitizer), so the child does not die by the signal and its parent reports an
    /// exit without a report.
    static var overflowsTheStackOfAChild: Self {
        .disabled(
            if: BuildConfiguration.sanitizer != nil,
            "the sanitizer reports a stack overflow itself and exits with its own status instead of the signal"
        )
    }
}
