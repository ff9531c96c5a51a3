#if defined(__linux__)
#define _GNU_SOURCE
#endif

#include "CShim.h"

#if defined(__APPLE__)
#include <crt_externs.h>
#include <mach/mach.h>
#include <sys/event.h>
#endif

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/types.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#endif

#include <dlfcn.h>
#include <execinfo.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cshim_seam_activity cshim_seam_active_controllers = {0};
_Thread_local void *cshim_seam_thread_controller = NULL;

#if !defined(__has_feature)
#define __has_feature(feature) 0
#endif
#if !defined(__has_attribute)
#define __has_attribute(attribute) 0
#endif

#if __has_feature(thread_sanitizer) || defined(__SANITIZE_THREAD__)
#define CSHIM_THREAD_SANITIZER 1
#elif __has_feature(address_sanitizer) || defined(__SANITIZE_ADDRESS__)
#define CSHIM_ADDRESS_SANITIZER 1
#endif

#if defined(CSHIM_ADDRESS_SANITIZER) && defined(__linux__)
#include <sanitizer/asan_interface.h>

/// A cleanup and its argument, and whether the body returned (rather than being unwound).
struct cshim_cleanup_call {
    void (*cleanup)(void *);
    void *argument;
    volatile bool bodyReturned;
};

/// Clears AddressSanitizer's poison from the calling thread's stack below this frame.
///
/// glibc unwinds a cancelled (or `pthread_exit`ing) thread to its cleanup with an internal
/// longjmp that AddressSanitizer does not intercept, so the redzones of the frames it
/// skipped stay poisoned; the cleanup's own frames, built over them, would be reported as
/// stack-buffer-underflow or -overflow. Everything below this frame is dead.
__attribute__((noinline)) static void cshim_unpoison_unwound_stack(void) {
    pthread_attr_t attributes;
    if (pthread_getattr_np(cshim_thread_self(), &attributes) != 0) {
        return;
    }
    void *lowest = NULL;
    size_t size = 0;
    int error = pthread_attr_getstack(&attributes, &lowest, &size);
    pthread_attr_destroy(&attributes);
    char *here = __builtin_frame_address(0);
    if (error == 0 && here > (char *)lowest) {
        ASAN_UNPOISON_MEMORY_REGION(lowest, (size_t)(here - (char *)lowest));
    }
}

static void cshim_cleanup_after_unwinding(void *raw) {
    struct cshim_cleanup_call *call = raw;
    if (!call->bodyReturned) {
        cshim_unpoison_unwound_stack();
    }
    call->cleanup(call->argument);
}

void cshim_run_with_cleanup(void (*cleanup)(void *), void *cleanupArgument,
                            void (*body)(void *), void *bodyArgument) {
    struct cshim_cleanup_call call = {.cleanup = cleanup, .argument = cleanupArgument, .bodyReturned = false};
    pthread_cleanup_push(cshim_cleanup_after_unwinding, &call);
    body(bodyArgument);
    call.bodyReturned = true;
    pthread_cleanup_pop(1);
}
#else
void cshim_run_with_cleanup(void (*cleanup)(void *), void *cleanupArgument,
                            void (*body)(void *), void *bodyArgument) {
    pthread_cleanup_push(cleanup, cleanupArgument);
    body(bodyArgument);
    pthread_cleanup_pop(1);
}
#endif

struct cshim_thread_start {
    void (*body)(void *);
    void (*cleanup)(void *);
    void *argument;
};

static void *cshim_thread_entry(void *raw) {
    struct cshim_thread_start start = *(struct cshim_thread_start *)raw;
    free(raw);
    cshim_run_with_cleanup(start.cleanup, start.argument, start.body, start.argument);
    return NULL;
}

int cshim_thread_create(cshim_thread *thread, const pthread_attr_t *attributes,
                        void (*body)(void *), void (*cleanup)(void *), void *argument) {
    struct cshim_thread_start *start = malloc(sizeof(struct cshim_thread_start));
    if (start == NULL) {
        return EAGAIN;
    }
    start->body = body;
    start->cleanup = cleanup;
    start->argument = argument;
    int error = pthread_create(&thread->handle, attributes, cshim_thread_entry, start);
    if (error != 0) {
        free(start);
    }
    return error;
}

void *cshim_pthread_canceled(void) {
    return PTHREAD_CANCELED;
}

int cshim_set_current_thread_name(const char *name) {
#if defined(__APPLE__)
    return pthread_setname_np(name);
#elif defined(__linux__)
    char truncated[16];
    strncpy(truncated, name, sizeof(truncated) - 1);
    truncated[sizeof(truncated) - 1] = '\0';
    return pthread_setname_np(cshim_thread_self(), truncated);
#else
#error "cshim_set_current_thread_name: unsupported platform"
#endif
}

