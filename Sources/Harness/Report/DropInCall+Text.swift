extension DropInCall {
    /// The drop-in and the method called, and how a wait that timed out ended, as reports
    /// write the call: `queue#1 sync`, `semaphore#2 wait → timed out`.
    var text: String { "\(object) \(methodText)" }

    /// The method called, and how a wait that timed out ended: `sync`, `wait → timed out`.
    var methodText: String { operation.rawValue + (timedOut ? " → timed out" : "") }
}

extension TraceStep {
    /// The step as a report's row writes it: the drop-in call it began, at its location
    /// (`queue#1 sync @Cache.swift:18`), or else its ``summary``.
    var rowText: String {
        guard let call else { return summary }
        return call.text + (location.map { " @\($0.fileName):\($0.line)" } ?? "")
    }

    /// What the step touches as the picture pairs conflicting steps: the drop-in its call is
    /// on, or else its target.
    var accessTarget: TraceTarget? { call.map { .object($0.object) } ?? target }
}
