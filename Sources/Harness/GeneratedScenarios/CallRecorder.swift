import Primitives

/// Records the history entries of one generated call, for operations that record themselves
/// (declared with `recording:`, see ``LinearizabilityTest``): an operation whose effects happen at separate moments, such as a limiter's `run`, which
/// is queued, then admitted, then leaves, records one entry for each.
///
/// Entries are recorded into the execution's history under ``client``, the number of the
/// thread (`T1` is 1) or task (`client 1`) that makes the call, and the report's table shows
/// them in the call's cell. Thread-safe.
public final class CallRecorder<Operation: Sendable, Result: Sendable>: Sendable {
    /// The client the entries are recorded for: the thread's number, or the task's.
    public let client: Int
    private let history: HistoryRecorder<Operation, Result>
    private let recorded = DirectlyLocked<[Int]>([])

    init(client: Int, history: HistoryRecorder<Operation, Result>) {
        self.client = client
        self.history = history
    }

    /// Records that the call invoked `operation` now, and returns the entry for
    /// ``respond(_:with:)``. An entry never responded to stays pending.
    public func invoke(_ operation: Operation) -> Int {
        let entry = history.invoke(operation, client: client)
        recorded.withLock { $0.append(entry) }
        return entry
    }

    /// Records that `entry` returned `result` now. Traps if it already returned.
    public func respond(_ entry: Int, with result: Result) {
        history.respond(entry, with: result)
    }

    /// Records `operation` around `body`: its invocation before, what `body` returns after.
    @discardableResult
    public func record(_ operation: Operation, _ body: () -> Result) -> Result {
        let entry = invoke(operation)
        let result = body()
        respond(entry, with: result)
        return result
    }

    /// Records `operation` around `body`, which may suspend.
    @discardableResult
    public func record(
        _ operation: Operation,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async -> Result
    ) async -> Result {
        let entry = invoke(operation)
        let result = await body()
        respond(entry, with: result)
        return result
    }

    /// The entries recorded so far, in the order they were invoked.
    var entries: [Int] {
        recorded.withLock { $0 }
    }
}
