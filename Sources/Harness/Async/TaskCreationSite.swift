import CShim

/// Where the code under test created a task: the return addresses of the thread that queued
/// the task's first job, captured as it was queued (cheap, and reading no image of the
/// process) and symbolicated only for a report, in the same process (``place``). A report
/// names an unstructured task (`Task {}`, `Task.detached`) by it.
struct TaskCreationSite {
    /// The stack, innermost frame first.
    let returnAddresses: [UInt]

    /// The calling thread's stack now.
    static func capture() -> TaskCreationSite {
        var frames = [UnsafeMutableRawPointer?](repeating: nil, count: 64)
        let count = Int(cshim_capture_current_stack(&frames, Int32(frames.count)))
        return TaskCreationSite(returnAddresses: frames.prefix(max(count, 0)).map { UInt(bitPattern: $0) })
    }

    /// The line of the code under test that created the task (see
    /// ``ResumePointSymbols/creationPlace(returnAddresses:)``, which symbolicates each stack
    /// once); `nil` when the stack does not show it, or the toolchain has no `Runtime` module
    /// to read it with.
    var place: CodePlace? {
        ResumePointSymbols.creationPlace(returnAddresses: returnAddresses)
    }
}
