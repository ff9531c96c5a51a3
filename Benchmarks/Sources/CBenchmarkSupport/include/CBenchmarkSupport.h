// Hardware baselines the benchmarks compare against, written in plain C so that nothing of
// Swift's runtime is in them. Every symbol carries the `cbench_` prefix.
#ifndef CBENCHMARK_SUPPORT_H
#define CBENCHMARK_SUPPORT_H

#include <stdint.h>

/// Pins the calling thread to `cpu`. Returns 0, or an errno value (ENOTSUP where the
/// platform has no affinity API).
int cbench_pin_current_thread(int cpu);

/// The CPU the calling thread runs on, or -1 where the platform does not say.
int cbench_current_cpu(void);

/// Two threads hand a turn back and forth `rounds` times through one futex word (no
/// spinning: each handoff is a wake and a sleep in the kernel). With `cpu >= 0`, both
/// threads are pinned to that CPU. Returns the nanoseconds the `2 * rounds` handoffs took
/// (thread creation excluded). Exits the process if a thread cannot be created.
uint64_t cbench_futex_handoffs(uint64_t rounds, int cpu);

/// Like `cbench_futex_handoffs`, with a `pthread_mutex` and a `pthread_cond` instead of a
/// futex word: the classic condition-variable ping-pong.
uint64_t cbench_condvar_handoffs(uint64_t rounds, int cpu);

/// Creates and joins `count` threads that do nothing, one after another, with default
/// attributes. Returns 0, or the first `pthread_create`/`pthread_join` error.
int cbench_create_and_join_threads(uint64_t count);

#endif
