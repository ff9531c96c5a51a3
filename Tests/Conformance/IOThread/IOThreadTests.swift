import CShim
import Primitives
import Testing

/// A body that announces it runs and then sleeps at cancellation points until killed.
func sleepUntilKilled(announcing entered: Gate) -> IOThread.Body {
    { _ in
        entered.open()
        while true { Seam.sleep(for: .seconds(3600)) }
    }
}

@Suite("IOThread")
struct IOThreadTests {
    @Test("a started thread runs its body once, finishes, and tells its handlers")
    func bodyRunsAndFinishes() {
        let runs = SeamAtomic(0)
        let log = ExitLog()
        let thread = IOThread(joinable: true) { _ in runs.add(1) }
        #expect(thread.onExit(log.handler(0)) == .registered)
        #expect(thread.state == .unused)
        #expect(thread.exitKind == nil)
        #expect(thread.start() == .success)
        #expect(thread.join() == .joined(.finished))
        #expect(runs.load() == 1)
        #expect(log.all.map(\.kind) == [.finished])
        #expect(thread.state == [.started, .entered, .finished, .exited])
        #expect(thread.exitKind == .finished)
    }

    @Test("only the first start launches a thread")
    func startTwice() {
        let runs = SeamAtomic(0)
        let thread = IOThread(joinable: true) { _ in runs.add(1) }
        #expect(thread.start().isStarted)
        #expect(thread.start() == .alreadyStarted)
        #expect(thread.start().isStarted)
        #expect(thread.join() == .joined(.finished))
        #expect(thread.start() == .alreadyStarted)
        #expect(runs.load() == 1)
    }

    @Test("handlers run once each, in registration order, on the exiting thread, including one added by a handler")
    func handlersRunInOrder() {
        let log = ExitLog()
        let bodyThread = AtomicBox<UInt>(0)
        let nested = AtomicBox<OnExitRegistration?>(nil)
        let thread = IOThread(joinable: true) { _ in bodyThread.store(currentThreadNumber()) }
        thread.onExit(log.handler(0))
        thread.onExit { kind in
            log.handler(1)(kind)
            nested.store(thread.onExit(log.handler(3)))
        }
        thread.onExit(log.handler(2))
        thread.start()
        #expect(thread.join() == .joined(.finished))
        #expect(log.tags == [0, 1, 2, 3])
        #expect(log.all.allSatisfy { $0.onThread == bodyThread.load() && $0.kind == .finished })
        #expect(nested.load() == .registered)
    }

    @Test("killing a thread blocked in read() ends it as killed, its handlers told so", .killsInsideBlockingCalls)
    func killBlockedRead() {
        var descriptors: [Int32] = [-1, -1]
        #expect(pipe(&descriptors) == 0)
        defer {
            close(descriptors[0])
            close(descriptors[1])
        }
        let readDescriptor = descriptors[0]
        let reading = Gate()
        let readReturned = AtomicBox(false)
        let log = ExitLog()
        let thread = IOThread(name: "reader", joinable: true) { _ in
            reading.open()
            var byte: UInt8 = 0
            _ = read(readDescriptor, &byte, 1)
            readReturned.store(true)
        }
        thread.onExit(log.handler(0))
        thread.start()
        #expect(reading.wait())
        #expect(thread.kill())
        #expect(thread.join() == .joined(.killed))
        #expect(readReturned.load() == false)
        #expect(log.all.map(\.kind) == [.killed])
        #expect(thread.state == [.started, .entered, .cancelled, .exited])
    }

    @Test("a kill between start() and the body's entry keeps the body from running (seed defect 4)")
    func killBeforeEntry() {
        let holder = HoldingController(at: .threadStart)
        let ran = AtomicBox(false)
        let log = ExitLog()
        holder.run {
            let thread = IOThread(joinable: true) { _ in ran.store(true) }
            thread.onExit(log.handler(0))
            #expect(thread.start() == .success)
            #expect(holder.arrived.wait())
            #expect(thread.state == [.started])
            #expect(thread.kill())
            #expect(thread.kill() == false, "a second kill requests nothing")
            holder.release.open()
            #expect(thread.join() == .joined(.killed))
            #expect(thread.state == [.started, .cancelled, .exited])
        }
        #expect(ran.load() == false)
        #expect(log.all.map(\.kind) == [.killed])
    }