int cshim_get_current_thread_name(char *buffer, size_t length) {
    return pthread_getname_np(cshim_thread_self(), buffer, length);
}

size_t cshim_thread_stack_minimum(void) {
    return (size_t)PTHREAD_STACK_MIN;
}

size_t cshim_page_size(void) {
    return (size_t)sysconf(_SC_PAGESIZE);
}

char *const *cshim_environment(void) {
#if defined(__APPLE__)
    return *_NSGetEnviron();
#elif defined(__linux__)
    return environ;
#else
#error "cshim_environment: unsupported platform"
#endif
}

cshim_sanitizer_kind cshim_sanitizer(void) {
#if defined(CSHIM_THREAD_SANITIZER)
    return CSHIM_SANITIZER_THREAD;
#elif defined(CSHIM_ADDRESS_SANITIZER)
    return CSHIM_SANITIZER_ADDRESS;
#else
    return CSHIM_SANITIZER_NONE;
#endif
}

#if defined(__linux__)
/// Reads the calling thread's stack size and detach state from `pthread_getattr_np`.
static int cshim_current_thread_attributes(size_t *stackSize, int *detachState) {
    pthread_attr_t attributes;
    int error = pthread_getattr_np(cshim_thread_self(), &attributes);
    if (error != 0) {
        return error;
    }
    error = pthread_attr_getstacksize(&attributes, stackSize);
    if (error == 0) {
        error = pthread_attr_getdetachstate(&attributes, detachState);
    }
    int destroyError = pthread_attr_destroy(&attributes);
    return error != 0 ? error : destroyError;
}
#endif

int cshim_current_thread_stack_size(size_t *size) {
#if defined(__APPLE__)
    *size = pthread_get_stacksize_np(cshim_thread_self());
    return 0;
#elif defined(__linux__)
    int detachState = PTHREAD_CREATE_JOINABLE;
    return cshim_current_thread_attributes(size, &detachState);
#else
#error "cshim_current_thread_stack_size: unsupported platform"
#endif
}

int cshim_current_thread_is_detached(bool *detached) {
#if defined(__APPLE__)
    (void)detached;
    return ENOTSUP;
#elif defined(__linux__)
    size_t stackSize = 0;
    int detachState = PTHREAD_CREATE_JOINABLE;
    int error = cshim_current_thread_attributes(&stackSize, &detachState);
    *detached = detachState == PTHREAD_CREATE_DETACHED;
    return error;
#else
#error "cshim_current_thread_is_detached: unsupported platform"
#endif
}

uint64_t cshim_current_thread_id(void) {
#if defined(__APPLE__)
    uint64_t id = 0;
    pthread_threadid_np(NULL, &id);
    return id;
#elif defined(__linux__)
    return (uint64_t)syscall(SYS_gettid);
#else
#error "cshim_current_thread_id: unsupported platform"
#endif
}

/// The CPU the calling thread was last pinned to, -1 when none; and how often its affinity changed.
static _Thread_local int cshim_pinned_cpu = -1;
static _Thread_local unsigned long cshim_affinity_changes = 0;

int cshim_pin_current_thread_to_cpu(int cpu) {
#if defined(__linux__)
    if (cpu == cshim_pinned_cpu) return 0;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    int error = pthread_setaffinity_np(cshim_thread_self(), sizeof(set), &set);
    if (error == 0) {
        cshim_pinned_cpu = cpu;
        cshim_affinity_changes += 1;
    }
    return error;
#elif defined(__APPLE__)
    (void)cpu;
    return ENOTSUP;
#else
#error "cshim_pin_current_thread_to_cpu: unsupported platform"
#endif
}

int cshim_set_current_thread_cpus(const int *cpus, int count) {
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int index = 0; index < count; index++) {
        if (cpus[index] >= 0 && cpus[index] < CPU_SETSIZE) CPU_SET(cpus[index], &set);
    }
    int error = pthread_setaffinity_np(cshim_thread_self(), sizeof(set), &set);
    if (error == 0) {
        cshim_pinned_cpu = -1;
        cshim_affinity_changes += 1;
    }
    return error;
#elif defined(__APPLE__)
    (void)cpus;
    (void)count;
    return ENOTSUP;
#else
#error "cshim_set_current_thread_cpus: unsupported platform"
#endif
}

unsigned long cshim_current_thread_affinity_changes(void) {
    return cshim_affinity_changes;
}

