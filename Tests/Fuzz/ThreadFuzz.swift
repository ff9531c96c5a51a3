import Fixtures
import Harness
import Primitives
import Testing

@Suite("Fuzz: IOThread")
struct IOThreadFuzz {
    @Test("every handler runs exactly once with the right ExitKind when kill races exit", arguments: FuzzMatrix.cases)
    func killRacesExit(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.explore(
            "iothread kill races exit", strategy, seed, KillableThreadScenarios.killRacesExit { LiveIOThread($0) })
    }

    @Test("a handler registered after exit runs at once", arguments: FuzzMatrix.cases)
    func lateHandler(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.explore(
            "iothread late handler", strategy, seed, KillableThreadScenarios.lateHandlerRuns { LiveIOThread($0) })
    }

    @Test("joining a finished thread reaps it", arguments: FuzzMatrix.cases)
    func joinAfterExit(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.explore(
            "iothread join after exit", strategy, seed, KillableThreadScenarios.joinAfterExit { LiveIOThread($0) })
    }
}

@Suite("Fuzz: AtomicBox")
struct AtomicBoxFuzz {
    @Test("no update is lost", arguments: FuzzMatrix.cases)
    func noLostUpdates(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.explore("atomic box updates", strategy, seed, AtomicBoxScenarios.noLostUpdates { LiveAtomicBox() })
    }
}

@Suite("Fuzz: WorkerThread")
struct WorkerThreadFuzz {
    @Test("stop() returns after the submitted work ran", arguments: FuzzMatrix.cases)
    func stopDrains(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.explore("worker stop drains", strategy, seed, WorkerScenarios.stopDrainsWork { LiveWorkerThread() })
    }

    @Test("start, submit and stop race without losing work", arguments: FuzzMatrix.cases)
    func races(strategy: Strategy, seed: UInt64) {
        FuzzMatrix.explore("worker races", strategy, seed, WorkerScenarios.startSubmitStopRace)
    }
}