    @Test("a kill landing at the entry cancellation point keeps the body from running")
    func killAtEntryCancellationPoint() {
        let holder = HoldingController(at: .cancellationPoint)
        let ran = AtomicBox(false)
        holder.run {
            let thread = IOThread(joinable: true) { _ in ran.store(true) }
            thread.start()
            #expect(holder.arrived.wait())
            #expect(thread.state == [.started, .entered])
            #expect(thread.kill())
            holder.release.open()
            #expect(thread.join() == .joined(.killed))
        }
        #expect(ran.load() == false)
    }

    @Test("kill() requests nothing before start or once the body has returned")
    func killOutsideTheBody() {
        let thread = IOThread(joinable: true) { _ in }
        #expect(thread.kill() == false)
        #expect(thread.state == .unused)
        thread.start()
        #expect(thread.join() == .joined(.finished))
        #expect(thread.kill() == false)
        #expect(thread.state == [.started, .entered, .finished, .exited])
    }

    @Test(
        "a handler added after the thread exited runs at once, with the recorded kind (seed defect 5)",
        .killsInsideBlockingCalls,
        arguments: [ExitKind.finished, .killed]
    )
    func lateHandlerRunsAtOnce(kind: ExitKind) {
        let entered = Gate()
        let finishAtOnce: IOThread.Body = { _ in }
        let thread = IOThread(
            joinable: true, body: kind == .killed ? sleepUntilKilled(announcing: entered) : finishAtOnce)
        thread.start()
        if kind == .killed {
            #expect(entered.wait())
            #expect(thread.kill())
        }
        #expect(thread.join() == .joined(kind))
        let log = ExitLog()
        #expect(thread.onExit(log.handler(7)) == .ranImmediately(kind))
        #expect(log.all == [ExitLog.Entry(tag: 7, kind: kind, onThread: currentThreadNumber())])
    }

    @Test("join reaps a thread that finished before join was called (seed defect 7)")
    func joinAfterFinish() {
        let handled = Gate()
        let thread = IOThread(joinable: true) { _ in }
        thread.onExit { _ in handled.open() }
        thread.start()
        #expect(handled.wait())
        #expect(thread.join() == .joined(.finished))
        #expect(thread.join() == .alreadyJoined)
    }

    @Test("join reports instead of waiting when it cannot reap")
    func joinResults() {
        #expect(IOThread(joinable: true) { _ in }.join() == .notStarted)
        let detached = IOThread { _ in }
        #expect(detached.join() == .notJoinable)
        let exited = Gate()
        detached.onExit { _ in exited.open() }
        detached.start()
        #expect(exited.wait())
        #expect(detached.join() == .notJoinable)

        let itself = AtomicBox<IOThread?>(nil)
        let fromBody = AtomicBox<IOThreadJoinResult?>(nil)
        let fromHandler = AtomicBox<IOThreadJoinResult?>(nil)
        let thread = IOThread(joinable: true) { _ in fromBody.store(itself.load()?.join()) }
        itself.store(thread)
        thread.onExit { _ in fromHandler.store(thread.join()) }
        thread.start()
        #expect(thread.join() == .joined(.finished))
        itself.store(nil)
        #expect(fromBody.load() == .calledFromOwnThread)
        #expect(fromHandler.load() == .calledFromOwnThread)
    }

    @Test("a join while another thread is joining returns at once")
    func joinWhileBeingJoined() throws {
        let holder = HoldingController(at: .join)
        let finish = Gate()
        let firstResult = AtomicBox<IOThreadJoinResult?>(nil)
        try holder.run {
            let target = IOThread(joinable: true) { _ in finish.wait() }
            target.start()
            let joiner = try Seam.spawnThread { firstResult.store(target.join()) }.get()
            #expect(holder.arrived.wait())
            #expect(target.join() == .alreadyBeingJoined)
            holder.release.open()
            finish.open()
            try joiner.join()
        }
        #expect(firstResult.load() == .joined(.finished))
    }

    @Test("a thread killed while joining another leaves it joinable", .killsInsideBlockingCalls)
    func killedJoinerLeavesTargetJoinable() {
        let holder = HoldingController(at: .join)
        let finish = Gate()
        holder.run {
            let target = IOThread(joinable: true) { _ in finish.wait() }
            let joiner = IOThread(joinable: true) { _ in target.join() }
            target.start()
            joiner.start()
            #expect(holder.arrived.wait())
            #expect(target.join() == .alreadyBeingJoined)
            #expect(joiner.kill())
            holder.release.open()
            #expect(joiner.join() == .joined(.killed))
            finish.open()
            #expect(target.join() == .joined(.finished))
        }
    }

