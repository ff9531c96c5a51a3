extension History {
    /// Whether `order` is a linearization of this history for `model`: each completed call
    /// exactly once and each pending call at most once, no call after one it precedes, and
    /// `model`, applying the calls in that order, answers every completed call with its
    /// recorded result.
    package func isLinearization<Model: SequentialModel>(_ order: [Int], model: Model) -> Bool
    where Model.Operation == Operation, Model.Result == Result {
        isLinearization(order, model: model, timeline: Timeline(self))
    }

    /// ``isLinearization(_:model:)`` with the history's `timeline` already built.
    func isLinearization<Model: SequentialModel>(_ order: [Int], model: Model, timeline: Timeline) -> Bool
    where Model.Operation == Operation, Model.Result == Result {
        var seen = [Bool](repeating: false, count: entries.count)
        for entry in order {
            guard entries.indices.contains(entry), !seen[entry] else { return false }
            seen[entry] = true
        }
        for (index, entry) in entries.enumerated() where !entry.isPending && !seen[index] {
            return false
        }
        guard timeline.isRealTimeConsistent(order) else { return false }
        var state = model
        for index in order {
            let answer = state.apply(entries[index].operation)
            if let result = entries[index].result, answer != result { return false }
        }
        return true
    }
}
