// Telling the harness when code on a coroutine asks which OS thread it runs on.
#if defined(__linux__)
#define _GNU_SOURCE
#endif

#include "CIdentityWatch.h"
#include "CShim.h"
#include "CShimBuild.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <string.h>

_Thread_local bool cshim_identity_watched = false;

#if defined(CSHIM_IDENTITY_WATCH)

#include <linux/futex.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <threads.h>

/// Set while the calling OS thread classifies a call, so that what the classification itself
/// calls (the dynamic linker, the unwinder) is not classified in turn.
static _Thread_local bool cshim_identity_busy = false;
static _Atomic(cshim_identity_handler) cshim_identity_handler_installed = NULL;

/// Who called an identity function, as far as the harness cares: a system library, which
/// asks for its own bookkeeping; Foundation, which asks for `Thread.current` (among other
/// things) on behalf of the code that called it; or the code under test.
typedef enum {
    CSHIM_CALLER_UNKNOWN = 0,
    CSHIM_CALLER_SYSTEM = 1,
    CSHIM_CALLER_FOUNDATION = 2,
    CSHIM_CALLER_CODE = 3,
} cshim_caller_kind;

/// The images whose own calls are not the code under test's: the C and C++ runtimes, the
/// dynamic linker, the Swift runtime and its libraries, Dispatch, the unwinder, ICU, the test
/// frameworks and Foundation's libraries other than Foundation itself.
static const char *const cshim_system_image_prefixes[] = {
    "libc.so", "libc-", "ld-linux", "ld.so", "libpthread", "libdl.", "libdl-", "librt", "libm.so", "libm-",
    "libswift", "lib_swift", "libdispatch", "libBlocksRuntime", "libstdc++", "libc++", "libgcc", "libicu",
    "lib_FoundationICU", "libFoundationEssentials", "libFoundationInternationalization", "libFoundationNetworking",
    "libFoundationXML", "libXCTest", "libTesting", "lib_Testing", "lib_InternalSwift", "linux-vdso",
};

static cshim_caller_kind cshim_classify_image(const char *path) {
    if (path == NULL) return CSHIM_CALLER_SYSTEM;
    const char *name = strrchr(path, '/');
    name = name == NULL ? path : name + 1;
    if (strncmp(name, "libFoundation.so", strlen("libFoundation.so")) == 0) return CSHIM_CALLER_FOUNDATION;
    for (size_t index = 0; index < sizeof cshim_system_image_prefixes / sizeof *cshim_system_image_prefixes;
         index++) {
        const char *prefix = cshim_system_image_prefixes[index];
        if (strncmp(name, prefix, strlen(prefix)) == 0) return CSHIM_CALLER_SYSTEM;
    }
    return CSHIM_CALLER_CODE;
}

/// Each address classified so far, as `address << 2 | kind`; 0: a free slot. Addresses are
/// looked up by hash, then linearly; a full neighbourhood classifies again rather than store.
enum { CSHIM_CALLER_CACHE_SLOTS = 4096, CSHIM_CALLER_CACHE_PROBES = 16 };
static _Atomic uintptr_t cshim_caller_cache[CSHIM_CALLER_CACHE_SLOTS];

static cshim_caller_kind cshim_classify(void *address) {
    uintptr_t key = (uintptr_t)address;
    size_t start = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 52) % CSHIM_CALLER_CACHE_SLOTS;
    for (size_t probe = 0; probe < CSHIM_CALLER_CACHE_PROBES; probe++) {
        uintptr_t entry = atomic_load_explicit(&cshim_caller_cache[(start + probe) % CSHIM_CALLER_CACHE_SLOTS],
                                               memory_order_relaxed);
        if (entry == 0) break;
        if (entry >> 2 == key) return (cshim_caller_kind)(entry & 3);
    }
    Dl_info info;
    cshim_caller_kind kind = dladdr(address, &info) != 0 ? cshim_classify_image(info.dli_fname) : CSHIM_CALLER_SYSTEM;
    uintptr_t entry = key << 2 | (uintptr_t)kind;
    for (size_t probe = 0; probe < CSHIM_CALLER_CACHE_PROBES; probe++) {
        uintptr_t expected = 0;
        _Atomic uintptr_t *slot = &cshim_caller_cache[(start + probe) % CSHIM_CALLER_CACHE_SLOTS];
        if (atomic_compare_exchange_strong_explicit(slot, &expected, entry, memory_order_relaxed,
                                                    memory_order_relaxed)
            || expected == entry) {
            break;
        }
    }
    return kind;
}

/// The frame of the code under test that asked, through Foundation, from the frame that
/// called an identity function in Foundation: the first return address past it on the stack
/// that is the code's; `caller` itself when there is none.
static void *cshim_code_frame_past(void *caller) {
    enum { CAPACITY = 48 };
    void *frames[CAPACITY];
    int count = backtrace(frames, CAPACITY);
    int index = 0;
    while (index < count && frames[index] != caller) index++;
    for (index++; index < count; index++) {
        if (cshim_classify(frames[index]) == CSHIM_CALLER_CODE) return frames[index];
    }
    return caller;
}

