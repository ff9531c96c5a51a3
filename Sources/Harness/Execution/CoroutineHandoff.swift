import CShim
import Primitives
import Synchronization

/// Runs an execution's scenario threads as coroutines on one OS thread, the host, and hands
/// control between them and the execution's OS threads (threads that may really be
/// cancelled, the task executor's lanes where a switch cannot carry a task): a switch from
/// coroutine to coroutine is a swap of registers on the host, with no system call; a switch
/// to or from an OS thread wakes the other side's futex: the OS threads, and the
/// execution's end, are a ``FutexHandoff``'s.
///
/// The coroutine to run next is handed over in one atomic word: whoever resumes a
/// coroutine stores it there, and the host (in the coroutine that parks next, or in its own
/// loop while no coroutine runs) switches to it. Everything else is touched only by the
/// running coroutine, on the host, or by an OS thread while the host is parked, which the
/// futex orders.
final class CoroutineHandoff: HandoffBackend, SeamThreadHost, @unchecked Sendable {
    private static let nobody = -1

    /// Parks and wakes the OS threads, and whoever waits for the execution's end.
    private let osThreads: FutexHandoff
    private let threadCount: Int
    private let spinsBeforeSleeping: UInt32
    /// Where the host waits while an OS thread runs.
    private let hostParker: UnsafeMutablePointer<cshim_parker>
    /// One context per coroutine, then the host's own.
    private let contexts: UnsafeMutablePointer<cshim_coroutine>
    /// What the handoff knows of each thread, in one allocation (an execution makes its
    /// handoff anew, so each array here would be one more allocation per schedule).
    private let slots: UnsafeMutablePointer<CoroutineSlot>
    private let stacks: CoroutineStacks
    private let pool: SeamThreadPool
    private let next = Atomic<Int>(CoroutineHandoff.nobody)
    private let finished = Atomic<Bool>(false)
    @exclusivity(unchecked) private var host: pthread_t?
    /// How many slots, from the first, threads started as coroutines may have used since the
    /// last ``reset()``: threads are numbered in the order they start.
    @exclusivity(unchecked) private var usedSlots = 0

    /// Room for as many threads as `osThreads` has, which parks the threads that are not
    /// coroutines; coroutine stacks come from `stacks`, the host thread from `pool`.
    init(osThreads: FutexHandoff, stacks: CoroutineStacks, pool: SeamThreadPool) {
        self.osThreads = osThreads
        threadCount = osThreads.threadCount
        spinsBeforeSleeping = osThreads.spinsBeforeSleeping
        self.stacks = stacks
        self.pool = pool
        hostParker = .allocate(capacity: 1)
        hostParker.initialize(to: cshim_parker())
        contexts = .allocate(capacity: threadCount + 1)
        contexts.initialize(repeating: cshim_coroutine(), count: threadCount + 1)
        slots = .allocate(capacity: threadCount)
        let unmanaged = Unmanaged.passUnretained(self)
        for thread in 0..<threadCount {
            (slots + thread).initialize(to: CoroutineSlot(entry: CoroutineEntry(handoff: unmanaged, thread: thread)))
        }
    }

    deinit {
        giveBackStacks()
        hostParker.deallocate()
        contexts.deallocate()
        slots.deinitialize(count: threadCount)
        slots.deallocate()
    }

    private var hostContext: UnsafeMutablePointer<cshim_coroutine> { contexts + threadCount }

    // MARK: SeamThreadHost

    var runsCoroutines: Bool { true }

    /// Prepares thread `thread` as a coroutine that runs `body(argument)`, then
    /// `cleanup(argument)`, once it is first resumed; starts the host on first use.
    func run(
        _ body: @convention(c) (UnsafeMutableRawPointer?) -> Void,
        cleanup: @convention(c) (UnsafeMutableRawPointer?) -> Void,
        argument: UnsafeMutableRawPointer,
        as thread: SeamThreadID?
    ) -> Result<pthread_t, SeamThreadError> {
        guard let index = thread?.rawValue, index < threadCount else {
            preconditionFailure("a coroutine was asked for a thread the execution does not control")
        }
        if host == nil {
            switch pool.run(hostMain, cleanup: hostEnded, argument: Unmanaged.passRetained(self).toOpaque()) {
            case .success(let handle): host = handle
            case .failure(let error): return .failure(error)
            }
        }
        guard let stack = slots[index].spareStack ?? stacks.take() else {
            return .failure(SeamThreadError(operation: "mmap", code: ENOMEM))
        }
        precondition(slots[index].stack == nil, "T\(index) started twice as a coroutine")
        slots[index].stack = stack
        slots[index].spareStack = nil
        usedSlots = max(usedSlots, index + 1)
        slots[index].body = CoroutineBody(body: body, cleanup: cleanup, argument: argument)
        slots[index].isCoroutine = true
        cshim_coroutine_prepare(contexts + index, stack, stacks.size, coroutineMain, slots + index)
        return .success(host!)
    }

