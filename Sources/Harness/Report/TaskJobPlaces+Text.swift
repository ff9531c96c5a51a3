extension TaskJobPlaces {
    /// The job as a report's step names it, by the function the task ran in and the lines
    /// where it resumed and suspended:
    /// `BankAccount.withdraw(_:audit:): resumed at Bank.swift:18, suspended at :19`;
    /// `…: resumed at Bank.swift:9, called fetch() at :10, suspended at :17` (in the callee);
    /// `…: resumed at Bank.swift:20, returned` (the task goes on in a caller); `…, ended`
    /// (the task ended); `…, changes executor before :21` (an actor hop, where it goes on);
    /// or `suspended at Bank.swift:18 in BankAccount.withdraw(_:audit:)` for a job that began
    /// outside the code under test.
    var stepText: String {
        guard let start = resumedIn.first else {
            guard let wait = suspendedIn?.first else { return "ended" }
            return "\(suspension) \(wait)"
        }
        // `:19` in the file the task resumed in, `Other.swift:19` in another.
        func line(_ place: CodePlace) -> String {
            place.file == start.file ? ":\(place.line)" : "\(place.file):\(place.line)"
        }
        let text = "\(start.function): resumed at \(start.file):\(start.line)"
        guard let suspendedIn else { return text + ", ended" }
        guard let wait = suspendedIn.first else {
            return text + (wholeStacks ? ", returned" : ", suspended outside the code under test")
        }
        if wait.function == start.function { return text + ", \(suspension) " + line(wait) }
        let elsewhere = "\(suspension) \(line(wait)) in \(wait.function)"
        guard wholeStacks else { return text + "; " + elsewhere }
        // The function it resumed in is still on the stack: it called the one that suspended.
        guard let call = suspendedIn.indices.dropFirst().first(where: { suspendedIn[$0].function == start.function })
        else { return text + ", returned; " + elsewhere }
        let callee = suspendedIn[call - 1]
        return text + ", called \(callee.function) at \(line(suspendedIn[call])), "
            + (callee == wait ? "\(suspension) \(line(wait))" : elsewhere)
    }

    /// How the job's task stopped: to wait, or only to change executors.
    private var suspension: String {
        changesExecutor ? "changes executor before" : "suspended at"
    }
}
