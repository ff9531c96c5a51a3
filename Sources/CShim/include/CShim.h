// The C that Swift cannot express. Every symbol carries the `cshim_` prefix.
#ifndef CSHIM_H
#define CSHIM_H

#include "CShimBuild.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

/// Runs `body(bodyArgument)` between `pthread_cleanup_push(cleanup, cleanupArgument)` and
/// `pthread_cleanup_pop(1)`: `cleanup` runs exactly once, when `body` returns or when the
/// thread is cancelled inside it. The push/pop pair are macros that open and close one C
/// block, so they cannot be written in Swift.
void cshim_run_with_cleanup(void (*cleanup)(void *), void *cleanupArgument,
                            void (*body)(void *), void *bodyArgument);

/// A created thread's handle, in a struct that Swift can zero-initialize on every platform
/// (`pthread_t` is an integer on Linux and a non-null pointer on Darwin).
typedef struct {
    pthread_t handle;
} cshim_thread;

/// Creates a thread that runs `body(argument)` inside `cshim_run_with_cleanup(cleanup,
/// argument, body, argument)`, so `cleanup(argument)` runs exactly once, when `body` returns
/// or when the thread is cancelled. Returns 0 or `pthread_create`'s errno value; on error
/// neither function is called.
int cshim_thread_create(cshim_thread *thread, const pthread_attr_t *attributes,
                        void (*body)(void *), void (*cleanup)(void *), void *argument);

/// `PTHREAD_CANCELED`, which Swift cannot import (it is a cast of -1 to a pointer).
void *cshim_pthread_canceled(void);

/// Names the calling thread (truncated to the platform's limit, 15 bytes on Linux).
/// Returns 0 or an errno value.
int cshim_set_current_thread_name(const char *name);

/// Copies the calling thread's name into `buffer`. Returns 0 or an errno value.
int cshim_get_current_thread_name(char *buffer, size_t length);

/// `PTHREAD_STACK_MIN`: the smallest stack size `pthread_attr_setstacksize` accepts (a
/// `sysconf` call on newer glibc, so Swift cannot import it).
size_t cshim_thread_stack_minimum(void);

/// The size of a memory page (`sysconf(_SC_PAGESIZE)`).
size_t cshim_page_size(void);

/// The process's environment: a null-terminated array of `NAME=value` strings (`environ`,
/// which a dynamic library on Darwin reaches through `_NSGetEnviron`). Valid until the
/// environment next changes.
char *const *cshim_environment(void);

/// The sanitizer this package's C was compiled with (`swift build --sanitize=…` passes the
/// flag to C targets too).
typedef enum {
    CSHIM_SANITIZER_NONE = 0,
    CSHIM_SANITIZER_THREAD = 1,
    CSHIM_SANITIZER_ADDRESS = 2,
} cshim_sanitizer_kind;

/// Which sanitizer is active in this build: `__has_feature(thread_sanitizer)` or
/// `__has_feature(address_sanitizer)` when CShim was compiled.
cshim_sanitizer_kind cshim_sanitizer(void);

/// Stores the calling thread's stack size, as the system reports it, in `size`
/// (`pthread_getattr_np` on Linux, `pthread_get_stacksize_np` on Darwin). Returns 0 or an
/// errno value.
int cshim_current_thread_stack_size(size_t *size);

/// Stores whether the calling thread is detached in `detached`. Returns 0, or an errno value
/// (ENOTSUP where the platform cannot tell: Darwin).
int cshim_current_thread_is_detached(bool *detached);

/// The calling thread's system-wide thread ID (`gettid` on Linux, `pthread_threadid_np` on
/// Darwin): unlike a `pthread_t`, not reused while the process lives (on Linux, until the
/// kernel's ID space wraps).
uint64_t cshim_current_thread_id(void);

/// Pins the calling thread to one CPU. Returns 0, or an errno value (ENOTSUP where the
/// platform has no affinity API). The thread remembers the CPU: pinning it again to the same
/// one makes no system call, until `cshim_set_current_thread_cpus` changes its affinity.
int cshim_pin_current_thread_to_cpu(int cpu);

