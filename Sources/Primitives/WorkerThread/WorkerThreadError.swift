/// Why a ``WorkerThread`` refused a request.
public enum WorkerThreadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Work was submitted before ``WorkerThread/start()``: a worker accepts work only once
    /// its thread exists.
    case notStarted
    /// The worker was stopped (``WorkerThread/stop()``): it accepts no new work and cannot
    /// be started again.
    case stopped
    /// ``WorkerThread/start()`` could not create the thread; the worker stays unstarted and
    /// may be started again.
    case threadCreationFailed(SeamThreadError)

    public var description: String {
        switch self {
        case .notStarted:
            "the worker thread was not started: call start() before submitting work"
        case .stopped:
            "the worker thread was stopped: it accepts no new work and cannot be restarted"
        case .threadCreationFailed(let error):
            "the worker thread could not be created: \(error)"
        }
    }
}