int cshim_current_cpu(void) {
#if defined(__linux__)
    return sched_getcpu();
#elif defined(__APPLE__)
    return -1;
#else
#error "cshim_current_cpu: unsupported platform"
#endif
}

int cshim_allowed_cpus(int *cpus, int capacity) {
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) != 0) return -1;
    int count = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && count < capacity; cpu++) {
        if (CPU_ISSET(cpu, &set)) cpus[count++] = cpu;
    }
    return count;
#elif defined(__APPLE__)
    (void)cpus;
    (void)capacity;
    return -1;
#else
#error "cshim_allowed_cpus: unsupported platform"
#endif
}

long cshim_process_thread_count(void) {
#if defined(__linux__)
    FILE *status = fopen("/proc/self/status", "r");
    if (status == NULL) {
        return -1;
    }
    char line[256];
    long count = -1;
    while (fgets(line, sizeof(line), status) != NULL) {
        if (strncmp(line, "Threads:", 8) == 0) {
            count = strtol(line + 8, NULL, 10);
            break;
        }
    }
    fclose(status);
    return count;
#elif defined(__APPLE__)
    return -1;
#else
#error "cshim_process_thread_count: unsupported platform"
#endif
}

#if __has_attribute(swiftcall)
#define CSHIM_SWIFT_CALL __attribute__((swiftcall))
#else
#define CSHIM_SWIFT_CALL
#endif

// Exported by the concurrency runtime (libswift_Concurrency), which every Swift module links.
CSHIM_SWIFT_CALL extern void *swift_task_getCurrent(void);

void *cshim_current_task(void) {
    return swift_task_getCurrent();
}

uint64_t cshim_monotonic_now_ns(void) {
#if defined(__APPLE__)
    return clock_gettime_nsec_np(CLOCK_UPTIME_RAW);
#elif defined(__linux__)
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
#else
#error "cshim_monotonic_now_ns: unsupported platform"
#endif
}

int cshim_sleep_until_monotonic(uint64_t deadline_ns) {
    for (;;) {
        uint64_t now = cshim_monotonic_now_ns();
        if (now >= deadline_ns) {
            return 0;
        }
        uint64_t remaining = deadline_ns - now;
        struct timespec interval = {
            .tv_sec = (time_t)(remaining / 1000000000ull),
            .tv_nsec = (long)(remaining % 1000000000ull),
        };
        if (nanosleep(&interval, NULL) != 0 && errno != EINTR) {
            return errno;
        }
    }
}

int cshim_cond_init_monotonic(pthread_cond_t *condition) {
#if defined(__APPLE__)
    return pthread_cond_init(condition, NULL);
#elif defined(__linux__)
    pthread_condattr_t attributes;
    int error = pthread_condattr_init(&attributes);
    if (error != 0) {
        return error;
    }
    error = pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    if (error == 0) {
        error = pthread_cond_init(condition, &attributes);
    }
    pthread_condattr_destroy(&attributes);
    return error;
#else
#error "cshim_cond_init_monotonic: unsupported platform"
#endif
}

int cshim_cond_timedwait_monotonic(pthread_cond_t *condition, pthread_mutex_t *mutex,
                                   uint64_t deadline_ns) {
#if defined(__APPLE__)
    uint64_t now = cshim_monotonic_now_ns();
    uint64_t remaining = deadline_ns > now ? deadline_ns - now : 0;
    struct timespec interval = {
        .tv_sec = (time_t)(remaining / 1000000000ull),
        .tv_nsec = (long)(remaining % 1000000000ull),
    };
    return pthread_cond_timedwait_relative_np(condition, mutex, &interval);
#elif defined(__linux__)
    struct timespec deadline = {
        .tv_sec = (time_t)(deadline_ns / 1000000000ull),
        .tv_nsec = (long)(deadline_ns % 1000000000ull),
    };
    return pthread_cond_timedwait(condition, mutex, &deadline);
#else
#error "cshim_cond_timedwait_monotonic: unsupported platform"
#endif
}

// MARK: Parking

enum { CSHIM_PARKER_IDLE = 0, CSHIM_PARKER_PERMITTED = 1, CSHIM_PARKER_SLEEPING = 2 };

#if defined(__APPLE__)
extern int __ulock_wait(uint32_t operation, void *address, uint64_t value, uint32_t timeout_us);
extern int __ulock_wake(uint32_t operation, void *address, uint64_t value);
#define CSHIM_UL_COMPARE_AND_WAIT 1
#define CSHIM_ULF_NO_ERRNO 0x01000000
#endif

