import CShim
import Primitives

/// The seam operations of an execution's threads: each is a scheduling point of the
/// calling thread (``Execution/point(_:_:)``), or an event of its life.
extension Execution {
    func lock(_ mutex: SeamMutex, at location: SeamLocation) {
        point(.lock(identity(of: mutex), recursive: mutex.kind == .recursive), location)
    }

    func tryLock(_ mutex: SeamMutex, at location: SeamLocation) -> Bool {
        point(.tryLock(identity(of: mutex), recursive: mutex.kind == .recursive), location) == .tryLock(tookMutex: true)
    }

    func unlock(_ mutex: SeamMutex, at location: SeamLocation) {
        point(.unlock(identity(of: mutex)), location)
    }

    func wait(
        on condition: SeamCondition,
        releasing mutex: SeamMutex,
        deadline: SeamInstant?,
        at location: SeamLocation
    ) -> SeamWaitResult {
        let reply = point(
            .wait(condition: identity(of: condition), mutex: identity(of: mutex), deadline: deadline?.nanoseconds),
            location
        )
        guard case .waitEnded(let result) = reply else {
            preconditionFailure("a condition wait ended without saying how: \(reply)")
        }
        pthread_testcancel()
        return result
    }

    func signal(_ condition: SeamCondition, at location: SeamLocation) {
        point(.signal(identity(of: condition)), location)
    }

    func broadcast(_ condition: SeamCondition, at location: SeamLocation) {
        point(.broadcast(identity(of: condition)), location)
    }

    func willAccessAtomic(_ cell: AnyObject, _ access: SeamAtomicAccess, at location: SeamLocation) {
        point(.atomic(identity(of: cell), access), location)
    }

    func willCall(_ call: SeamCall, on object: AnyObject, insides: [AnyObject], at location: SeamLocation) {
        withCancellationDisabled { _ in
            let name = model.name(identity(of: object), SharedObject.Kind(call.object))
            model.objectNames.name(insides: insides.map(identity(of:)), as: name)
            trace.beginCall(DropInCall(call, object: name), by: currentThread())
        }
    }

    func didEndCall(_ outcome: SeamCall.Outcome) {
        withCancellationDisabled { _ in trace.endCall(outcome, by: currentThread()) }
    }

    /// The identity that names `object` (a mutex, a condition, an atomic cell) for the rest of
    /// the execution, which keeps the object alive until it ends. An object freed meanwhile
    /// would leave its address to the next one allocated at it, which would then share its
    /// name, its owner and its timeline in the fingerprint; which object gets a freed address
    /// depends on the allocator's state in the process, so the same seed gave different
    /// interleaving counts in different processes. Called by the running thread.
    @inline(__always)
    private func identity(of object: AnyObject) -> ObjectIdentifier {
        let identity = ObjectIdentifier(object)
        seenObjects.insertIfAbsent(identity, object)
        return identity
    }

    func cancellationPoint(at location: SeamLocation) {
        point(.cancellationPoint, location)
    }

    func yield(at location: SeamLocation) {
        point(.yield, location)
    }

    func now() -> SeamInstant {
        SeamInstant(nanoseconds: model.clock)
    }

    func sleep(until deadline: SeamInstant, at location: SeamLocation) {
        point(.sleep(until: deadline.nanoseconds), location)
    }

    func willResumeContinuation(at location: SeamLocation) {
        point(.resume, location)
    }

    func enterNonPreemptibleRegion() {
        withCancellationDisabled { _ in model.enterNonPreemptibleRegion(currentThread()) }
    }

    func exitNonPreemptibleRegion() {
        withCancellationDisabled { _ in model.exitNonPreemptibleRegion(currentThread()) }
    }

    func wake(at deadline: SeamInstant, _ wake: @escaping @Sendable () -> Void) {
        services().addTimer(at: deadline, wake)
    }

    // MARK: Threads

    var hostForSpawnedThreads: (any SeamThreadHost)? { backend.coroutineHost }

    func spawnScenarioThread(
        file: StaticString, line: UInt, _ body: @escaping @Sendable () throws -> Void,
        onError: @escaping @Sendable (any Error) -> Void
    ) -> SeamThread {
        spawnedHarnessThread(
            Seam.spawnThread(on: scenarioThreadHost, file: file, line: line, body, onError: onError),
            "a scenario thread")
    }

    func threadWillSpawn(at location: SeamLocation) -> SeamThreadID {
        guard let created = point(.spawn, location).createdThread else {
            preconditionFailure("a spawn performed created no thread")
        }
        return SeamThreadID(rawValue: created)
    }

    func threadSpawnFailed(_ thread: SeamThreadID) {
        withCancellationDisabled { _ in model.threadFailedToStart(thread.rawValue) }
    }

