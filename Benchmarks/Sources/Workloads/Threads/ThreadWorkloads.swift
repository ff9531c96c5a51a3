import CBenchmarkSupport
import Primitives

/// `AtomicBox` against a mutex-protected box, and `IOThread`'s whole life against a raw
/// thread's.
enum ThreadWorkloads {
    /// A value with a reference-counted part, so that loading it costs a retain.
    private static let text = "a shared value"

    static let comparisons = [
        Comparison(
            Workload("AtomicBox.load") { operations in
                let box = AtomicBox(text)
                var length = 0
                let elapsed = timed {
                    for _ in 0..<operations { length &+= box.load().utf8.count }
                }
                consume(length)
                return elapsed
            },
            against: Workload("pthread_mutex-protected box, load") { operations in
                let box = LockedBox(text)
                var length = 0
                let elapsed = timed {
                    for _ in 0..<operations { length &+= box.load().utf8.count }
                }
                consume(length)
                return elapsed
            },
            target: .none
        ),
        Comparison(
            Workload("AtomicBox.update") { operations in
                let box = AtomicBox(0)
                let elapsed = timed {
                    for _ in 0..<operations { box.update { $0 &+= 1 } }
                }
                consume(box.load())
                return elapsed
            },
            against: Workload("pthread_mutex-protected box, update") { operations in
                let box = LockedBox(0)
                let elapsed = timed {
                    for _ in 0..<operations { box.update { $0 &+= 1 } }
                }
                consume(box.load())
                return elapsed
            },
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
        ),
    ]
}