    @Test("the OS thread carries the name, truncated to the platform's limit")
    func threadName() {
        #if canImport(Darwin)
        let long = ("a-rather-long-thread-name", "a-rather-long-thread-name")
        #elseif canImport(Glibc)
        let long = ("a-rather-long-thread-name", "a-rather-long-t")
        #else
        #error("threadName: unsupported platform")
        #endif
        for (name, expected) in [("reader", "reader"), long] {
            let seen = AtomicBox("")
            let thread = IOThread(name: name, joinable: true) { _ in
                var buffer = [CChar](repeating: 0, count: 64)
                precondition(cshim_get_current_thread_name(&buffer, buffer.count) == 0)
                seen.store(String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self))
            }
            thread.start()
            #expect(thread.join() == .joined(.finished))
            #expect(seen.load() == expected)
        }
    }

    @Test("uncancellably holds a kill off until it returns, and restores the previous setting")
    func uncancellablyDefersKill() {
        let inside = Gate()
        let proceed = Gate()
        let cancelledBefore = AtomicBox<Bool?>(nil)
        let cancelledInside = AtomicBox<Bool?>(nil)
        let sectionDone = AtomicBox(false)
        let afterSection = AtomicBox(false)
        let thread = IOThread(joinable: true) { control in
            cancelledBefore.store(control.wasCancelled)
            control.uncancellably {
                inside.open()
                proceed.wait()
                control.uncancellably { control.checkCancellation() }
                control.checkCancellation()
                cancelledInside.store(control.wasCancelled)
                sectionDone.store(true)
            }
            control.checkCancellation()
            afterSection.store(true)
        }
        thread.start()
        #expect(inside.wait())
        #expect(thread.kill())
        proceed.open()
        #expect(thread.join() == .joined(.killed))
        #expect(cancelledBefore.load() == false)
        #expect(cancelledInside.load() == true)
        #expect(sectionDone.load())
        #expect(afterSection.load() == false)
    }

    @Test("uncancellably passes a thrown error on and still restores cancellation")
    func uncancellablyRethrows() {
        struct Refusal: Error, Equatable {}
        let entered = Gate()
        let caught = AtomicBox<Refusal?>(nil)
        let afterCatch = AtomicBox(false)
        let thread = IOThread(joinable: true) { control in
            do throws(Refusal) {
                try control.uncancellably { () throws(Refusal) in
                    entered.open()
                    while !control.wasCancelled { Seam.yield() }
                    throw Refusal()
                }
            } catch {
                caught.store(error)
            }
            control.checkCancellation()
            afterCatch.store(true)
        }
        thread.start()
        #expect(entered.wait())
        #expect(thread.kill())
        #expect(thread.join() == .joined(.killed))
        #expect(caught.load() == Refusal())
        #expect(afterCatch.load() == false)
    }

    @Test("a body that allocates is killed cleanly, at its cancellation points (deferred by default, seed defect 9)")
    func killWhileAllocating() {
        for _ in 0..<20 {
            let entered = Gate()
            let thread = IOThread(joinable: true) { control in
                entered.open()
                while true {
                    let words = (0..<64).map { "word \($0)" }
                    precondition(words.count == 64)
                    control.checkCancellation()
                }
            }
            #expect(thread.cancellationType == .deferred)
            thread.start()
            #expect(entered.wait())
            #expect(thread.kill())
            #expect(thread.join() == .joined(.killed))
        }
    }

    /// Swift copies a closure to call it; in unoptimized builds that copy lives in a frame
    /// the kill unwinds without releasing it. The `IOThread` itself is released in every
    /// build (see the stress test).
    @Test(
        "a killed thread releases what its body captured (optimized builds)",
        .enabled(if: BuildConfiguration.isOptimized, "unoptimized builds keep the copy Swift makes to call a closure")
    )
    func killedBodyReleasesCaptures() {
        let counter = LifetimeCounter()
        for _ in 0..<200 {
            let tracked = counter.make()
            let entered = Gate()
            let thread = IOThread(joinable: true) { _ in
                withExtendedLifetime(tracked) { entered.open() }
                while true { Seam.sleep(for: .seconds(3600)) }
            }
            thread.start()
            #expect(entered.wait())
            #expect(thread.kill())
            #expect(thread.join() == .joined(.killed))
        }
        #expect(counter.createdCount == 200)
        #expect(counter.liveCount == 0)
    }

    @Test("defaults: detached, inherited scheduling, deferred cancellation, platform stack")
    func defaults() {
        let thread = IOThread { _ in }
        #expect(thread.isJoinable == false)
        #expect(thread.schedulePolicy == .other)
        #expect(thread.cancellationType == .deferred)
        #expect(thread.stackSize == nil)
        #expect(thread.name == "IOThread")
        #expect(thread.age == nil)
    }

    @Test("age counts from start")
    func age() {
        let thread = IOThread(joinable: true) { _ in }
        #expect(thread.age == nil)
        thread.start()
        let first = thread.age
        #expect(thread.join() == .joined(.finished))
        #expect(first.map { $0 >= .zero } == true)
        #expect(thread.age.map { $0 >= first! } == true)
    }

    @Test("state and description name every flag and setting")
    func descriptions() {
        #expect(IOThreadState.unused.description == "unused")
        let all: IOThreadState = [.started, .entered, .finished, .cancelled, .exited]
        #expect(all.description == "started, entered, finished, cancelled, exited")
        #expect(IOThreadState([.started, .cancelled]).description == "started, cancelled")
        let thread = IOThread(
            name: "reader", stackSize: 65536, joinable: true, schedulePolicy: .roundRobin,
            cancellationType: .asynchronous
        ) { _ in }
        #expect(
            thread.description
                == "IOThread(\"reader\", [unused], policy: round-robin, cancellation: asynchronous, stack: 65536 "
                + "bytes, joinable)"
        )
        #expect(
            IOThread { _ in }.description
                == "IOThread(\"IOThread\", [unused], policy: other, cancellation: deferred, stack: default, detached)")
        #expect(ExitKind.killed.wasKilled && !ExitKind.finished.wasKilled)
        #expect(OnExitRegistration.ranImmediately(.killed).description == "ran immediately (killed)")
    }

    @Test(
        "spawn, start, locks, cancel, cancellation points, exit and join reach the controller; handlers run unlocked",
        .killsInsideBlockingCalls
    )
    func operationsGoThroughTheSeam() {
        let recorder = RecordingController()
        let entered = Gate()
        recorder.record {
            let thread = IOThread(joinable: true, body: sleepUntilKilled(announcing: entered))
            thread.onExit { _ in Seam.yield() }
            #expect(thread.start() == .success)
            #expect(entered.wait())
            #expect(thread.kill())
            #expect(thread.join() == .joined(.killed))
        }
        let expected: Set<RecordedOperation.Kind> = [
            .spawn, .start, .lock, .unlock, .now, .cancel, .cancellationPoint, .exit, .join
        ]
        #expect(expected.isSubset(of: recorder.kinds), "missing: \(expected.subtracting(recorder.kinds))")
        let spawned = recorder.operations.filter { $0.thread == SeamThreadID(rawValue: 1) }
        #expect(spawned.first?.kind == .start)
        #expect(spawned.last?.kind == .exit)
        #expect(spawned.contains { $0.kind == .cancellationPoint })
        let handler = spawned.firstIndex { $0.kind == .yield }
        #expect(handler != nil)
        let beforeHandler = spawned[..<(handler ?? 0)]
        #expect(
            beforeHandler.count { $0.kind == .lock } == beforeHandler.count { $0.kind == .unlock },
            "a handler ran holding a lock")
    }

    @Test("start results come from the platform's errno values; an unknown one is kept (seed defect 8)")
    func startResultMapping() {
        func result(_ code: Int32) -> IOThreadStartResult {
            IOThreadStartResult(creationError: SeamThreadError(operation: "pthread_create", code: code))
        }
        #expect(result(EAGAIN) == .insufficientResources)
        #expect(result(EPERM) == .lackingPermissions)
        #expect(
            result(EINVAL)
                == .invalidAttribute(.rejectedBySystem(SeamThreadError(operation: "pthread_create", code: EINVAL))))
        #expect(result(ENOMEM) == .failed(SeamThreadError(operation: "pthread_create", code: ENOMEM)))
        #expect(result(EAGAIN).isStarted == false)
        #expect(IOThreadStartResult.success.isStarted)
    }
}
