import Foundation

/// Which sanitizer this process runs under, decided at run time from the runtime it loaded:
/// a test that cannot run under one skips itself with a reason.
public enum RuntimeSanitizer {
    /// Whether ThreadSanitizer's runtime is loaded (`swift test --sanitize=thread`).
    public static let thread = loaded("__tsan_init")

    /// Why tests that kill threads do not run under ThreadSanitizer: it aborts the process
    /// when a thread is cancelled inside a call it intercepts ("finished with ignores
    /// enabled"), and under stress a kill lands wherever the thread happens to be.
    public static let killsThreadsReason =
        "kills threads with pthread_cancel; ThreadSanitizer aborts when a cancellation lands inside a call it intercepts, which under stress it can"

    private static func loaded(_ symbol: String) -> Bool {
        let process = dlopen(nil, RTLD_NOW)
        defer { if let process { dlclose(process) } }
        return dlsym(process, symbol) != nil
    }
}
