// Counts the process's heap allocations, for the benchmark table only: this target defines
// `malloc` and its siblings, so only an executable that links it counts (the table runner,
// never the package-benchmark targets, which bring an interposer of their own). Every
// symbol of ours carries the `cmalloc_` prefix.
#ifndef CMALLOC_COUNTER_H
#define CMALLOC_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

/// Whether allocations are counted: only with glibc, whose `__libc_malloc` family the
/// counting definitions forward to.
bool cmalloc_is_counting(void);

/// How many allocations (`malloc`, `calloc`, `realloc`, `posix_memalign`, `aligned_alloc`,
/// `memalign`) the process has made so far, from every thread; 0 where they are not counted.
uint64_t cmalloc_allocation_count(void);

#endif