/// Lets the calling thread run on the `count` CPUs of `cpus` (as `cshim_allowed_cpus` wrote
/// them), as before a `cshim_pin_current_thread_to_cpu`. Returns 0, or an errno value
/// (ENOTSUP where the platform has no affinity API).
int cshim_set_current_thread_cpus(const int *cpus, int count);

/// How many times the calling thread's affinity was changed (by the two functions above).
unsigned long cshim_current_thread_affinity_changes(void);

/// The CPU the calling thread runs on, or -1 where the platform does not say.
int cshim_current_cpu(void);

/// Writes the CPUs the calling thread may run on, in increasing order, to `cpus` (at most
/// `capacity` of them). Returns how many it wrote, or -1 where the platform does not say.
int cshim_allowed_cpus(int *cpus, int capacity);

/// The number of threads in this process, or -1 where it cannot be read.
long cshim_process_thread_count(void);

// MARK: The running task

/// The task running on the calling thread (the concurrency runtime's
/// `swift_task_getCurrent`), or NULL: what `withUnsafeCurrentTask` reads, without its
/// generic closure.
void *cshim_current_task(void);

// MARK: Monotonic time

/// Nanoseconds on the monotonic clock that `cshim_cond_timedwait_monotonic` and
/// `cshim_sleep_until_monotonic` measure against (`CLOCK_MONOTONIC` on Linux,
/// `CLOCK_UPTIME_RAW` on Darwin).
uint64_t cshim_monotonic_now_ns(void);

/// Sleeps until the monotonic clock reaches `deadline_ns`. A cancellation point. Returns
/// 0, or an errno value other than EINTR (interruptions are resumed).
int cshim_sleep_until_monotonic(uint64_t deadline_ns);

/// Initializes `condition` so that timed waits measure the monotonic clock.
/// Returns 0 or an errno value.
int cshim_cond_init_monotonic(pthread_cond_t *condition);

/// Waits on `condition` until `deadline_ns` on the monotonic clock. Returns 0, ETIMEDOUT,
/// or another errno value. A cancellation point.
int cshim_cond_timedwait_monotonic(pthread_cond_t *condition, pthread_mutex_t *mutex,
                                   uint64_t deadline_ns);

// MARK: Parking, for handing control between threads

/// A parking word: `cshim_park` waits until `cshim_unpark` permits the thread to go on.
/// Zero-initialize it. One waiter per word.
typedef struct {
    _Atomic uint32_t state;
} cshim_parker;

/// Waits until the parker is permitted, spinning `spins` times before sleeping in the
/// kernel, then consumes the permit. Not a cancellation point.
void cshim_park(cshim_parker *parker, uint32_t spins);

/// Like `cshim_park`, giving up after `timeout_ns` nanoseconds. Returns whether it was
/// permitted (and consumed the permit).
bool cshim_park_with_timeout(cshim_parker *parker, uint64_t timeout_ns);

/// Permits the parker's thread to go on (now, or at its next `cshim_park`).
void cshim_unpark(cshim_parker *parker);

/// What the joiner of a body run on a thread host waits on: a parker the body's end permits,
/// and whether a join has claimed it. Zero-initialize it.
typedef struct {
    cshim_parker ended;
    _Atomic bool claimed;
} cshim_completion;

/// Tells the completion's joiner that the body has ended.
void cshim_completion_signal(cshim_completion *completion);

/// Waits until the body has ended, when no other join claimed the completion before; returns
/// whether this join claimed it (and waited).
bool cshim_completion_wait(cshim_completion *completion);

// MARK: Crash reports

/// How many bytes of a schedule record hold the token without its steps, the NUL included.
#define CSHIM_TOKEN_PREFIX_CAPACITY 1024

