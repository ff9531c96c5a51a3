import CShim

/// Whether this build runs under ThreadSanitizer, as CShim was compiled (the same test as
/// the conformance tests' `BuildConfiguration.sanitizer`): a test that cannot run under it
/// skips itself with a reason.
public enum RuntimeSanitizer {
    /// Whether the build runs under ThreadSanitizer (`swift test --sanitize=thread`).
    public static let thread = cshim_sanitizer() == CSHIM_SANITIZER_THREAD

    /// Why tests that kill threads do not run under ThreadSanitizer: it aborts the process
    /// when a thread is cancelled inside a call it intercepts ("finished with ignores
    /// enabled"), and under stress a kill lands wherever the thread happens to be.
    public static let killsThreadsReason =
        "kills threads with pthread_cancel; ThreadSanitizer aborts when a cancellation lands inside a call it "
        + "intercepts, which under stress it can"
}