/// Sleeps while the word holds `expected`, at most `timeout_ns` (0: no limit).
static void cshim_word_wait(_Atomic uint32_t *word, uint32_t expected, uint64_t timeout_ns) {
#if defined(__linux__)
    struct timespec interval = {
        .tv_sec = (time_t)(timeout_ns / 1000000000ull),
        .tv_nsec = (long)(timeout_ns % 1000000000ull),
    };
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expected,
            timeout_ns == 0 ? NULL : &interval, NULL, 0);
#elif defined(__APPLE__)
    uint64_t microseconds = timeout_ns / 1000;
    // 0 waits with no deadline; a deadline under a microsecond is one microsecond.
    uint32_t timeout_us = timeout_ns == 0 ? 0
                          : microseconds > UINT32_MAX ? UINT32_MAX
                          : microseconds == 0 ? 1 : (uint32_t)microseconds;
    __ulock_wait(CSHIM_UL_COMPARE_AND_WAIT | CSHIM_ULF_NO_ERRNO, (void *)word, expected, timeout_us);
#else
#error "cshim_word_wait: unsupported platform"
#endif
}

static void cshim_word_wake(_Atomic uint32_t *word) {
#if defined(__linux__)
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
#elif defined(__APPLE__)
    __ulock_wake(CSHIM_UL_COMPARE_AND_WAIT | CSHIM_ULF_NO_ERRNO, (void *)word, 0);
#else
#error "cshim_word_wake: unsupported platform"
#endif
}

static inline void cshim_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/// Consumes a permit if there is one.
static bool cshim_try_consume(cshim_parker *parker) {
    uint32_t expected = CSHIM_PARKER_PERMITTED;
    return atomic_compare_exchange_strong_explicit(&parker->state, &expected, CSHIM_PARKER_IDLE,
                                                   memory_order_acquire, memory_order_relaxed);
}

static bool cshim_park_until(cshim_parker *parker, uint32_t spins, uint64_t deadline_ns) {
    for (uint32_t i = 0; i < spins; i++) {
        if (cshim_try_consume(parker)) {
            return true;
        }
        cshim_cpu_relax();
    }
    for (;;) {
        if (cshim_try_consume(parker)) {
            return true;
        }
        uint32_t expected = CSHIM_PARKER_IDLE;
        atomic_compare_exchange_strong_explicit(&parker->state, &expected, CSHIM_PARKER_SLEEPING,
                                                memory_order_relaxed, memory_order_relaxed);
        uint64_t timeout = 0;
        if (deadline_ns != 0) {
            uint64_t now = cshim_monotonic_now_ns();
            if (now >= deadline_ns) {
                uint32_t sleeping = CSHIM_PARKER_SLEEPING;
                atomic_compare_exchange_strong_explicit(&parker->state, &sleeping, CSHIM_PARKER_IDLE,
                                                        memory_order_relaxed, memory_order_relaxed);
                return cshim_try_consume(parker);
            }
            timeout = deadline_ns - now;
        }
        cshim_word_wait(&parker->state, CSHIM_PARKER_SLEEPING, timeout);
    }
}

void cshim_park(cshim_parker *parker, uint32_t spins) {
    cshim_park_until(parker, spins, 0);
}

bool cshim_park_with_timeout(cshim_parker *parker, uint64_t timeout_ns) {
    return cshim_park_until(parker, 0, cshim_monotonic_now_ns() + timeout_ns);
}

void cshim_unpark(cshim_parker *parker) {
    uint32_t previous = atomic_exchange_explicit(&parker->state, CSHIM_PARKER_PERMITTED, memory_order_release);
    if (previous == CSHIM_PARKER_SLEEPING) {
        cshim_word_wake(&parker->state);
    }
}

void cshim_completion_signal(cshim_completion *completion) {
    cshim_unpark(&completion->ended);
}

bool cshim_completion_wait(cshim_completion *completion) {
    if (atomic_exchange_explicit(&completion->claimed, true, memory_order_relaxed)) {
        return false;
    }
    cshim_park(&completion->ended, 0);
    return true;
}

// MARK: Crash reports

static _Thread_local cshim_crash_report *cshim_thread_crash_report = NULL;
static const int cshim_crash_signals[] = {SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT};
#define CSHIM_CRASH_SIGNAL_COUNT (sizeof(cshim_crash_signals) / sizeof(cshim_crash_signals[0]))
static struct sigaction cshim_previous_actions[CSHIM_CRASH_SIGNAL_COUNT];
static pthread_once_t cshim_crash_reporter_once = PTHREAD_ONCE_INIT;

