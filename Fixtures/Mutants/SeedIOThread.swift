import CShim
import Primitives

/// The seed's `IOThread` design on the seam, with one of its defects switched on: an
/// atomic bit set for its state, handlers kept in a box, and the checks the seed makes.
public final class SeedIOThread: KillableThread, @unchecked Sendable {
    /// Which of the seed's defects this copy has.
    public enum Defect: Int, Sendable {
        /// 3: registering a handler is a load, then a store: a concurrent one can be lost.
        case lossyRegistration = 3
        /// 4: `kill()` acts only when the state is exactly started and entered, so a kill
        /// between `start()` and the body's entry does nothing and the body runs.
        case killOnlyWhenEntered = 4
        /// 5: a handler registered after a killed thread exited is kept and never called.
        case lateHandlerDropped = 5
        /// 7: `join()` refuses a thread that has already finished.
        case joinRefusesFinished = 7
    }

    private enum Bit {
        static let started: UInt8 = 1
        static let entered: UInt8 = 2
        static let finished: UInt8 = 4
        static let cancelled: UInt8 = 8
        static let exited: UInt8 = 16
    }

    private let defect: Defect
    private let body: @Sendable () -> Void
    private let state = SeamAtomic<UInt8>(0)
    private let handle = AtomicBox<SeamThread?>(nil)
    private let mutex = SeamMutex()
    private var handlers: [@Sendable (ExitKind) -> Void] = []
    private var recordedKind: ExitKind?

    /// A joinable thread running `body`, with `defect`.
    public init(_ defect: Defect, _ body: @escaping @Sendable () -> Void) {
        self.defect = defect
        self.body = body
    }

    private var exitKind: ExitKind {
        let bits = state.load()
        return bits & Bit.finished == 0 && bits & Bit.cancelled != 0 ? .killed : .finished
    }

    public func start() -> Bool {
        guard state.compareExchange(expected: 0, desired: Bit.started).exchanged else { return false }
        let argument = Unmanaged.passRetained(self).toOpaque()
        handle.store(
            try? Seam.spawnThread(
                entry: { argument in
                    cshim_run_with_cleanup(
                        { argument in
                            Unmanaged<SeedIOThread>.fromOpaque(argument!).takeRetainedValue().runHandlers()
                        }, argument,
                        { argument in
                            Unmanaged<SeedIOThread>.fromOpaque(argument!)._withUnsafeGuaranteedRef { $0.run() }
                        }, argument)
                }, argument: argument
            ).get())
        return true
    }

    private func run() {
        Seam.cancellationPoint()
        guard state.load() & Bit.cancelled == 0 else { return }
        state.setBits(Bit.entered)
        body()
        state.setBits(Bit.finished)
    }

    private func runHandlers() {
        let kind = exitKind
        let pending = mutex.withLock {
            recordedKind = kind
            state.setBits(Bit.exited)
            defer { handlers = [] }
            return handlers
        }
        for handler in pending { handler(kind) }
    }

    public func kill() -> Bool {
        let bits = state.load()
        let killable =
            defect == .killOnlyWhenEntered
            ? bits == Bit.started | Bit.entered
            : bits & Bit.started != 0 && bits & (Bit.finished | Bit.cancelled | Bit.exited) == 0
        guard killable, state.compareExchange(expected: bits, desired: bits | Bit.cancelled).exchanged else {
            return false
        }
        if bits & Bit.entered != 0, let thread = handle.load() {
            try? thread.cancel()
        }
        return true
    }

    public func onExit(_ handler: @escaping @Sendable (ExitKind) -> Void) -> OnExitRegistration {
        if defect == .lossyRegistration {
            let (kind, snapshot) = mutex.withLock { (recordedKind, handlers) }
            if let kind {
                handler(kind)
                return .ranImmediately(kind)
            }
            mutex.withLock { handlers = snapshot + [handler] }
            return .registered
        }
        let ranKind: ExitKind? = mutex.withLock {
            let dropsLate = defect == .lateHandlerDropped && state.load() & Bit.cancelled != 0
            if let recordedKind, !dropsLate { return recordedKind }
            handlers.append(handler)
            return nil
        }
        guard let ranKind else { return .registered }
        handler(ranKind)
        return .ranImmediately(ranKind)
    }

    public func join() -> IOThreadJoinResult {
        if defect == .joinRefusesFinished, state.load() & Bit.finished != 0 { return .notJoinable }
        guard let thread = handle.exchange(nil) else { return .alreadyJoined }
        try? thread.join()
        return .joined(exitKind)
    }
}
