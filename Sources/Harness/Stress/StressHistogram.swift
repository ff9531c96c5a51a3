/// How often each outcome was seen in a stress run, and in which iteration first.
struct StressHistogram<Outcome: Hashable & Sendable>: Sendable {
    struct Tally: Sendable {
        var count: Int
        var firstIteration: Int
    }

    private(set) var tallies: [StressOutcome<Outcome>: Tally] = [:]

    /// Iterations counted.
    var total: Int { tallies.values.reduce(0) { $0 + $1.count } }

    /// Counts `outcome`, seen in iteration `iteration`.
    mutating func count(_ outcome: StressOutcome<Outcome>, iteration: Int) {
        tallies[outcome, default: Tally(count: 0, firstIteration: iteration)].count += 1
        tallies[outcome]!.firstIteration = min(tallies[outcome]!.firstIteration, iteration)
    }

    /// Adds every count of `other`.
    mutating func merge(_ other: StressHistogram) {
        for (outcome, tally) in other.tallies {
            if let mine = tallies[outcome] {
                tallies[outcome] = Tally(
                    count: mine.count + tally.count, firstIteration: min(mine.firstIteration, tally.firstIteration))
            } else {
                tallies[outcome] = tally
            }
        }
    }
}

/// One row of a stress report's histogram.
public struct StressHistogramRow<Outcome: Hashable & Sendable>: Sendable {
    /// The outcome.
    public let outcome: StressOutcome<Outcome>
    /// How many iterations ended in it.
    public let count: Int
    /// Its class.
    public let verdict: OutcomeClass
    /// What it means, from the test's outcome table.
    public let meaning: String
    /// The first iteration that ended in it.
    public let firstIteration: Int
}