static void cshim_write_all(const char *text, size_t length) {
    while (length > 0) {
        ssize_t written = write(STDERR_FILENO, text, length);
        if (written <= 0) {
            return;
        }
        text += written;
        length -= (size_t)written;
    }
}

/// Writes `count` bytes as unpadded base64url at `out`; returns how many characters it wrote.
static size_t cshim_encode_base64url(const uint8_t *bytes, size_t count, char *out) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    size_t used = 0;
    for (size_t index = 0; index < count; index += 3) {
        uint32_t group = (uint32_t)bytes[index] << 16;
        size_t available = count - index;
        if (available > 1) group |= (uint32_t)bytes[index + 1] << 8;
        if (available > 2) group |= bytes[index + 2];
        size_t characters = available >= 3 ? 4 : available + 1;
        for (size_t c = 0; c < characters; c++) {
            out[used++] = alphabet[(group >> (18 - 6 * c)) & 0x3F];
        }
    }
    return used;
}

static size_t cshim_base64url_length(size_t count) {
    return count / 3 * 4 + (count % 3 == 0 ? 0 : count % 3 + 1);
}

size_t cshim_schedule_record_size(size_t step_capacity) {
    return sizeof(cshim_schedule_record) + step_capacity;
}

void cshim_schedule_record_init(cshim_schedule_record *record, size_t step_capacity) {
    atomic_init(&record->byteCount, 0);
    record->stepCapacity = step_capacity;
    atomic_init(&record->tokenPrefixLength, 0);
}

bool cshim_schedule_record_begin(cshim_schedule_record *record, const char *token_prefix) {
    atomic_store_explicit(&record->tokenPrefixLength, 0, memory_order_release);
    atomic_store_explicit(&record->byteCount, 0, memory_order_release);
    size_t length = strlen(token_prefix);
    if (length >= CSHIM_TOKEN_PREFIX_CAPACITY) {
        return false;
    }
    memcpy(record->tokenPrefix, token_prefix, length + 1);
    atomic_store_explicit(&record->tokenPrefixLength, length, memory_order_release);
    return true;
}

uint8_t *cshim_schedule_record_steps(cshim_schedule_record *record) {
    return record->steps;
}

bool cshim_schedule_record_read(const void *bytes, size_t length, const char **token_prefix, size_t *prefix_length,
                                const uint8_t **steps, size_t *byte_count) {
    if (length < sizeof(cshim_schedule_record)) {
        return false;
    }
    const cshim_schedule_record *record = bytes;
    size_t prefixLength = atomic_load_explicit(&record->tokenPrefixLength, memory_order_acquire);
    size_t count = atomic_load_explicit(&record->byteCount, memory_order_acquire);
    if (prefixLength == 0 || prefixLength >= CSHIM_TOKEN_PREFIX_CAPACITY
        || record->stepCapacity > length - sizeof(cshim_schedule_record) || count > record->stepCapacity) {
        return false;
    }
    *token_prefix = record->tokenPrefix;
    *prefix_length = prefixLength;
    *steps = record->steps;
    *byte_count = count;
    return true;
}

bool cshim_is_crash_signal(int signal_number) {
    for (size_t index = 0; index < CSHIM_CRASH_SIGNAL_COUNT; index++) {
        if (cshim_crash_signals[index] == signal_number) {
            return true;
        }
    }
    return false;
}

static void cshim_crash_handler(int signal_number) {
    cshim_crash_report *report = cshim_thread_crash_report;
    if (report != NULL) {
        size_t prefixLength = strlen(report->prefix);
        size_t suffixLength = strlen(report->suffix);
        memcpy(report->line, report->prefix, prefixLength);
        size_t length = prefixLength;
        cshim_schedule_record *record = report->record;
        if (record != NULL) {
            size_t count = atomic_load_explicit(&record->byteCount, memory_order_acquire);
            if (count > record->stepCapacity) count = record->stepCapacity;
            length += cshim_encode_base64url(record->steps, count, report->line + prefixLength);
        }
        memcpy(report->line + length, report->suffix, suffixLength);
        cshim_write_all(report->line, length + suffixLength);
    }
    for (size_t index = 0; index < CSHIM_CRASH_SIGNAL_COUNT; index++) {
        if (cshim_crash_signals[index] == signal_number) {
            sigaction(signal_number, &cshim_previous_actions[index], NULL);
        }
    }
    // Returning re-executes a faulting instruction (and abort() re-raises by itself), so the
    // previous handler sees the original fault; a breakpoint trap has moved past it.
    if (signal_number == SIGTRAP) {
        raise(signal_number);
    }
}