/// The schedule a process is running, as far as it got: the token without its steps, and the
/// bytes of the steps taken so far. A crash report prints the steps from here; an isolated
/// child keeps its record in a file it shares with its parent, which reads it once the
/// child has died, however it died (no handler runs for SIGKILL). Lay out with
/// `cshim_schedule_record_size` and `cshim_schedule_record_init`.
typedef struct {
    /// How many bytes of the steps are valid.
    _Atomic size_t byteCount;
    /// How many bytes the steps may take.
    size_t stepCapacity;
    /// The length of `tokenPrefix`: 0 before the first schedule began, and while one begins.
    _Atomic size_t tokenPrefixLength;
    char tokenPrefix[CSHIM_TOKEN_PREFIX_CAPACITY];
    /// The steps' bytes follow.
    uint8_t steps[];
} cshim_schedule_record;

/// How many bytes a record of at most `step_capacity` bytes of steps takes.
size_t cshim_schedule_record_size(size_t step_capacity);

/// Lays out a record of `step_capacity` bytes of steps in memory of
/// `cshim_schedule_record_size(step_capacity)` bytes, before any schedule began. Only the
/// counts are written: the bytes past them are never read.
void cshim_schedule_record_init(cshim_schedule_record *record, size_t step_capacity);

/// Begins a schedule whose token starts with `token_prefix`, with no step taken yet. A prefix
/// longer than the record holds records the schedule without a token; returns whether it fit.
bool cshim_schedule_record_begin(cshim_schedule_record *record, const char *token_prefix);

/// Where the record's steps are written.
uint8_t *cshim_schedule_record_steps(cshim_schedule_record *record);

/// Reads the record a process that has ended left in the `length` bytes at `bytes` (aligned
/// as malloc aligns): the token without its steps at `token_prefix`, `prefix_length` bytes
/// long, and `byte_count` bytes of steps at `steps`. Returns false when no schedule began, or
/// the bytes hold no whole record.
bool cshim_schedule_record_read(const void *bytes, size_t length, const char **token_prefix, size_t *prefix_length,
                                const uint8_t **steps, size_t *byte_count);

/// Publishes how many bytes of the record's steps are valid.
static inline void cshim_schedule_record_set_byte_count(cshim_schedule_record *record, size_t count) {
    atomic_store_explicit(&record->byteCount, count, memory_order_release);
}

/// What a crash handler prints for the execution a controlled thread belongs to: `prefix`,
/// the record's steps so far (their bytes printed as unpadded base64url), then `suffix`,
/// composed in `line` and written with one `write`, so that other threads' output (a test
/// runner's) does not land inside it. Its buffers are kept, with their capacities, when its
/// texts are replaced (`cshim_crash_report_set_text`).
typedef struct {
    char *prefix;
    char *suffix;
    cshim_schedule_record *record;
    char *line;
    size_t prefixCapacity;
    size_t suffixCapacity;
    size_t lineCapacity;
} cshim_crash_report;

/// Installs, once per process, handlers for the crash signals (`cshim_is_crash_signal`)
/// that print the calling thread's crash report (if any) to standard error, then restore the
/// previous handler and re-raise the signal. They run on the thread's alternate signal stack
/// when it has one, so a thread that overflowed its stack reports too.
void cshim_install_crash_reporter(void);

/// Whether the crash reporter handles `signal_number`: SIGILL, SIGTRAP, SIGSEGV, SIGBUS,
/// SIGFPE and SIGABRT, the signals a thread's own fault or trap raises.
bool cshim_is_crash_signal(int signal_number);

/// Creates a crash report, copying `prefix` and `suffix`, printing the steps of `record`
/// (which may be NULL: no steps); NULL if memory ran out.
cshim_crash_report *cshim_crash_report_create(const char *prefix, const char *suffix, cshim_schedule_record *record);

/// Replaces the texts of `report` with copies of `prefix` and `suffix`, reusing its buffers
/// when they are large enough, so that a report reused from one execution to the next
/// allocates nothing once its texts stop growing. False if memory ran out (the report then
/// keeps texts that may be partly replaced, and stays valid to destroy).
bool cshim_crash_report_set_text(cshim_crash_report *report, const char *prefix, const char *suffix);

/// Frees a report made by `cshim_crash_report_create`.
void cshim_crash_report_destroy(cshim_crash_report *report);

