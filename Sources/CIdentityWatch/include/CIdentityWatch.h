// The thread-identity watch: this package's definitions of `pthread_self`,
// `pthread_getspecific`, `pthread_setspecific`, `gettid` and `syscall` in front of the C
// library's, which tell the harness when code on a coroutine asks which OS thread it runs on,
// or waits for a lock that names its owner by OS thread. A target of its
// own, linked only where the harness is (test executables), never where only the primitives
// are.
#ifndef CIDENTITY_WATCH_H
#define CIDENTITY_WATCH_H

#include <stdbool.h>

/// The functions by which code tells OS threads apart that the harness watches on coroutines.
typedef enum {
    CSHIM_IDENTITY_PTHREAD_SELF = 0,
    CSHIM_IDENTITY_PTHREAD_GETSPECIFIC = 1,
    CSHIM_IDENTITY_PTHREAD_SETSPECIFIC = 2,
    CSHIM_IDENTITY_GETTID = 3,
    /// A wait, through `syscall`'s futex operation, for a lock whose word names the calling OS
    /// thread as its owner (`Synchronization.Mutex`'s on Linux).
    CSHIM_IDENTITY_OWNED_LOCK = 4,
} cshim_identity_function;

/// Told that code on a coroutine called `function`; `frame` is a return address in the code
/// that asked (the caller's, or for a call Foundation made on its behalf, as for
/// `Thread.current`, the first frame past Foundation's). May end the calling coroutine.
typedef void (*cshim_identity_handler)(cshim_identity_function function, void *frame);

/// Whether the calling OS thread runs harness coroutines, so that a call of a watched function
/// is told to the handler. Set by the coroutine host while it runs them.
extern _Thread_local bool cshim_identity_watched;

static inline void cshim_identity_set_watched(bool watched) {
    cshim_identity_watched = watched;
}

/// Whether this build watches the functions: where the C library lets the executable define
/// them in front of its own (glibc 2.30 and later; not Darwin, whose two-level namespace binds
/// each library to the system's). There this package defines `pthread_self`,
/// `pthread_getspecific`, `pthread_setspecific` and `gettid`, which forward to the C library's
/// and, while `cshim_identity_watched` is set, tell the handler of calls from anything but a
/// system library (the C runtime, the Swift runtime and its libraries, Dispatch, the
/// unwinder; Foundation counts); and `syscall`, which tells it of a wait from anywhere for a
/// priority-inheritance futex whose word names the calling OS thread as its owner. C
/// `__thread` variables and Swift globals are not seen.
bool cshim_identity_watch_supported(void);

/// Installs the handler (process-wide); NULL: none.
void cshim_identity_set_handler(cshim_identity_handler handler);

#endif
