#if defined(__linux__)
#define _GNU_SOURCE
#endif

#include "CShim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Atomic long cshim_seam_active_controllers = 0;
_Thread_local void *cshim_seam_thread_controller = NULL;

void cshim_run_with_cleanup(void (*cleanup)(void *), void *cleanupArgument,
                            void (*body)(void *), void *bodyArgument) {
    pthread_cleanup_push(cleanup, cleanupArgument);
    body(bodyArgument);
    pthread_cleanup_pop(1);
}

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

int cshim_thread_create(pthread_t *thread, const pthread_attr_t *attributes,
                        void (*body)(void *), void (*cleanup)(void *), void *argument) {
    struct cshim_thread_start *start = malloc(sizeof(struct cshim_thread_start));
    if (start == NULL) {
        return EAGAIN;
    }
    start->body = body;
    start->cleanup = cleanup;
    start->argument = argument;
    int error = pthread_create(thread, attributes, cshim_thread_entry, start);
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
    return pthread_setname_np(pthread_self(), truncated);
#else
#error "cshim_set_current_thread_name: unsupported platform"
#endif
}

int cshim_get_current_thread_name(char *buffer, size_t length) {
    return pthread_getname_np(pthread_self(), buffer, length);
}

int cshim_pin_current_thread_to_cpu(int cpu) {
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
#elif defined(__APPLE__)
    (void)cpu;
    return ENOTSUP;
#else
#error "cshim_pin_current_thread_to_cpu: unsupported platform"
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
