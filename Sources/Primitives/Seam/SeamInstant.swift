import CShim

/// A point on the seam's monotonic clock: nanoseconds since an arbitrary origin (boot, in
/// production; the start of the execution, under a harness with virtual time).
public struct SeamInstant: InstantProtocol, Sendable, CustomStringConvertible {
    /// Nanoseconds since the clock's origin.
    public var nanoseconds: UInt64

    /// The instant `nanoseconds` after the clock's origin.
    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    /// The current instant of the real monotonic clock, bypassing any controller.
    @inlinable
    public static var realNow: SeamInstant { SeamInstant(nanoseconds: cshim_monotonic_now_ns()) }

    public func advanced(by duration: Duration) -> SeamInstant {
        let delta = duration.nanosecondsClamped
        if delta >= 0 {
            let (sum, overflow) = nanoseconds.addingReportingOverflow(UInt64(delta))
            return SeamInstant(nanoseconds: overflow ? .max : sum)
        }
        let magnitude = delta.magnitude
        return SeamInstant(nanoseconds: nanoseconds > magnitude ? nanoseconds - magnitude : 0)
    }

    public func duration(to other: SeamInstant) -> Duration {
        if other.nanoseconds >= nanoseconds {
            return .nanoseconds(Int64(clamping: other.nanoseconds - nanoseconds))
        }
        return .nanoseconds(-Int64(clamping: nanoseconds - other.nanoseconds))
    }

    public static func < (lhs: SeamInstant, rhs: SeamInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    public var description: String {
        let milliseconds = Double(nanoseconds) / 1_000_000
        return "\(milliseconds) ms"
    }
}

extension Duration {
    /// This duration in whole nanoseconds, clamped to the range of `Int64`.
    @usableFromInline
    var nanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (total, overflowAgain) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflowAgain { return seconds < 0 ? .min : .max }
        return total
    }
}
