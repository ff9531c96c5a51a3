extension History {
    /// Whether `order` lists every completed call exactly once and no call twice.
    func coversCompletedCallsOnce(_ order: [Int]) -> Bool {
        var seen = [Bool](repeating: false, count: entries.count)
        for entry in order {
            guard !seen[entry] else { return false }
            seen[entry] = true
        }
        return entries.indices.allSatisfy { seen[$0] || entries[$0].isPending }
    }

    /// Whether `order` is a linearization of this history for `model`: each completed call
    /// exactly once and each pending call at most once, no call after one it precedes, and
    /// `model`, applying the calls in that order, answers every completed call with its
    /// recorded result.
    package func isLinearization<Model: SequentialModel>(_ order: [Int], model: Model) -> Bool
    where Model.Operation == Operation, Model.Result == Result {
        var seen = [Bool](repeating: false, count: entries.count)
        for entry in order {
            guard entries.indices.contains(entry), !seen[entry] else { return false }
            seen[entry] = true
        }
        for (index, entry) in entries.enumerated() where !entry.isPending && !seen[index] {
            return false
        }
        guard Timeline(self).isRealTimeConsistent(order) else { return false }
        var state = model
        for index in order {
            let answer = state.apply(entries[index].operation)
            if let result = entries[index].result, answer != result { return false }
        }
        return true
    }
}
