#include "CMallocCounter.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

#if defined(__linux__) && defined(__GLIBC__)
// glibc's own entry points, which the definitions below forward to.
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic uint64_t cmalloc_count = 0;

static inline void cmalloc_note(void) {
    atomic_fetch_add_explicit(&cmalloc_count, 1, memory_order_relaxed);
}

void *malloc(size_t size) {
    cmalloc_note();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    cmalloc_note();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    cmalloc_note();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    cmalloc_note();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    cmalloc_note();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    cmalloc_note();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) {
        return ENOMEM;
    }
    *result = pointer;
    return 0;
}

uint64_t cmalloc_allocation_count(void) {
    return atomic_load_explicit(&cmalloc_count, memory_order_relaxed);
}
bool cmalloc_is_counting(void) {
    return true;
}
#else
uint64_t cmalloc_allocation_count(void) {
    return 0;
}

bool cmalloc_is_counting(void) {
    return false;
}
#endif
