// Whether this package's C is compiled under a sanitizer, for the files that leave out what a
// sanitizer cannot follow.
#ifndef CSHIM_SANITIZED_H
#define CSHIM_SANITIZED_H

#if !defined(__has_feature)
#define __has_feature(feature) 0
#endif

#if __has_feature(thread_sanitizer) || defined(__SANITIZE_THREAD__) || __has_feature(address_sanitizer) \
    || defined(__SANITIZE_ADDRESS__)
#define CSHIM_SANITIZED 1
#endif

#endif
