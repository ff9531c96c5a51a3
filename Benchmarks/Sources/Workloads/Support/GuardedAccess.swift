import Foundation
import Primitives

/// Something that runs a closure under its protection: a lock, a read section, a queue. The
/// shape shared by every lock-like workload, so each is measured by the same loop.
protocol GuardedAccess {
    func access<Result>(_ body: () -> Result) -> Result
}

/// Times `operations` accesses through `guarded`, each returning 1 to a running sum.
///
/// Inlined and specialized for each concrete type, so the loop holds no dynamic dispatch.
@inline(__always)
func timedAccesses(through guarded: some GuardedAccess, operations: Int) -> Duration {
    var sum = 0
    let elapsed = timed {
        for _ in 0..<operations { sum &+= guarded.access { 1 } }
    }
    consume(sum)
    return elapsed
}

extension SeamMutex: GuardedAccess {
    @inline(__always)
    func access<Result>(_ body: () -> Result) -> Result { withLock(body) }
}

extension CriticalSection: GuardedAccess {
    @inline(__always)
    func access<Result>(_ body: () -> Result) -> Result { execute(body) }
}

extension ReadWriteCoordinator: GuardedAccess {
    /// A read.
    @inline(__always)
    func access<Result>(_ body: () -> Result) -> Result { read(body) }
}

extension PthreadMutex: GuardedAccess {
    @inline(__always)
    func access<Result>(_ body: () -> Result) -> Result { withLock(body) }
}

extension PthreadReadWriteLock: GuardedAccess {
    /// A read.
    @inline(__always)
    func access<Result>(_ body: () -> Result) -> Result { withReadLock(body) }
}

extension NSRecursiveLock: GuardedAccess {
    @inline(__always)
    func access<Result>(_ body: () -> Result) -> Result {
        lock()
        defer { unlock() }
        return body()
    }
}

extension DispatchQueue: GuardedAccess {
    /// A `sync` (concurrent with other `sync`s on a concurrent queue).
    @inline(__always)
    func access<Result>(_ body: () -> Result) -> Result { sync(execute: body) }
}

extension HarnessDispatchQueue: GuardedAccess {
    /// A `sync`.
    @inline(__always)
    func access<Result>(_ body: () -> Result) -> Result { sync(execute: body) }
}
