import CShim

extension IOThread {
    /// Checks the configuration, builds the thread's attributes and launches it with them;
    /// on success passes the thread to `launched` before returning. The caller holds the lock.
    func launch(_ launched: (SeamThread) -> Void) -> IOThreadStartResult {
        if let problem = stackSizeProblem { return .invalidAttribute(problem) }
        var attributes = pthread_attr_t()
        let initError = pthread_attr_init(&attributes)
        guard initError == 0 else {
            return IOThreadStartResult(creationError: SeamThreadError(operation: "pthread_attr_init", code: initError))
        }
        defer { check(pthread_attr_destroy(&attributes), "pthread_attr_destroy") }
        do throws(SeamThreadError) {
            try configure(&attributes)
            let argument = Unmanaged.passRetained(self)
            switch Seam.spawnThread(attributes: &attributes, entry: ioThreadEntry, argument: argument.toOpaque()) {
            case .success(let thread):
                launched(thread)
                return .success
            case .failure(let error):
                argument.release()
                throw error
            }
        } catch {
            return IOThreadStartResult(creationError: error)
        }
    }

    /// What is wrong with the configured stack size, if anything. Checked here rather than
    /// left to the system, which accepts sizes Swift code cannot run on and, on Linux, sizes
    /// that are not page multiples.
    var stackSizeProblem: IOThreadAttributeProblem? {
        guard let stackSize else { return nil }
        let minimum = IOThread.minimumStackSize
        if stackSize < minimum { return .stackSizeBelowMinimum(requested: stackSize, minimum: minimum) }
        let pageSize = Int(cshim_page_size())
        if stackSize % pageSize != 0 { return .stackSizeNotPageMultiple(requested: stackSize, pageSize: pageSize) }
        return nil
    }

    /// Sets the detach state, the stack size and, for a real-time policy, explicit
    /// scheduling at the policy's lowest priority.
    private func configure(_ attributes: inout pthread_attr_t) throws(SeamThreadError) {
        let detachState = Int32(isJoinable ? PTHREAD_CREATE_JOINABLE : PTHREAD_CREATE_DETACHED)
        try attempt(pthread_attr_setdetachstate(&attributes, detachState), "pthread_attr_setdetachstate")
        if let stackSize {
            try attempt(pthread_attr_setstacksize(&attributes, stackSize), "pthread_attr_setstacksize")
        }
        guard schedulePolicy != .other else { return }
        let policy = schedulePolicy.posixValue
        try attempt(
            pthread_attr_setinheritsched(&attributes, Int32(PTHREAD_EXPLICIT_SCHED)), "pthread_attr_setinheritsched")
        try attempt(pthread_attr_setschedpolicy(&attributes, policy), "pthread_attr_setschedpolicy")
        var parameters = sched_param()
        parameters.sched_priority = sched_get_priority_min(policy)
        precondition(parameters.sched_priority >= 0, "sched_get_priority_min failed for \(schedulePolicy)")
        try attempt(pthread_attr_setschedparam(&attributes, &parameters), "pthread_attr_setschedparam")
    }
}

/// Throws the error a POSIX call returned, if any.
private func attempt(_ error: Int32, _ operation: String) throws(SeamThreadError) {
    guard error == 0 else { throw SeamThreadError(operation: operation, code: error) }
}