    // MARK: HandoffBackend

    var coroutineHost: (any SeamThreadHost)? { self }

    func runsAsCoroutine(_ thread: Int) -> Bool {
        slots[thread].isCoroutine
    }

    func park(_ thread: Int) {
        guard slots[thread].isCoroutine else { return osThreads.park(thread) }
        while !slots[thread].resumed {
            switchToNext(from: thread)
        }
        slots[thread].resumed = false
    }

    func resume(_ thread: Int) {
        guard slots[thread].isCoroutine else { return osThreads.resume(thread) }
        next.store(thread, ordering: .releasing)
        if let host, pthread_equal(host, cshim_thread_self()) == 0 {
            cshim_unpark(hostParker)
        }
    }

    func awaitFinish(timeout: Duration) -> Bool {
        osThreads.awaitFinish(timeout: timeout)
    }

    func finish() {
        finished.store(true, ordering: .releasing)
        cshim_unpark(hostParker)
        osThreads.finish()
    }

    /// Makes the handoff as new, for the next execution on the same runner: call once the
    /// last one ended there (``hostUntilFinished()`` returned, having given the coroutines'
    /// stacks back), never after an execution hosted by a thread of the pool, which gives
    /// them back after it has ended.
    func reset() {
        precondition(
            UnsafeBufferPointer(start: slots, count: usedSlots).allSatisfy { $0.stack == nil },
            "a coroutine handoff was reused while its coroutines' stacks were in use")
        host = nil
        next.store(Self.nobody, ordering: .relaxed)
        finished.store(false, ordering: .relaxed)
        hostParker.update(repeating: cshim_parker(), count: 1)
        for thread in 0..<usedSlots {
            slots[thread].body = nil
            slots[thread].isCoroutine = false
            slots[thread].resumed = false
        }
        usedSlots = 0
        osThreads.reset()
    }

    func hostOnCallingThread() {
        host = cshim_thread_self()
    }

    /// Each coroutine's stack stays with its thread's slot for the handoff's next execution
    /// (a runner reuses its handoff): taking and giving back stacks locked the shared pool
    /// twice a thread.
    func hostUntilFinished() {
        ThreadIdentityWatch.watching { runHost() }
        for thread in 0..<usedSlots where slots[thread].stack != nil {
            slots[thread].spareStack = slots[thread].stack
            slots[thread].stack = nil
        }
    }

    /// Ends `thread`: an OS thread exits; a coroutine's cleanup runs (as a cancelled OS
    /// thread runs its cleanup handlers), and the host goes on with whatever runs next. What
    /// the coroutine's frames hold is left, as `pthread_exit` leaves Swift frames.
    func exit(_ thread: Int) -> Never {
        guard slots[thread].isCoroutine else { osThreads.exit(thread) }
        guard let body = slots[thread].body else {
            preconditionFailure("T\(thread) ends as a coroutine it never was")
        }
        body.cleanup(body.argument)
        retire(thread)
    }

    // MARK: The host

    /// Runs a coroutine's body and cleanup, then gives up the host for good.
    fileprivate func runCoroutine(_ thread: Int) -> Never {
        guard let body = slots[thread].body else {
            preconditionFailure("T\(thread) started as a coroutine it never was")
        }
        body.body(body.argument)
        body.cleanup(body.argument)
        retire(thread)
    }

    /// The host's own loop: runs the coroutines handed to it until the execution ends. The
    /// seam is active meanwhile, for every coroutine at once (``SeamThreadHost/runsCoroutines``).
    fileprivate func runHost() {
        cshim_seam_activate()
        defer { cshim_seam_deactivate() }
        while !finished.load(ordering: .acquiring) {
            let thread = next.exchange(Self.nobody, ordering: .acquiringAndReleasing)
            if thread == Self.nobody {
                cshim_park(hostParker, spinsBeforeSleeping)
            } else {
                slots[thread].resumed = true
                cshim_coroutine_switch(hostContext, contexts + thread)
            }
        }
    }

    /// Passes the host to the next coroutine, or waits while an OS thread runs; returns once
    /// something switched back to `thread` (or handed it over before it got here).
    private func switchToNext(from thread: Int) {
        let target = next.exchange(Self.nobody, ordering: .acquiringAndReleasing)
        if target == Self.nobody {
            cshim_park(hostParker, spinsBeforeSleeping)
            return
        }
        slots[target].resumed = true
        if target != thread {
            cshim_coroutine_switch(contexts + thread, contexts + target)
        }
    }

