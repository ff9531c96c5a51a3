import CShim
import Primitives
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Holds an `IOThread` weakly, to see that it was deinitialized.
private final class WeakThread {
    weak var thread: IOThread?

    init(_ thread: IOThread) { self.thread = thread }
}

/// The stress scenarios, run in exit tests: in a child process no other test spawns
/// threads. Each scenario still checks its own threads by their OS thread IDs, because the
/// runtime's idle threads come and go on their own.
enum IOThreadStress {
    /// `iterations` threads whose kill races the end of their body. Each body passes a
    /// varying number of cancellation points and then marks itself completed as its last
    /// action; the killer yields a varying number of times before `kill()`. Half the threads
    /// are joinable and joined, half detached and awaited through their handler.
    static func killRacesEndOfBody(iterations: Int) {
        let baseline = cshim_process_thread_count()
        let threadIDs = AtomicBox<[UInt64]>([])
        var handlerCalls: [SeamAtomic<Int>] = []
        var instances: [WeakThread] = []
        var outcomes: [ExitKind: Int] = [:]
        for iteration in 0..<iterations {
            let completed = SeamAtomic(false)
            let calls = SeamAtomic(0)
            let reported = AtomicBox<ExitKind?>(nil)
            let handled = Gate()
            let checkpoints = iteration % 4
            let thread = IOThread(joinable: iteration % 2 == 0) { control in
                for _ in 0..<checkpoints { control.checkCancellation() }
                completed.store(true)
            }
            thread.onExit { kind in
                threadIDs.update { $0.append(cshim_current_thread_id()) }
                reported.store(kind)
                calls.add(1)
                handled.open()
            }
            #expect(thread.start() == .success)
            for _ in 0..<(iteration % 7) { Seam.yield() }
            let killRequested = thread.kill()
            if thread.isJoinable {
                let joined = thread.join()
                #expect(joined == reported.load().map(IOThreadJoinResult.joined), "iteration \(iteration)")
            } else {
                #expect(handled.wait(), "iteration \(iteration)")
            }
            let kind = reported.load()
            #expect(kind == (completed.load() ? .finished : .killed), "iteration \(iteration)")
            #expect(killRequested || kind == .finished, "iteration \(iteration): killed without a kill")
            outcomes[kind ?? .finished, default: 0] += 1
            handlerCalls.append(calls)
            instances.append(WeakThread(thread))
        }
        #expect(handlerCalls.allSatisfy { $0.load() == 1 }, "a handler ran other than once")
        #expect(eventually { instances.allSatisfy { $0.thread == nil } }, "an IOThread was never deinitialized")
        #expect(threadIDs.load().count == iterations)
        expectEnded(threadIDs.load(), baseline: baseline)
        #expect(
            outcomes[.finished, default: 0] > 0 && outcomes[.killed, default: 0] > 0,
            "the race never went both ways: \(outcomes)")
    }

    /// Expects the OS threads `threadIDs` to end, and the process to have no more threads than
    /// `baseline` (the count may drop: the runtime's idle threads exit on their own).
    private static func expectEnded(_ threadIDs: [UInt64], baseline: Int) {
        #if os(Linux)
        let running = threadIDs.filter { id in !eventually { access("/proc/self/task/\(id)", F_OK) != 0 } }
        #expect(running.isEmpty, "\(running.count) OS threads never ended")
        #endif
        let count = cshim_process_thread_count()
        #expect(count <= baseline, "threads: \(count) now, \(baseline) before")
    }

    #if os(Linux)
    /// Joinable threads dropped without a join: each `IOThread` detaches its thread when it
    /// is deinitialized, so the system reaps it and reuses its stack. Unreaped, every thread
    /// would keep its stack and guard page mapped.
    static func droppedJoinableThreadsAreReaped(count: Int) {
        let baseline = cshim_process_thread_count()
        let threadIDs = AtomicBox<[UInt64]>([])
        let mappingsBefore = memoryMappingCount()
        for _ in 0..<count {
            let handled = Gate()
            var instance: WeakThread?
            do {
                let thread = IOThread(stackSize: 1 << 20, joinable: true) { _ in }
                thread.onExit { _ in
                    threadIDs.update { $0.append(cshim_current_thread_id()) }
                    handled.open()
                }
                #expect(thread.start() == .success)
                instance = WeakThread(thread)
            }
            #expect(handled.wait())
            #expect(eventually { instance?.thread == nil })
        }
        expectEnded(threadIDs.load(), baseline: baseline)
        let growth = memoryMappingCount() - mappingsBefore
        #expect(growth < count, "\(growth) more memory mappings after \(count) threads")
    }

    /// The number of the process's memory mappings (lines of `/proc/self/maps`).
    private static func memoryMappingCount() -> Int {
        let descriptor = open("/proc/self/maps", O_RDONLY)
        precondition(descriptor >= 0, "cannot open /proc/self/maps")
        defer { close(descriptor) }
        let capacity = 1 << 16
        var buffer = [UInt8](repeating: 0, count: capacity)
        var lines = 0
        while true {
            let count = read(descriptor, &buffer, capacity)
            precondition(count >= 0, "cannot read /proc/self/maps")
            if count == 0 { return lines }
            lines += buffer[..<count].count { $0 == UInt8(ascii: "\n") }
        }
    }
    #endif
}

