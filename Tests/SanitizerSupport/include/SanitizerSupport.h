// Sanitizer settings for this package's test binary. Linked into the tests only; nothing
// here is meant to be called from Swift.
#ifndef SANITIZER_SUPPORT_H
#define SANITIZER_SUPPORT_H

#if !defined(__has_feature)
#define __has_feature(feature) 0
#endif

#if __has_feature(thread_sanitizer) || defined(__SANITIZE_THREAD__)
/// ThreadSanitizer's start-up hook for built-in suppressions (see SanitizerSupport.c).
const char *__tsan_default_suppressions(void);
#endif

#endif