/// Tells the handler of a call of `function` from `caller` if the calling OS thread runs a
/// harness coroutine and the caller is the code under test, or Foundation on its behalf.
static void cshim_identity_note(cshim_identity_function function, void *caller) {
    if (!cshim_identity_watched || cshim_identity_busy) return;
    cshim_identity_handler handler = atomic_load_explicit(&cshim_identity_handler_installed, memory_order_acquire);
    if (handler == NULL) return;
    cshim_identity_busy = true;
    cshim_caller_kind kind = cshim_classify(caller);
    void *frame = kind == CSHIM_CALLER_FOUNDATION ? cshim_code_frame_past(caller) : caller;
    cshim_identity_busy = false;
    if (kind == CSHIM_CALLER_SYSTEM) return;
    // The handler may end the coroutine, never to return here; it is told once.
    cshim_identity_watched = false;
    handler(function, frame);
    cshim_identity_watched = true;
}

// The definitions that the code under test and the shared libraries bind to: an executable's
// definition comes before the C library's. Each forwards to the C library's function through
// CShim's unwatched one.

pthread_t pthread_self(void) {
    cshim_identity_note(CSHIM_IDENTITY_PTHREAD_SELF, __builtin_return_address(0));
    return cshim_thread_self();
}

void *pthread_getspecific(pthread_key_t key) {
    cshim_identity_note(CSHIM_IDENTITY_PTHREAD_GETSPECIFIC, __builtin_return_address(0));
    return cshim_thread_getspecific(key);
}

int pthread_setspecific(pthread_key_t key, const void *value) {
    cshim_identity_note(CSHIM_IDENTITY_PTHREAD_SETSPECIFIC, __builtin_return_address(0));
    return cshim_thread_setspecific(key, value);
}

pid_t gettid(void) {
    cshim_identity_note(CSHIM_IDENTITY_GETTID, __builtin_return_address(0));
    return (pid_t)syscall(SYS_gettid);
}

typedef long (*cshim_syscall_function)(long number, ...);

/// The C library's `syscall`, found on first use.
static cshim_syscall_function cshim_libc_syscall(void) {
    static _Atomic(cshim_syscall_function) found = NULL;
    cshim_syscall_function function = atomic_load_explicit(&found, memory_order_relaxed);
    if (function == NULL) {
        function = (cshim_syscall_function)dlsym(RTLD_NEXT, "syscall");
        atomic_store_explicit(&found, function, memory_order_relaxed);
    }
    return function;
}

/// Whether a futex operation `operation` takes a priority-inheritance lock: one whose word
/// holds its owner's thread ID, as `Synchronization.Mutex`'s does on Linux.
static bool cshim_futex_takes_owned_lock(long operation) {
    switch ((int)operation & FUTEX_CMD_MASK) {
    case FUTEX_LOCK_PI:
    case FUTEX_TRYLOCK_PI:
#if defined(FUTEX_LOCK_PI2)
    case FUTEX_LOCK_PI2:
#endif
        return true;
    default:
        return false;
    }
}

/// Tells the handler when code on a coroutine is about to wait, through `syscall` from
/// `caller`, for the lock whose word is at `word`, and that word names the calling OS thread
/// as its owner: another coroutine on the same host holds it (a `Synchronization.Mutex` held
/// across a scheduling point), and the kernel would answer that the thread holds it already.
/// On OS threads the wait is a wait, which the harness reports as a stall.
static void cshim_identity_note_owned_lock(long word, long operation, void *caller) {
    if (cshim_identity_busy || !cshim_futex_takes_owned_lock(operation) || word == 0) return;
    cshim_identity_handler handler = atomic_load_explicit(&cshim_identity_handler_installed, memory_order_acquire);
    if (handler == NULL) return;
    uint32_t owner = atomic_load_explicit((_Atomic uint32_t *)word, memory_order_relaxed) & FUTEX_TID_MASK;
    if (owner != (uint32_t)cshim_libc_syscall()(SYS_gettid)) return;
    cshim_identity_busy = true;
    void *frame = cshim_classify(caller) == CSHIM_CALLER_CODE ? caller : cshim_code_frame_past(caller);
    cshim_identity_busy = false;
    // The handler ends the coroutine, never to return here.
    cshim_identity_watched = false;
    handler(CSHIM_IDENTITY_OWNED_LOCK, frame);
    cshim_identity_watched = true;
}

// `syscall` in front of the C library's, to see the futex calls of locks that record their
// owner's thread ID; every call goes on to the C library's with the same arguments (as many as
// a system call takes: those the caller did not pass are read and not used).
long syscall(long number, ...) {
    va_list list;
    va_start(list, number);
    long arguments[6];
    for (int index = 0; index < 6; index++) arguments[index] = va_arg(list, long);
    va_end(list);
    if (number == SYS_futex && cshim_identity_watched) {
        cshim_identity_note_owned_lock(arguments[0], arguments[1], __builtin_return_address(0));
    }
    return cshim_libc_syscall()(number, arguments[0], arguments[1], arguments[2], arguments[3], arguments[4],
                                arguments[5]);
}
#endif

bool cshim_identity_watch_supported(void) {
#if defined(CSHIM_IDENTITY_WATCH)
    return true;
#else
    return false;
#endif
}

void cshim_identity_set_handler(cshim_identity_handler handler) {
#if defined(CSHIM_IDENTITY_WATCH)
    atomic_store_explicit(&cshim_identity_handler_installed, handler, memory_order_release);
#else
    (void)handler;
#endif
}

