/// A search's strategy, held by reference: the search lends the cell to each execution
/// (``ExecutionPlan/strategy``), whose choices change the strategy in place, and goes on with
/// the strategy as the execution left it. Lent by value, the strategy was shared by the search
/// and the execution, and the execution's first choice copied it: a strategy larger than three
/// words lives in a box, and its arrays were copied with it (seven allocations an execution
/// for PCT). Used by one thread at a time: the search's, and the execution's running thread
/// while the search waits for it.
final class StrategyCell {
    @exclusivity(unchecked) var value: any SchedulingStrategy

    init(_ value: any SchedulingStrategy) {
        self.value = value
    }
}
