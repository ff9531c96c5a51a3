import Harness
import Primitives

/// Stress tests of read/write coordination.
public enum ReadWriteStressTests {
    /// Two fields a write moves together.
    final class Pair: @unchecked Sendable {
        var first = 0
        var second = 0
    }

    /// A writer moves two fields together twenty times while two readers each read both
    /// twenty times; the outcome is how many reads saw the fields apart.
    public static func consistentSnapshots<Coordinator: ReadWriteCoordinating>(
        _ coordinator: @escaping @Sendable () -> Coordinator
    ) -> StressTest<Int> {
        StressTest(outcomes: [
            .acceptable(0, meaning: "every read saw a whole write"),
            .forbidden(meaning: "reads saw half a write") { $0 > 0 }
        ]) { scenario in
            let coordinator = coordinator()
            let pair = Pair()
            let torn = SeamAtomic(0)
            scenario.spawn {
                for _ in 0..<20 {
                    coordinator.write {
                        pair.first += 1
                        pair.second += 1
                    }
                }
            }
            for _ in 0..<2 {
                scenario.spawn {
                    for _ in 0..<20 where coordinator.read({ pair.first != pair.second }) {
                        torn.add(1)
                    }
                }
            }
            scenario.joinAll()
            return torn.load()
        }
    }
}
