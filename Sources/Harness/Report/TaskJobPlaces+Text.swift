extension TaskJobPlaces {
    /// The job as a report's step names it, by the function the task ran in and the lines
    /// where it resumed and suspended:
    /// `BankAccount.withdraw(_:audit:): resumed at Bank.swift:18, suspended at :19`,
    /// `…: resumed at Bank.swift:20, returned` (the task goes on in
    /// the caller), `…, ended` (the task ended), or `suspended at
    /// Bank.swift:18 in BankAccount.withdraw(_:audit:)` for a job that began outside the code
    /// under test.
    var stepText: String {
        guard let start = resumedIn.first else {
            guard let wait = suspendedIn?.first else { return "ended" }
            return "suspended at \(wait.file):\(wait.line) in \(wait.function)"
        }
        let text = "\(start.function): resumed at \(start.file):\(start.line)"
        guard let suspendedIn else { return text + ", ended" }
        // Suspended elsewhere than the function it ran in: that function returned.
        guard let wait = suspendedIn.first, wait.function == start.function else {
            let caller = suspendedIn.first.map { "; suspended at \($0.file):\($0.line) in \($0.function)" }
            return text + ", returned" + (caller ?? "")
        }
        let line = wait.file == start.file ? ":\(wait.line)" : "\(wait.file):\(wait.line)"
        return text + ", suspended at " + line
    }
}
