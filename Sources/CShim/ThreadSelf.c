// The harness's own questions about the calling OS thread, which the thread-identity watch
// (CIdentityWatch) never sees: they reach the C library by ways other than the names it
// defines in front of the C library's.
#if defined(__linux__)
#define _GNU_SOURCE
#endif

#include "CShim.h"
#include "CShimBuild.h"

#if defined(CSHIM_IDENTITY_WATCH)
#include <dlfcn.h>
#include <threads.h>

static int (*cshim_real_setspecific)(pthread_key_t, const void *) = NULL;

/// `pthread_setspecific` of the library after this executable (the C library), found once.
static int cshim_forward_setspecific(pthread_key_t key, const void *value) {
    int (*real)(pthread_key_t, const void *) = __atomic_load_n(&cshim_real_setspecific, __ATOMIC_ACQUIRE);
    if (real == NULL) {
        real = (int (*)(pthread_key_t, const void *))dlsym(RTLD_NEXT, "pthread_setspecific");
        __atomic_store_n(&cshim_real_setspecific, real, __ATOMIC_RELEASE);
    }
    return real(key, value);
}
#endif

// `thrd_current` is `pthread_self`, `tss_get` `pthread_getspecific`, under names the watch
// does not define.
pthread_t cshim_thread_self(void) {
#if defined(CSHIM_IDENTITY_WATCH)
    return thrd_current();
#else
    return pthread_self();
#endif
}

void *cshim_thread_getspecific(pthread_key_t key) {
#if defined(CSHIM_IDENTITY_WATCH)
    return tss_get(key);
#else
    return pthread_getspecific(key);
#endif
}

int cshim_thread_setspecific(pthread_key_t key, const void *value) {
#if defined(CSHIM_IDENTITY_WATCH)
    return cshim_forward_setspecific(key, value);
#else
    return pthread_setspecific(key, value);
#endif
}