/// Sets the crash report of the calling thread (NULL: none). With a report, first gives the
/// thread an alternate signal stack of its own if it has none (freed when the thread ends),
/// so that the crash handler runs on a thread whose stack overflowed. Returns 0, or the
/// errno value of the call that failed (the report is then not set).
int cshim_set_thread_crash_report(cshim_crash_report *report);

// MARK: The runtime seam's fast path

/// How many controlled threads and coroutine hosts are active in the process. Read with
/// relaxed ordering on every seam operation: while it is zero, no thread can be controlled
/// and the seam takes the plain path. On a cache line of its own, so that writes to its
/// neighbours do not take the line from the cores that read it.
typedef struct {
    _Alignas(64) _Atomic long count;
    char rest_of_line[64 - sizeof(long)];
} cshim_seam_activity;

extern cshim_seam_activity cshim_seam_active_controllers;

/// The seam's per-thread controller slot (an unretained pointer owned by the seam).
extern _Thread_local void *cshim_seam_thread_controller;

static inline bool cshim_seam_any_active(void) {
    return atomic_load_explicit(&cshim_seam_active_controllers.count, memory_order_relaxed) != 0;
}

static inline void cshim_seam_activate(void) {
    atomic_fetch_add_explicit(&cshim_seam_active_controllers.count, 1, memory_order_seq_cst);
}

static inline void cshim_seam_deactivate(void) {
    atomic_fetch_sub_explicit(&cshim_seam_active_controllers.count, 1, memory_order_seq_cst);
}

static inline void *cshim_seam_current(void) {
    return cshim_seam_thread_controller;
}

static inline void cshim_seam_set_current(void *controller) {
    cshim_seam_thread_controller = controller;
}

// MARK: Coroutines

/// The most bytes of the concurrency runtime's thread-local block a coroutine carries.
#define CSHIM_TASK_BLOCK_BYTES 64

/// A coroutine: a stack of its own and, while it is suspended, its saved stack pointer and
/// the per-thread state that moves with it from switch to switch: the seam's controller
/// slot, `errno`, Swift's dynamic exclusivity checking's set of accesses in progress
/// (which the runtime keeps per OS thread) and, where `cshim_coroutines_carry_tasks`, the
/// concurrency runtime's thread-local block (the task a job runs, the executor it runs on).
/// Zero-initialize it; the OS thread's own context is a coroutine too, the one that
/// switches to the first.
typedef struct {
    void *stack_pointer;
    void *seam_slot;
    int saved_errno;
    uintptr_t exclusivity[4];
    unsigned char tasks[CSHIM_TASK_BLOCK_BYTES];
} cshim_coroutine;

/// Whether this build switches coroutines: on x86_64 and arm64, without a sanitizer (the
/// sanitizers would need to be told of every stack switch).
bool cshim_coroutines_supported(void);

/// Whether a coroutine switch also moves the concurrency runtime's per-thread state, so
/// that a task's job may run on a coroutine and be switched out in the middle: where
/// coroutines are supported, on Linux, when that state is a thread-local block of at most
/// `CSHIM_TASK_BLOCK_BYTES` (32 bytes in Swift 6.3). Finds the block on first call.
bool cshim_coroutines_carry_tasks(void);

/// Maps `size` bytes of stack (rounded up to whole pages) above an inaccessible guard page.
/// Returns the lowest usable address, or NULL with `errno` set.
void *cshim_coroutine_stack_create(size_t size);

/// Unmaps a stack from `cshim_coroutine_stack_create` with the same `size`.
void cshim_coroutine_stack_destroy(void *stack, size_t size);

/// Prepares `coroutine` to call `entry(argument)` on the stack `[stack, stack + size)` the
/// first time it is switched to. `entry` must never return: it ends by switching away for
/// good (returning traps).
void cshim_coroutine_prepare(cshim_coroutine *coroutine, void *stack, size_t size,
                             void (*entry)(void *), void *argument);

