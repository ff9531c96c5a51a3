/// What reports and warnings say of kept failures.
extension KeptFailures {
    /// What a report says of a failure kept in this file.
    var keptNote: String {
        "kept in \(file.path): replayed before exploring from now on"
    }

    /// What a report says of a failure that could not be kept in this file, because of `error`.
    func notKeptNote(_ error: any Error) -> String {
        "could not keep the failure in \(file.path): \(error)"
    }

    /// What a report says of kept schedule `index` (from 0) of `count` that failed again.
    func failedAgainNote(index: Int, of count: Int) -> String {
        "kept failure \(index + 1) of \(count) from \(file.path) fails again"
    }

    /// What a warning says of `count` kept schedules an older harness wrote.
    func outdatedNote(count: Int) -> String {
        "\(file.path) keeps \(count) failing schedule(s) of this scenario in a token format this harness does not read "
            + "(it reads H\(ReplayToken.formatVersion)); they are not replayed: find the failures again by exploring, "
            + "then delete those lines"
    }

    /// What a warning says of kept schedule `index` (from 0) of `count` whose failure did
    /// not happen again after the code left the schedule.
    func notReproducedNote(index: Int, of count: Int, _ notReproduced: FailureNotReproduced) -> String {
        "kept failure \(index + 1) of \(count) from \(file.path): \(notReproduced)"
    }
}