// Process-wide: a signal's handler belongs to the process; the report it prints is the thread's own.
static void cshim_install_crash_handlers(void) {
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = cshim_crash_handler;
    sigemptyset(&action.sa_mask);
    // On the alternate stack: a stack overflow leaves no room for the handler on the thread's own.
    action.sa_flags = SA_NODEFER | SA_ONSTACK;
    for (size_t index = 0; index < CSHIM_CRASH_SIGNAL_COUNT; index++) {
        sigaction(cshim_crash_signals[index], &action, &cshim_previous_actions[index]);
    }
}

void cshim_install_crash_reporter(void) {
    pthread_once(&cshim_crash_reporter_once, cshim_install_crash_handlers);
}

cshim_crash_report *cshim_crash_report_create(const char *prefix, const char *suffix, cshim_schedule_record *record) {
    cshim_crash_report *report = calloc(1, sizeof(cshim_crash_report));
    if (report == NULL) {
        return NULL;
    }
    report->record = record;
    if (!cshim_crash_report_set_text(report, prefix, suffix)) {
        cshim_crash_report_destroy(report);
        return NULL;
    }
    return report;
}

// Makes `*buffer` hold at least `needed` bytes, growing it (and `*capacity`) only when smaller.
static bool cshim_reserve(char **buffer, size_t *capacity, size_t needed) {
    if (needed <= *capacity) {
        return true;
    }
    char *grown = realloc(*buffer, needed);
    if (grown == NULL) {
        return false;
    }
    *buffer = grown;
    *capacity = needed;
    return true;
}

bool cshim_crash_report_set_text(cshim_crash_report *report, const char *prefix, const char *suffix) {
    size_t prefixSize = strlen(prefix) + 1;
    size_t suffixSize = strlen(suffix) + 1;
    size_t stepCapacity = report->record != NULL ? report->record->stepCapacity : 0;
    size_t lineSize = prefixSize + cshim_base64url_length(stepCapacity) + suffixSize;
    if (!cshim_reserve(&report->prefix, &report->prefixCapacity, prefixSize)
        || !cshim_reserve(&report->suffix, &report->suffixCapacity, suffixSize)
        || !cshim_reserve(&report->line, &report->lineCapacity, lineSize)) {
        return false;
    }
    memcpy(report->prefix, prefix, prefixSize);
    memcpy(report->suffix, suffix, suffixSize);
    return true;
}

void cshim_crash_report_destroy(cshim_crash_report *report) {
    free(report->prefix);
    free(report->suffix);
    free(report->line);
    free(report);
}

// A fixed size rather than SIGSTKSZ, which new glibc makes a sysconf call: the handler needs
// little, and the runtime's backtracer, which runs after it on the same stack, more.
#define CSHIM_SIGNAL_STACK_SIZE (64 * 1024)

// Process-wide: one key names every thread's signal stack, and its destructor frees each as its thread ends.
static pthread_key_t cshim_signal_stack_key;
static int cshim_signal_stack_key_error;
static pthread_once_t cshim_signal_stack_once = PTHREAD_ONCE_INIT;

/// Runs as a thread that was given a signal stack ends: it stops using it, then frees it.
static void cshim_free_signal_stack(void *stack) {
    stack_t disabled;
    memset(&disabled, 0, sizeof(disabled));
    disabled.ss_flags = SS_DISABLE;
    if (sigaltstack(&disabled, NULL) == 0) {
        free(stack);
    }
}

static void cshim_create_signal_stack_key(void) {
    cshim_signal_stack_key_error = pthread_key_create(&cshim_signal_stack_key, cshim_free_signal_stack);
}

/// Gives the calling thread an alternate signal stack unless it has one (its own from an
/// earlier call, or one a sanitizer or the runtime installed). Returns 0 or an errno value.
static int cshim_ensure_signal_stack(void) {
    pthread_once(&cshim_signal_stack_once, cshim_create_signal_stack_key);
    if (cshim_signal_stack_key_error != 0) {
        return cshim_signal_stack_key_error;
    }
    if (cshim_thread_getspecific(cshim_signal_stack_key) != NULL) {
        return 0;
    }
    stack_t current;
    if (sigaltstack(NULL, &current) != 0) {
        return errno;
    }
    if ((current.ss_flags & SS_DISABLE) == 0) {
        return 0;
    }
    void *memory = malloc(CSHIM_SIGNAL_STACK_SIZE);
    if (memory == NULL) {
        return ENOMEM;
    }
    stack_t stack;
    memset(&stack, 0, sizeof(stack));
    stack.ss_sp = memory;
    stack.ss_size = CSHIM_SIGNAL_STACK_SIZE;
    if (sigaltstack(&stack, NULL) != 0) {
        int error = errno;
        free(memory);
        return error;
    }
    int error = cshim_thread_setspecific(cshim_signal_stack_key, memory);
    if (error != 0) {
        cshim_free_signal_stack(memory);
    }
    return error;
}