/// Reads process-wide thread state, so its tests run one at a time (and the counting itself
/// in a child process).
@Suite("IOThread under stress", .serialized)
struct IOThreadStressTests {
    @Test("10,000 kills racing the end of the body: one handler call each, the right kind, nothing left behind")
    func killRacesEndOfBody() async {
        await #expect(processExitsWith: .success) {
            IOThreadStress.killRacesEndOfBody(iterations: 10_000)
        }
    }

    #if os(Linux)
    @Test("a joinable thread dropped without a join is still reaped")
    func droppedJoinableThreadsAreReaped() async {
        await #expect(processExitsWith: .success) {
            IOThreadStress.droppedJoinableThreadsAreReaped(count: 64)
        }
    }
    #endif

    @Test(
        "handlers registered from many threads as it runs and exits: none lost, each once, in order (seed defect 3)",
        arguments: [ExitKind.finished, .killed]
    )
    func concurrentRegistration(kind: ExitKind) throws {
        let registrars = 8
        let perRegistrar = 200
        let calls = (0..<registrars * perRegistrar).map { _ in SeamAtomic(0) }
        let order = AtomicBox([[Int]](repeating: [], count: registrars))
        let kinds = AtomicBox<Set<ExitKind>>([])
        let halfway = (0..<registrars).map { _ in Gate() }
        let thread = IOThread(joinable: true) { control in
            control.uncancellably {
                for registrar in halfway { registrar.wait() }
            }
            if kind == .killed {
                while true { control.checkCancellation() }
            }
        }
        #expect(thread.start() == .success)
        let workers = try (0..<registrars).map { registrar in
            try Seam.spawnThread {
                for index in 0..<perRegistrar {
                    if index == perRegistrar / 2 { halfway[registrar].open() }
                    thread.onExit { reported in
                        calls[registrar * perRegistrar + index].add(1)
                        order.update { $0[registrar].append(index) }
                        kinds.update { $0.insert(reported) }
                    }
                }
            }.get()
        }
        if kind == .killed {
            for registrar in halfway { #expect(registrar.wait()) }
            #expect(thread.kill())
        }
        for worker in workers { try worker.join() }
        #expect(thread.join() == .joined(kind))
        #expect(calls.allSatisfy { $0.load() == 1 }, "a handler ran other than once")
        #expect(order.load() == [[Int]](repeating: Array(0..<perRegistrar), count: registrars))
        #expect(kinds.load() == [kind])
        #expect(thread.onExit { _ in } == .ranImmediately(kind))
    }
}
