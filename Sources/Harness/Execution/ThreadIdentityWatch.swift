import CIdentityWatch
import CShim
import Primitives

/// Watches the code under test on coroutines for the calls by which it tells OS threads apart
/// (`pthread_self`, `pthread_getspecific`, `pthread_setspecific`, `gettid`; Foundation's
/// `Thread.current` through them), which on a coroutine answer for the host's thread, and for
/// a wait on a lock that records its owner's OS thread when that is the host's (a
/// `Synchronization.Mutex` another coroutine holds across a scheduling point, which the kernel
/// calls a recursive lock, and OS threads a wait): such a call ends its execution, to be run
/// again on OS threads (``Nondeterminism/threadIdentity(thread:function:place:)``). Identity
/// calls from system libraries (the C and Swift runtimes, Dispatch) are their own bookkeeping
/// and do not count; the harness's own calls go around the watch (`cshim_thread_self`).
enum ThreadIdentityWatch {
    /// Whether this build sees such calls (glibc; not Darwin, whose libraries bind to the
    /// system's functions whatever the executable defines).
    static var isSupported: Bool { cshim_identity_watch_supported() }

    /// Runs `body`, the loop of a host that runs coroutines, with the calling OS thread watched.
    static func watching(_ body: () -> Void) {
        cshim_identity_set_watched(true)
        defer { cshim_identity_set_watched(false) }
        body()
    }
}

extension ThreadIdentityFunction {
    init(_ function: cshim_identity_function) {
        switch function {
        case CSHIM_IDENTITY_PTHREAD_SELF: self = .pthreadSelf
        case CSHIM_IDENTITY_PTHREAD_GETSPECIFIC: self = .pthreadGetspecific
        case CSHIM_IDENTITY_PTHREAD_SETSPECIFIC: self = .pthreadSetspecific
        case CSHIM_IDENTITY_GETTID: self = .gettid
        default: self = .lockOwnedByOSThread
        }
    }
}