int cshim_set_thread_crash_report(cshim_crash_report *report) {
    if (report != NULL) {
        int error = cshim_ensure_signal_stack();
        if (error != 0) {
            return error;
        }
    }
    cshim_thread_crash_report = report;
    return 0;
}

// MARK: Child processes

int cshim_wait_readable(int fd, int timeout_ms) {
    struct pollfd descriptor = {.fd = fd, .events = POLLIN, .revents = 0};
    int ready = poll(&descriptor, 1, timeout_ms);
    return ready > 0 ? 1 : ready;
}

int cshim_wait_for_process_exit(pid_t pid, int timeout_ms) {
#if defined(__linux__)
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
    int descriptor = (int)syscall(SYS_pidfd_open, pid, 0);
    if (descriptor < 0) {
        return errno == ESRCH ? 1 : -1;
    }
    int ready = cshim_wait_readable(descriptor, timeout_ms);
    close(descriptor);
    return ready;
#elif defined(__APPLE__)
    int queue = kqueue();
    if (queue < 0) {
        return -1;
    }
    struct kevent change;
    EV_SET(&change, pid, EVFILT_PROC, EV_ADD | EV_ONESHOT, NOTE_EXIT, 0, NULL);
    struct kevent event;
    struct timespec timeout = {.tv_sec = timeout_ms / 1000, .tv_nsec = (long)(timeout_ms % 1000) * 1000000};
    int ready = kevent(queue, &change, 1, &event, 1, &timeout);
    close(queue);
    if (ready < 0 && errno == ESRCH) {
        return 1;
    }
    return ready > 0 ? 1 : ready;
#else
#error "cshim_wait_for_process_exit: unsupported platform"
#endif
}

// MARK: Stalled threads

#if defined(__linux__)
#define CSHIM_STACK_SIGNAL (SIGRTMIN + 3)
#elif defined(__APPLE__)
#define CSHIM_STACK_SIGNAL SIGUSR2
#else
#error "cshim_capture_thread_stack: unsupported platform"
#endif

#define CSHIM_STACK_CAPACITY 64

static pthread_mutex_t cshim_stack_capture_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t cshim_stack_handler_once = PTHREAD_ONCE_INIT;
// The handler writes here, never into a caller's buffer: a late answer after a timeout
// then overwrites only this.
static void *cshim_stack_frames[CSHIM_STACK_CAPACITY];
static atomic_int cshim_stack_count;

int cshim_capture_current_stack(void **frames, int capacity) {
    return backtrace(frames, capacity);
}

static void cshim_stack_handler(int signal_number) {
    (void)signal_number;
    atomic_store_explicit(&cshim_stack_count, backtrace(cshim_stack_frames, CSHIM_STACK_CAPACITY),
                          memory_order_release);
}

static void cshim_install_stack_handler(void) {
    // backtrace() loads its unwinder on first use, which allocates: do it here, not in the handler.
    void *warm_up[1];
    (void)backtrace(warm_up, 1);
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = cshim_stack_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(CSHIM_STACK_SIGNAL, &action, NULL);
}

/// Whether the calling thread has unblocked the stack-capture signal.
static _Thread_local bool cshim_stack_capture_allowed = false;

void cshim_allow_stack_capture(void) {
    if (cshim_stack_capture_allowed) return;
    cshim_stack_capture_allowed = true;
    pthread_once(&cshim_stack_handler_once, cshim_install_stack_handler);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, CSHIM_STACK_SIGNAL);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

uintptr_t cshim_current_thread_handle(void) {
    return (uintptr_t)cshim_thread_self();
}

#if defined(__linux__)
/// The calling thread's kernel thread ID, asked of the kernel once per thread (every thread
/// an execution starts asks): 0 until then. A forked child's only thread forgets it, since
/// its ID is new.
static __thread uint64_t cshim_cached_thread_system_id;
static pthread_once_t cshim_thread_system_id_once = PTHREAD_ONCE_INIT;

static void cshim_forget_thread_system_id(void) {
    cshim_cached_thread_system_id = 0;
}

static void cshim_forget_thread_system_id_after_fork(void) {
    pthread_atfork(NULL, NULL, cshim_forget_thread_system_id);
}

