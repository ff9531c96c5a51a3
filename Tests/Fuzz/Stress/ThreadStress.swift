import Fixtures
import Harness
import Testing

@Suite(
    "Stress: IOThread", .disabled(if: RuntimeSanitizer.thread, Comment(rawValue: RuntimeSanitizer.killsThreadsReason)))
struct IOThreadStress {
    @Test("a kill racing the end of the body: the exit kind says whether the body completed")
    func killRace() async {
        await Harness.stress(
            "iothread kill race under stress", options: StressBudget.options,
            KillableThreadStressTests.killRace { LiveIOThread($0) })
    }

    @Test("handlers registered while a kill races exit each run once with the right kind")
    func killRacesExit() async {
        await Harness.stress(
            "iothread handlers under stress", options: StressBudget.options,
            KillableThreadScenarios.killRacesExit { LiveIOThread($0) })
    }
}

@Suite("Stress: WorkerThread")
struct WorkerThreadStress {
    @Test("start, submit and stop race without losing work")
    func races() async {
        await Harness.stress(
            "worker races under stress", options: StressBudget.options, WorkerScenarios.startSubmitStopRace)
    }

    @Test("sync against stop: each call returns from the worker or is refused")
    func syncAgainstStop() async {
        await Harness.stress(
            "worker sync against stop under stress", options: StressBudget.options, WorkerStressTests.syncAgainstStop)
    }
}
