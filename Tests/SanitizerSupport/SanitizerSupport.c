#include "SanitizerSupport.h"

#if __has_feature(thread_sanitizer) || defined(__SANITIZE_THREAD__)
/// The suppressions ThreadSanitizer reads from this weak hook when it starts, so that
/// `swift test --sanitize=thread` needs no `TSAN_OPTIONS`. Written in C because TSan calls it
/// before it can run instrumented code; defined only in TSan builds.
///
/// `thread:Fixtures/Mutants/` — thread-leak reports for threads started by the deliberately
/// broken copies in `Fixtures/Mutants`. When the harness catches a mutant it ends the
/// execution's threads where they stand (`pthread_exit`), so the scenario never reaches the
/// join it would have made, and mutant 7's `join()` refuses to reap by design. The harness
/// joins the threads it starts itself; nothing else is suppressed.
const char *__tsan_default_suppressions(void) {
    return "thread:Fixtures/Mutants/\n";
}
#endif
