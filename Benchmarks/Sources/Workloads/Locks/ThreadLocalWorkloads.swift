import Foundation
import Primitives

/// Reading a per-thread value: `ThreadLocalValue` against raw POSIX thread-specific storage
/// and Foundation's thread dictionary.
enum ThreadLocalWorkloads {
    static let comparisons = [
        Comparison(
            Workload("ThreadLocalValue.value()") { operations in
                let local = ThreadLocalValue<Int>(namespace: "benchmarks", key: "value")
                local.set(42)
                var sum = 0
                let elapsed = timed {
                    for _ in 0..<operations { sum &+= local.value() ?? 0 }
                }
                consume(sum)
                return elapsed
            },
            against: rawStorage,
            target: .atMost(2)
        ),
        Comparison(
            Workload("Thread.current.threadDictionary") { operations in
                let key = "benchmarks.value"
                Thread.current.threadDictionary[key] = 42
                var sum = 0
                let elapsed = timed {
                    for _ in 0..<operations { sum &+= Thread.current.threadDictionary[key] as? Int ?? 0 }
                }
                consume(sum)
                return elapsed
            },
            against: rawStorage,
            target: .none
        )
    ]

    /// `pthread_getspecific` of a key holding a retained box, read as a user of the raw API
    /// would.
    static let rawStorage = Workload("pthread_getspecific") { operations in
        let key = RawThreadKey.shared.key
        if pthread_getspecific(key) == nil {
            pthreadCheck(pthread_setspecific(key, Unmanaged.passRetained(IntBox(42)).toOpaque()), "pthread_setspecific")
        }
        var sum = 0
        let elapsed = timed {
            for _ in 0..<operations {
                if let raw = pthread_getspecific(key) {
                    sum &+= Unmanaged<IntBox>.fromOpaque(raw).takeUnretainedValue().value
                }
            }
        }
        consume(sum)
        return elapsed
    }
}

/// One POSIX key for the whole process (keys are a scarce resource).
private struct RawThreadKey: @unchecked Sendable {
    static let shared = RawThreadKey()

    let key: pthread_key_t

    private init() {
        var key = pthread_key_t()
        pthreadCheck(pthread_key_create(&key, nil), "pthread_key_create")
        self.key = key
    }
}

private final class IntBox {
    let value: Int
    init(_ value: Int) { self.value = value }
}
