import CShim

/// What the process prints when a thread of a stress iteration crashes: the stress report
/// so far. A crash ends the process, so this text is all that is left of the run.
///
/// The run makes a new note as its counts change (at most a few times a second); an
/// iteration's threads carry the note that was current when it began. A note lives as long
/// as a controller that hands it out, so a thread never points at a freed one.
final class StressCrashNote: @unchecked Sendable {
    private let report: UnsafeMutablePointer<cshim_crash_report>

    /// A note that prints `text`.
    init(_ text: String) {
        guard let report = cshim_crash_report_create(text, "", nil) else {
            preconditionFailure("the stress run could not allocate its crash note")
        }
        self.report = report
        cshim_install_crash_reporter()
    }

    deinit {
        cshim_crash_report_destroy(report)
    }

    /// Makes this the note the calling thread prints if it crashes.
    func install() {
        let error = cshim_set_thread_crash_report(report)
        precondition(error == 0, "the stress run could not give a thread its crash note: errno \(error)")
    }

    /// Leaves the calling thread without a note.
    static func uninstall() {
        cshim_set_thread_crash_report(nil)
    }
}
