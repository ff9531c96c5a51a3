/// Runs several strategies in turn: execution `i` belongs to member `i mod n`, which sees
/// its own executions numbered 0, 1, 2, … and keeps its state (PCT's step estimate, SURW's
/// counts, the exhaustive search's position) across them. A member that has nothing left
/// to explore gives its turns to the next one; the portfolio is exhausted when every member
/// is.
struct Portfolio: SchedulingStrategy {
    private var members: [any SchedulingStrategy]
    private var finished: [Bool]
    private var executions: [Int]
    private var current = 0

    init(_ members: [any SchedulingStrategy]) {
        precondition(!members.isEmpty, "a portfolio needs at least one strategy")
        self.members = members
        finished = Array(repeating: false, count: members.count)
        executions = Array(repeating: 0, count: members.count)
    }

    mutating func beginExecution(_ index: Int) -> Bool {
        for offset in 0..<members.count {
            let member = (index + offset) % members.count
            guard !finished[member] else { continue }
            if members[member].beginExecution(executions[member]) {
                current = member
                executions[member] += 1
                return true
            }
            finished[member] = true
        }
        return false
    }

    mutating func threadCreated(_ thread: Int, by parent: Int?) {
        members[current].threadCreated(thread, by: parent)
    }

    mutating func choose(among candidates: Candidates, running: Int?) -> Int {
        members[current].choose(among: candidates, running: running)
    }

    mutating func noteInterleaving(_ fingerprint: UInt64) {
        members[current].noteInterleaving(fingerprint)
    }

    mutating func endExecution(steps: Int) {
        members[current].endExecution(steps: steps)
    }
}
