#if defined(__linux__)
#define _GNU_SOURCE
#endif

#include "CBenchmarkSupport.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#elif defined(__APPLE__)
extern int __ulock_wait(uint32_t operation, void *address, uint64_t value, uint32_t timeout_us);
extern int __ulock_wake(uint32_t operation, void *address, uint64_t value);
#define CBENCH_UL_COMPARE_AND_WAIT 1
#define CBENCH_ULF_NO_ERRNO 0x01000000
#else
#error "CBenchmarkSupport: unsupported platform"
#endif

int cbench_pin_current_thread(int cpu) {
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
#else
    (void)cpu;
    return ENOTSUP;
#endif
}

int cbench_current_cpu(void) {
#if defined(__linux__)
    return sched_getcpu();
#else
    return -1;
#endif
}

static uint64_t cbench_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

// MARK: Handoffs between two threads

/// A turn passed back and forth between player 0, which measures, and player 1, through
/// `take` (wait until it is `mine`) and `pass` (make it `to`'s). Both players are new
/// threads, so the caller's affinity is left alone.
typedef struct {
    void (*take)(void *channel, uint32_t mine);
    void (*pass)(void *channel, uint32_t to);
    void *channel;
    uint64_t rounds;
    int cpu;
    uint64_t elapsed;
} cbench_game;

static void *cbench_player_one(void *argument) {
    cbench_game *game = argument;
    if (game->cpu >= 0) {
        cbench_pin_current_thread(game->cpu);
    }
    // The first pass tells player 0 that player 1 is running.
    game->pass(game->channel, 0);
    for (uint64_t round = 0; round < game->rounds; round++) {
        game->take(game->channel, 1);
        game->pass(game->channel, 0);
    }
    return NULL;
}

static void *cbench_player_zero(void *argument) {
    cbench_game *game = argument;
    if (game->cpu >= 0) {
        cbench_pin_current_thread(game->cpu);
    }
    game->take(game->channel, 0);
    uint64_t start = cbench_now_ns();
    for (uint64_t round = 0; round < game->rounds; round++) {
        game->pass(game->channel, 1);
        game->take(game->channel, 0);
    }
    game->elapsed = cbench_now_ns() - start;
    return NULL;
}

/// Plays `game` on two new threads and returns the elapsed nanoseconds; exits the process
/// with a message if a thread cannot be created (a benchmark cannot go on without it).
static uint64_t cbench_play(cbench_game *game) {
    pthread_t zero, one;
    int error = pthread_create(&one, NULL, cbench_player_one, game);
    if (error == 0) {
        error = pthread_create(&zero, NULL, cbench_player_zero, game);
    }
    if (error != 0) {
        fprintf(stderr, "CBenchmarkSupport: pthread_create failed with error %d\n", error);
        abort();
    }
    pthread_join(zero, NULL);
    pthread_join(one, NULL);
    return game->elapsed;
}

// MARK: Futex

/// Sleeps while `*word == expected` (early returns are fine: callers loop).
static void cbench_word_wait(_Atomic uint32_t *word, uint32_t expected) {
#if defined(__linux__)
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
#else
    __ulock_wait(CBENCH_UL_COMPARE_AND_WAIT | CBENCH_ULF_NO_ERRNO, (void *)word, expected, 0);
#endif
}

static void cbench_word_wake(_Atomic uint32_t *word) {
#if defined(__linux__)
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
#else
    __ulock_wake(CBENCH_UL_COMPARE_AND_WAIT | CBENCH_ULF_NO_ERRNO, (void *)word, 0);
#endif
}

static void cbench_futex_take(void *channel, uint32_t mine) {
    _Atomic uint32_t *turn = channel;
    while (atomic_load_explicit(turn, memory_order_acquire) != mine) {
        cbench_word_wait(turn, 1 - mine);
    }
}

static void cbench_futex_pass(void *channel, uint32_t to) {
    _Atomic uint32_t *turn = channel;
    atomic_store_explicit(turn, to, memory_order_release);
    cbench_word_wake(turn);
}

uint64_t cbench_futex_handoffs(uint64_t rounds, int cpu) {
    _Atomic uint32_t turn;
    atomic_init(&turn, 1);
    cbench_game game = {
        .take = cbench_futex_take, .pass = cbench_futex_pass, .channel = (void *)&turn, .rounds = rounds, .cpu = cpu};
    return cbench_play(&game);
}

// MARK: Condition variable

typedef struct {
    pthread_mutex_t mutex;
    pthread_cond_t changed;
    uint32_t turn;
} cbench_condvar_channel;

static void cbench_condvar_take(void *channel, uint32_t mine) {
    cbench_condvar_channel *state = channel;
    pthread_mutex_lock(&state->mutex);
    while (state->turn != mine) {
        pthread_cond_wait(&state->changed, &state->mutex);
    }
    pthread_mutex_unlock(&state->mutex);
}

static void cbench_condvar_pass(void *channel, uint32_t to) {
    cbench_condvar_channel *state = channel;
    pthread_mutex_lock(&state->mutex);
    state->turn = to;
    pthread_cond_signal(&state->changed);
    pthread_mutex_unlock(&state->mutex);
}

uint64_t cbench_condvar_handoffs(uint64_t rounds, int cpu) {
    cbench_condvar_channel channel = {.turn = 1};
    pthread_mutex_init(&channel.mutex, NULL);
    pthread_cond_init(&channel.changed, NULL);
    cbench_game game = {
        .take = cbench_condvar_take, .pass = cbench_condvar_pass, .channel = &channel, .rounds = rounds, .cpu = cpu};
    uint64_t elapsed = cbench_play(&game);
    pthread_cond_destroy(&channel.changed);
    pthread_mutex_destroy(&channel.mutex);
    return elapsed;
}

// MARK: Thread creation

static void *cbench_empty_thread(void *argument) {
    return argument;
}

int cbench_create_and_join_threads(uint64_t count) {
    for (uint64_t index = 0; index < count; index++) {
        pthread_t thread;
        int error = pthread_create(&thread, NULL, cbench_empty_thread, NULL);
        if (error != 0) {
            return error;
        }
        error = pthread_join(thread, NULL);
        if (error != 0) {
            return error;
        }
    }
    return 0;
}
