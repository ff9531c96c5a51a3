import CShim

extension IOThread {
    /// Waits in `pthread_join` for `thread`. If the calling thread is cancelled while
    /// waiting, a C cleanup tells the lifecycle, so the thread can still be joined later.
    func reap(_ thread: SeamThread, file: StaticString, line: UInt) {
        var request = JoinRequest(owner: Unmanaged.passUnretained(self), thread: thread, file: file, line: line)
        withUnsafeMutablePointer(to: &request) { pointer in
            cshim_run_with_cleanup(joinCleanup, pointer, joinWait, pointer)
        }
        if let error = request.error {
            fatalError("IOThread.join: \(error) (do two threads join each other?)")
        }
    }
}

/// What a join shares with its C cleanup. Holds no reference count: the caller of `join()`
/// keeps the `IOThread` alive.
private struct JoinRequest {
    let owner: Unmanaged<IOThread>
    let thread: SeamThread
    let file: StaticString
    let line: UInt
    var error: SeamThreadError?
    var returned = false
}

private func joinWait(_ argument: UnsafeMutableRawPointer?) {
    let request = argument!.assumingMemoryBound(to: JoinRequest.self)
    do {
        try request.pointee.thread.join(file: request.pointee.file, line: request.pointee.line)
    } catch {
        request.pointee.error = error
    }
    request.pointee.returned = true
}

private func joinCleanup(_ argument: UnsafeMutableRawPointer?) {
    let request = argument!.assumingMemoryBound(to: JoinRequest.self)
    guard !request.pointee.returned else { return }
    request.pointee.owner._withUnsafeGuaranteedRef { $0.lifecycle.update { $0.joinInterrupted() } }
}
