@testable import Harness
import Testing

@Suite("Harness: a strategy's table of threads, tasks and jobs")
struct EntityTableTests {
    @Test("a strategy's entity table keeps one value for each thread, task, job and the clock, and forgets them all")
    func entityTable() {
        var table = EntityTable<Int>()
        #expect(table[.thread(3)] == nil)
        table[.thread(3)] = 30
        table[.task(3)] = 31
        table[.job(0)] = 32
        table[.clock] = 33
        #expect([table[.thread(3)], table[.task(3)], table[.job(0)], table[.clock]] == [30, 31, 32, 33])
        #expect([table[.thread(0)], table[.thread(4)], table[.task(0)], table[.job(1)]] == [nil, nil, nil, nil])
        // A thread's value by its number alone is the same, with none beyond the table.
        #expect([table[thread: 3], table[thread: 0], table[thread: 4], table[thread: 1_000]] == [30, nil, nil, nil])
        table[.thread(3)] = nil
        table[.thread(9)] = nil
        #expect(table[.thread(3)] == nil && table[.thread(9)] == nil)
        table.removeAll()
        #expect([table[.task(3)], table[.job(0)], table[.clock]] == [nil, nil, nil])
    }
}