uint64_t cshim_current_thread_system_id(void) {
    if (cshim_cached_thread_system_id == 0) {
        pthread_once(&cshim_thread_system_id_once, cshim_forget_thread_system_id_after_fork);
        cshim_cached_thread_system_id = (uint64_t)syscall(SYS_gettid);
    }
    return cshim_cached_thread_system_id;
}

int cshim_thread_activity(uint64_t system_id, int *runnable, uint64_t *cpu_ns) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/task/%llu/stat", (unsigned long long)system_id);
    FILE *file = fopen(path, "re");
    if (file == NULL) {
        return -1;
    }
    char line[1024];
    size_t length = fread(line, 1, sizeof(line) - 1, file);
    fclose(file);
    line[length] = '\0';
    // "tid (name) state ppid … utime stime …": the name may hold spaces and parentheses, so
    // the fields start after the last ')'; utime and stime are the 12th and 13th after it.
    char *fields = strrchr(line, ')');
    char state = 0;
    unsigned long long user = 0, system = 0;
    if (fields == NULL
        || sscanf(fields + 1, " %c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu %llu", &state, &user, &system) != 3) {
        errno = EINVAL;
        return -1;
    }
    long ticks_per_second = sysconf(_SC_CLK_TCK);
    *runnable = state == 'R';
    *cpu_ns = (user + system) * (1000000000ull / (uint64_t)(ticks_per_second > 0 ? ticks_per_second : 100));
    return 0;
}
#elif defined(__APPLE__)
uint64_t cshim_current_thread_system_id(void) {
    return (uint64_t)pthread_mach_thread_np(cshim_thread_self());
}

int cshim_thread_activity(uint64_t system_id, int *runnable, uint64_t *cpu_ns) {
    thread_basic_info_data_t info;
    mach_msg_type_number_t count = THREAD_BASIC_INFO_COUNT;
    if (thread_info((thread_act_t)system_id, THREAD_BASIC_INFO, (thread_info_t)&info, &count) != KERN_SUCCESS) {
        errno = ESRCH;
        return -1;
    }
    *runnable = info.run_state == TH_STATE_RUNNING;
    *cpu_ns = ((uint64_t)info.user_time.seconds + (uint64_t)info.system_time.seconds) * 1000000000ull
        + ((uint64_t)info.user_time.microseconds + (uint64_t)info.system_time.microseconds) * 1000ull;
    return 0;
}
#else
#error "cshim_thread_activity: unsupported platform"
#endif

int cshim_capture_thread_stack(uintptr_t thread, void **frames, int capacity, int timeout_ms) {
    pthread_once(&cshim_stack_handler_once, cshim_install_stack_handler);
    pthread_mutex_lock(&cshim_stack_capture_lock);
    atomic_store_explicit(&cshim_stack_count, -1, memory_order_release);
    int count = -1;
    if (pthread_kill((pthread_t)thread, CSHIM_STACK_SIGNAL) == 0) {
        uint64_t deadline = cshim_monotonic_now_ns() + (uint64_t)timeout_ms * 1000000u;
        while ((count = atomic_load_explicit(&cshim_stack_count, memory_order_acquire)) < 0
               && cshim_monotonic_now_ns() < deadline) {
            cshim_sleep_until_monotonic(cshim_monotonic_now_ns() + 1000000u);
        }
    }
    if (count > capacity) {
        count = capacity;
    }
    if (count > 0) {
        memcpy(frames, cshim_stack_frames, (size_t)count * sizeof(void *));
    }
    pthread_mutex_unlock(&cshim_stack_capture_lock);
    return count;
}

int cshim_read_memory(const void *address, void *buffer, size_t size) {
#if defined(__linux__)
    struct iovec local = {.iov_base = buffer, .iov_len = size};
    struct iovec remote = {.iov_base = (void *)address, .iov_len = size};
    ssize_t copied = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
    if (copied == (ssize_t)size) {
        return 0;
    }
    if (copied >= 0) {
        errno = EFAULT;
    }
    return -1;
#elif defined(__APPLE__)
    vm_size_t copied = 0;
    kern_return_t result = vm_read_overwrite(
        mach_task_self(), (vm_address_t)address, (vm_size_t)size, (vm_address_t)buffer, &copied);
    if (result == KERN_SUCCESS && copied == size) {
        return 0;
    }
    errno = EFAULT;
    return -1;
#else
#error "cshim_read_memory: unsupported platform"
#endif
}

const char *cshim_symbol_name(void *address) {
    Dl_info info;
    return dladdr(address, &info) != 0 ? info.dli_sname : NULL;
}
