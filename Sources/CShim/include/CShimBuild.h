// What this package's C is compiled for, shared by its C targets: whether under a sanitizer
// (the files leave out what a sanitizer cannot follow), and whether the thread-identity watch
// is built (CIdentityWatch).
#ifndef CSHIM_BUILD_H
#define CSHIM_BUILD_H

#if !defined(__has_feature)
#define __has_feature(feature) 0
#endif

#if __has_feature(thread_sanitizer) || defined(__SANITIZE_THREAD__) || __has_feature(address_sanitizer) \
    || defined(__SANITIZE_ADDRESS__)
#define CSHIM_SANITIZED 1
#endif

#if defined(__linux__)
#include <features.h>
#endif

// Not under a sanitizer: no coroutine runs there, and its runtime has functions of its own
// around the C library's.
#if defined(__GLIBC__) && !defined(CSHIM_SANITIZED)
#if __GLIBC_PREREQ(2, 30)
#define CSHIM_IDENTITY_WATCH 1
#endif
#endif

#endif