    func threadDidStart(_ thread: SeamThreadID) {
        let me = thread.rawValue
        withCancellationDisabled(on: me) { _ in
            // Once per OS thread: the coroutines after the first share the host's.
            if me == 0 || !backend.runsAsCoroutine(me) {
                let error = cshim_set_thread_crash_report(crashReport)
                precondition(error == 0, "the harness could not give a thread its crash report: errno \(error)")
                cshim_allow_stack_capture()
                // Every thread, as a pooled one may have been pinned elsewhere before; one
                // already pinned there is not pinned again (no system call).
                if let cpu = limits.cpu {
                    _ = cshim_pin_current_thread_to_cpu(cpu)
                }
                watch.noteStarted(me)
            }
            backend.park(me)
            if aborting { exitForAbort(me) }
            _ = perform(me)
        }
    }

    func threadWillExit(_ thread: SeamThreadID) {
        let me = thread.rawValue
        withCancellationDisabled(on: me) { _ in
            if let joiner = model.exitRetiringLane(me) {
                backend.resume(joiner)
                return
            }
            guard let step = model.exit(me) else {
                handOffDuringAbort()
                return
            }
            record(step)
            switch decide(running: nil) {
            case .run(let next):
                backend.resume(next)
            case .allFinished:
                finish()
            case .failed:
                handOffDuringAbort()
            }
        }
    }

    func join(_ thread: SeamThreadID, at location: SeamLocation) {
        point(.join(thread.rawValue), location)
    }

    func willCancel(_ thread: SeamThreadID, at location: SeamLocation) {
        if backend.runsAsCoroutine(thread.rawValue) {
            runOnOSThreads(because: .cancelledCoroutine(thread: thread.rawValue))
        }
        point(.cancel(thread.rawValue), location)
    }

    func willUseThreadSpecificState(at location: SeamLocation) {
        guard let me = Seam.currentThread?.rawValue, backend.runsAsCoroutine(me) else { return }
        runOnOSThreads(because: .threadSpecificStorage(thread: me, location: location))
    }

    /// The running thread called `function`, which tells OS threads apart, from the code under
    /// test at `returnAddress` (``ThreadIdentityWatch``): on a coroutine, ends the execution
    /// to be run again on OS threads.
    func usedThreadIdentity(_ function: ThreadIdentityFunction, returnAddress: UInt) {
        guard let me = Seam.currentThread?.rawValue, backend.runsAsCoroutine(me) else { return }
        let place = ResumePointSymbols.place(returnAddress: returnAddress)
        runOnOSThreads(because: .threadIdentity(thread: me, function: function, place: place))
    }

    /// Ends the execution, to be run again with every thread on an OS thread of its own.
    private func runOnOSThreads(because reason: Nondeterminism) -> Never {
        withCancellationDisabled { _ in needsOSThreads = needsOSThreads ?? reason }
        fail(.nondeterminism(reason))
    }

    // MARK: Failing from a thread

    /// Records `failure` on behalf of the running thread and ends the thread; the other
    /// threads are wound down one at a time.
    func fail(_ failure: ExecutionFailure) -> Never {
        let me = currentThread()
        var previous: Int32 = 0
        pthread_setcancelstate(Int32(PTHREAD_CANCEL_DISABLE), &previous)
        model.windDown(after: failure)
        exitForAbort(me)
    }

    /// Fails the execution without ending the calling thread, which may be inside the
    /// concurrency runtime: the failure takes effect at the next decision. Call from the
    /// running thread.
    func failAtNextDecision(_ failure: ExecutionFailure) {
        withCancellationDisabled { _ in model.noteFailure(failure) }
    }

    // MARK: Threads the harness spawns

    /// The thread the harness spawned itself (`what`: a scenario thread, an executor lane),
    /// recorded as one that must be joined: by its owner, or by ``run(_:)`` once a failed
    /// execution has wound down, because then the code that would have joined it was unwound.
    /// The harness cannot go on without it: a spawn that failed stops the process.
    func spawnedHarnessThread(_ spawned: consuming Result<SeamThread, SeamThreadError>, _ what: StaticString)
        -> SeamThread
    {
        switch spawned {
        case .success(let thread):
            withCancellationDisabled(on: currentThread()) { _ in unjoinedThreads.add(thread) }
            return thread
        case .failure(let error):
            preconditionFailure("the harness could not start \(what): \(error)")
        }
    }

    /// Records that the owner of a thread passed to ``spawnedHarnessThread(_:_:)`` joined it.
    func joinedHarnessThread(_ thread: SeamThread) {
        withCancellationDisabled(on: currentThread()) { _ in unjoinedThreads.remove(thread) }
    }
}