/// Suspends the calling coroutine `from` and resumes `to`, on the calling OS thread; returns
/// when a switch resumes `from`. Saves and restores only what the ABI asks a call to keep
/// (no system call): a few nanoseconds, plus Swift's exclusivity bookkeeping.
void cshim_coroutine_switch(cshim_coroutine *from, cshim_coroutine *to);

// MARK: Thread identity

/// `pthread_self`, `pthread_getspecific` and `pthread_setspecific` that are never told to the
/// thread-identity watch (CIdentityWatch): for the harness's own code on a coroutine, which
/// knows what it asks.
pthread_t cshim_thread_self(void);
void *cshim_thread_getspecific(pthread_key_t key);
int cshim_thread_setspecific(pthread_key_t key, const void *value);

// MARK: Child processes

/// Waits until `fd` has data to read, has reached its end, or `timeout_ms` milliseconds
/// pass (`poll`). Returns 1 when it is readable (or at its end), 0 on timeout, or -1 with
/// `errno` set (an interrupted wait returns -1 with `EINTR`).
int cshim_wait_readable(int fd, int timeout_ms);

/// Waits until the process `pid` (not necessarily a child of this one) has exited, or
/// `timeout_ms` milliseconds pass. Returns 1 when it exited (or no longer exists), 0 on
/// timeout, -1 with `errno` set on error.
int cshim_wait_for_process_exit(pid_t pid, int timeout_ms);

// MARK: Stalled threads

/// Stores the return addresses of the calling thread's stack, innermost first, in `frames` (at
/// most `capacity`), with `backtrace()`; returns how many. Not async-signal-safe on first use
/// (the unwinder loads then).
int cshim_capture_current_stack(void **frames, int capacity);

/// Lets `cshim_capture_thread_stack` read the calling thread's stack: unblocks the signal it
/// uses, which threads started from Dispatch's pool inherit blocked. Once per thread: a
/// second call makes no system call.
void cshim_allow_stack_capture(void);

/// The calling thread's handle, as an integer that `cshim_capture_thread_stack` takes.
uintptr_t cshim_current_thread_handle(void);

/// Captures the return addresses of the stack of the thread whose handle is `thread` (at
/// most `capacity`, up to 64) into `frames`, by interrupting it with a signal whose handler
/// walks its stack: for a report of where a thread stalled outside the seam. Returns how
/// many were captured, or -1 when the thread did not answer within `timeout_ms`
/// milliseconds or the signal could not be sent. One capture at a time, process-wide.
int cshim_capture_thread_stack(uintptr_t thread, void **frames, int capacity, int timeout_ms);

/// The calling OS thread as `cshim_thread_activity` names it: its kernel thread ID on Linux,
/// its Mach thread port on Darwin.
uint64_t cshim_current_thread_system_id(void);

/// What the OS thread `system_id` (from `cshim_current_thread_system_id`) is doing: whether
/// the kernel would run it now (`*runnable`: running, or ready and waiting for a CPU; not
/// when it sleeps, waits or is stopped) and the CPU time it has used, user and system, in
/// nanoseconds (`*cpu_ns`; on Linux in steps of a clock tick, 10 ms). Returns 0, or -1 with
/// `errno` set when the thread cannot be read (it has exited).
int cshim_thread_activity(uint64_t system_id, int *runnable, uint64_t *cpu_ns);

/// Copies `size` bytes at `address` of this process into `buffer` without touching them
/// directly: an address that is not mapped readable fails the copy instead of raising
/// SIGSEGV. Returns 0, or -1 with `errno` set (`EFAULT`: not readable).
int cshim_read_memory(const void *address, void *buffer, size_t size);

/// The name of the function holding `address` as the dynamic linker knows it (mangled for
/// Swift), or NULL; valid while its image stays loaded.
const char *cshim_symbol_name(void *address);

/// The Swift runtime's demangler (exported by libswiftCore): writes the readable form of
/// `mangled` into a buffer it allocates with malloc, or returns NULL.
char *swift_demangle(const char *mangled, size_t mangledLength, char *outputBuffer, size_t *outputBufferSize,
                     uint32_t flags);

#endif
