/// How a timed ``CriticalSection/execute(timeout:_:)`` ended: the closure ran and returned
/// a value, or the timeout passed first and the closure did not run.
///
/// An enum rather than an optional, so that a closure that returns `nil` is never taken
/// for a timeout.
public enum CriticalSectionOutcome<Value> {
    /// The closure ran inside the critical section and returned this.
    case completed(Value)
    /// The critical section could not be entered in time; the closure did not run.
    case timedOut

    /// Whether the timeout passed and the closure did not run.
    public var didTimeOut: Bool {
        if case .timedOut = self { return true }
        return false
    }
}

extension CriticalSectionOutcome: Sendable where Value: Sendable {}
extension CriticalSectionOutcome: Equatable where Value: Equatable {}
extension CriticalSectionOutcome: Hashable where Value: Hashable {}

extension CriticalSection {
    /// Runs `body` inside the critical section if it can be entered within `timeout` on
    /// ``Seam/now()``'s clock; otherwise returns ``CriticalSectionOutcome/timedOut``
    /// without running `body`.
    ///
    /// A thread already inside enters again at once, whatever the timeout. A timeout of
    /// zero or less enters only if no waiting is needed. The clock is read only when the
    /// caller has to wait; time spent running `body` does not count against the timeout.
    ///
    /// Rethrows what `body` throws, after leaving the critical section.
    @inlinable
    public func execute<Result, Failure: Error>(
        timeout: Duration,
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> CriticalSectionOutcome<Result> {
        guard enter(timeout: timeout) else { return .timedOut }
        defer { leave() }
        return .completed(try body())
    }
}
