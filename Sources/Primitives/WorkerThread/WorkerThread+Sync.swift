extension WorkerThread {
    /// Runs `body` on the worker's thread after the work accepted before it, waits for it,
    /// and returns its result or rethrows its error.
    ///
    /// Called from the worker's own thread (from submitted work), `sync` runs `body` inline,
    /// at once, instead of queueing it behind the current item, which would deadlock.
    ///
    /// - Throws: ``WorkerThreadError/notStarted`` before ``start()``, and
    ///   ``WorkerThreadError/stopped`` once ``stop()`` was called (`body` then does not
    ///   run); otherwise whatever `body` throws.
    @available(*, noasync, message: "sync blocks the calling thread until the worker has run the body")
    public func sync<Result>(_ body: @Sendable () throws -> sending Result) throws -> sending Result {
        if isCurrent {
            try storage.withState { state throws(WorkerThreadError) in try state.checkAcceptsWork() }
            return try body()
        }
        return try withoutActuallyEscaping(body) { body throws -> sending Result in
            let call = SyncCall(body)
            try storage.submit { [storage] in storage.complete(call) }
            return try storage.awaitOutcome(of: call).get()
        }
    }
}

extension WorkerThread {
    /// One ``WorkerThread/sync(_:)`` call: the body to run on the worker and, once it ran,
    /// its outcome. `outcome` is guarded by the worker's mutex.
    final class SyncCall<Result>: @unchecked Sendable {
        typealias Body = @Sendable () throws -> sending Result

        /// Taken (and released) by the worker before it publishes the outcome: the caller's
        /// `withoutActuallyEscaping` requires that nothing holds the body once it returns.
        private var body: Body?
        /// Guarded by the worker's mutex.
        var outcome: Swift.Result<Result, any Error>?
        /// Signalled once `outcome` is set.
        let completed = SeamCondition()

        init(_ body: @escaping Body) {
            self.body = body
        }

        /// Runs the body on the worker's thread; it is released when this returns.
        func run() -> Swift.Result<Result, any Error> {
            guard let body = body.take() else { preconditionFailure("a WorkerThread.sync body ran twice") }
            do {
                return .success(try body())
            } catch {
                return .failure(error)
            }
        }
    }
}

extension WorkerThread.Storage {
    /// On the worker's thread: runs `call`'s body outside the lock, then publishes its
    /// outcome and wakes the caller.
    func complete<Result>(_ call: WorkerThread.SyncCall<Result>) {
        let outcome = call.run()
        mutex.withLock { call.outcome = outcome }
        call.completed.signal()
    }

    /// On the calling thread: sleeps until `call` has run; spurious wake-ups go back to sleep.
    func awaitOutcome<Result>(of call: WorkerThread.SyncCall<Result>) -> Swift.Result<Result, any Error> {
        mutex.withLock {
            call.completed.wait(on: mutex, until: { call.outcome != nil })
            return call.outcome!
        }
    }
}
