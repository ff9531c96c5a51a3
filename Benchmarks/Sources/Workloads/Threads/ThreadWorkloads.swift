import CBenchmarkSupport
import Primitives

/// `AtomicBox` against a mutex-protected box, and `IOThread`'s whole life against a raw
/// thread's.
enum ThreadWorkloads {
    /// A value with a reference-counted part, so that loading it costs a retain.
    private static let text = "a shared value"

    static let comparisons = [
        Comparison(
            Workload("AtomicBox.load") { timedLoads(from: AtomicBox(text), operations: $0) },
            against: Workload("pthread_mutex-protected box, load") {
                timedLoads(from: LockedBox(text), operations: $0)
            },
            target: .none
        ),
        Comparison(
            Workload("AtomicBox.update") { timedUpdates(of: AtomicBox(0), operations: $0) },
            against: Workload("pthread_mutex-protected box, update") { timedUpdates(of: LockedBox(0), operations: $0) },
            target: .none
        ),
        Comparison(
            Workload("IOThread start, empty body, join") { operations in
                timed {
                    for _ in 0..<operations {
                        let thread = IOThread(joinable: true) { _ in }
                        precondition(thread.start() == .success, "IOThread.start failed in a benchmark")
                        precondition(thread.join() == .joined(.finished), "IOThread.join failed in a benchmark")
                    }
                }
            },
            against: Workload("pthread_create, empty body, pthread_join (C)") { operations in
                timed {
                    pthreadCheck(cbench_create_and_join_threads(UInt64(operations)), "pthread_create or pthread_join")
                }
            },
            target: .atMost(1.2)
        )
    ]

    /// Times `operations` loads of a string from `box`.
    @inline(__always)
    private static func timedLoads(from box: some BenchmarkBox<String>, operations: Int) -> Duration {
        var length = 0
        let elapsed = timed {
            for _ in 0..<operations { length &+= box.boxLoad().utf8.count }
        }
        consume(length)
        return elapsed
    }

    /// Times `operations` increments of the integer in `box`.
    @inline(__always)
    private static func timedUpdates(of box: some BenchmarkBox<Int>, operations: Int) -> Duration {
        let elapsed = timed {
            for _ in 0..<operations { box.boxUpdate { $0 &+= 1 } }
        }
        consume(box.boxLoad())
        return elapsed
    }
}

/// A box a value is loaded from and updated in place: `AtomicBox` or its baseline.
protocol BenchmarkBox<Value> {
    associatedtype Value
    func boxLoad() -> Value
    func boxUpdate(_ body: (inout Value) -> Void)
}

extension AtomicBox: BenchmarkBox {
    @inline(__always)
    func boxLoad() -> Value { load() }

    @inline(__always)
    func boxUpdate(_ body: (inout Value) -> Void) { update(body) }
}