    /// Returns the coroutines' stacks for the next execution, once none runs any more: the
    /// frames a coroutine left there (as a thread that ends inside a function leaves them) may
    /// hold the last references to this handoff, which then outlives its execution.
    fileprivate func giveBackStacks() {
        let slots = UnsafeMutableBufferPointer(start: slots, count: threadCount)
        stacks.giveBack(slots.lazy.flatMap { [$0.stack, $0.spareStack] }.compactMap { $0 })
        for thread in slots.indices {
            slots[thread].stack = nil
            slots[thread].spareStack = nil
        }
    }

    /// Leaves a coroutine that has ended: the host runs the next one, or returns to its own
    /// loop once the execution is over.
    private func retire(_ thread: Int) -> Never {
        while true {
            let target = next.exchange(Self.nobody, ordering: .acquiringAndReleasing)
            if target != Self.nobody {
                slots[target].resumed = true
                cshim_coroutine_switch(contexts + thread, contexts + target)
            } else if finished.load(ordering: .acquiring) {
                cshim_coroutine_switch(contexts + thread, hostContext)
            } else {
                cshim_park(hostParker, spinsBeforeSleeping)
                continue
            }
            preconditionFailure("T\(thread) was resumed after it ended")
        }
    }
}

/// What a coroutine runs, as the seam hands a thread's body to its host.
private struct CoroutineBody {
    let body: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let cleanup: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let argument: UnsafeMutableRawPointer
}

/// A coroutine's entry argument.
private struct CoroutineEntry {
    let handoff: Unmanaged<CoroutineHandoff>
    let thread: Int
}

/// What a ``CoroutineHandoff`` knows of one thread; its address is the thread's coroutine's
/// entry argument.
private struct CoroutineSlot {
    let entry: CoroutineEntry
    /// What the thread runs, once it was started as a coroutine.
    var body: CoroutineBody?
    /// Whether the thread runs as a coroutine, not on an OS thread of its own.
    var isCoroutine = false
    /// Whether the coroutine was switched to and has not yet returned from ``park(_:)``.
    var resumed = false
    /// The stack the coroutine runs on, until it is given back.
    var stack: UnsafeMutableRawPointer?
    /// The stack this thread's coroutine ran on in the handoff's last execution, kept for
    /// the next one when the handoff is reused (``CoroutineHandoff/hostUntilFinished()``).
    var spareStack: UnsafeMutableRawPointer?
}

/// A coroutine's first frame. Holds no reference: the coroutine's frames are abandoned when it
/// ends.
private func coroutineMain(_ argument: UnsafeMutableRawPointer?) {
    let entry = argument!.assumingMemoryBound(to: CoroutineSlot.self).pointee.entry
    entry.handoff._withUnsafeGuaranteedRef { $0.runCoroutine(entry.thread) }
}

/// The host's pooled-thread body.
private func hostMain(_ argument: UnsafeMutableRawPointer?) {
    ThreadIdentityWatch.watching {
        Unmanaged<CoroutineHandoff>.fromOpaque(argument!)._withUnsafeGuaranteedRef { $0.runHost() }
    }
}

/// Gives the coroutines' stacks back and releases the host's reference to its handoff once
/// the host has returned to the pool.
private func hostEnded(_ argument: UnsafeMutableRawPointer?) {
    let handoff = Unmanaged<CoroutineHandoff>.fromOpaque(argument!)
    handoff._withUnsafeGuaranteedRef { $0.giveBackStacks() }
    handoff.release()
}

/// Coroutine stacks, reused from one execution to the next; unmapped when the owner goes.
final class CoroutineStacks: @unchecked Sendable {
    /// Every stack's size: as large as the default OS thread stack, of which only the pages
    /// a coroutine touches take memory.
    let size = 8 << 20
    private let mutex = SeamMutex()
    private var free: [UnsafeMutableRawPointer] = []

    deinit {
        for stack in free { cshim_coroutine_stack_destroy(stack, size) }
    }

    /// A stack, mapped anew when none is free; `nil` when mapping fails.
    func take() -> UnsafeMutableRawPointer? {
        if let stack = mutex.withLockDirectly({ free.popLast() }) { return stack }
        return cshim_coroutine_stack_create(size)
    }

    /// Returns stacks no coroutine runs on any more.
    func giveBack(_ stacks: some Sequence<UnsafeMutableRawPointer>) {
        mutex.withLockDirectly { free.append(contentsOf: stacks) }
    }
}
