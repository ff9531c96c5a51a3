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

    /// Why two escalation tests do not run under ThreadSanitizer yet: when a scenario thread
    /// throws, or a task fails a check, the harness ends the execution's threads where they
    /// stand and joins neither that thread nor its executor lanes, which TSan reports as
    /// leaked when the process exits. The `sanitizers` branch makes the harness join them.
    public static let unjoinedHarnessThreadsReason =
        "the harness does not yet join the threads of an execution it ends after a thrown error or a task's failed check, which ThreadSanitizer reports as leaks"

    private static func loaded(_ symbol: String) -> Bool {
        let process = dlopen(nil, RTLD_NOW)
        defer { if let process { dlclose(process) } }
        return dlsym(process, symbol) != nil
    }
}
