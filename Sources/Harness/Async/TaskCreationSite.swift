#if canImport(Runtime)
import Runtime
#endif

/// Where the code under test created a task: the stack of the thread that queued the task's
/// first job, captured as it was queued (cheap: the return addresses) and symbolicated only
/// for a report, in the same process (``place``). A report names an unstructured task
/// (`Task {}`, `Task.detached`) by it.
struct TaskCreationSite {
    #if canImport(Runtime)
    private let backtrace: Backtrace?
    #endif

    /// The calling thread's stack now.
    static func capture() -> TaskCreationSite {
        #if canImport(Runtime)
        TaskCreationSite(backtrace: try? Backtrace.capture())
        #else
        TaskCreationSite()
        #endif
    }

    /// The line of the code under test that created the task (see
    /// ``ResumePointSymbols/creationPlace(in:)``); `nil` when the stack does not show it, or
    /// the toolchain has no `Runtime` module to read it with.
    var place: CodePlace? {
        #if canImport(Runtime)
        backtrace.flatMap(ResumePointSymbols.creationPlace(in:))
        #else
        nil
        #endif
    }
}
