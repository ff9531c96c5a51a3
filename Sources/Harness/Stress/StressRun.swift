import Foundation
import Primitives
import Synchronization

/// The iterations of one stress run, on real threads at full speed: ``StressOptions/threads``
/// runner threads each run one iteration after another as the scenario's root thread, until
/// the iterations or the time budget (``StressTimeBudget``, which may adapt) run out, an
/// iteration hangs or they leak threads; the scenarios' tasks run on
/// ``StressOptions/taskExecutor``. The thread that calls
/// ``run()`` watches them: it prints progress lines, refreshes the crash note and notices
/// hangs.
final class StressRun<Outcome: Hashable & Sendable>: @unchecked Sendable {
    /// What a run saw.
    struct Result: Sendable {
        let histogram: StressHistogram<Outcome>
        let iterations: Int
        let elapsed: Duration
        let stop: StressStop
    }

    private struct Runner {
        var histogram = StressHistogram<Outcome>()
        var iteration = 0
        var current: StressIteration?
        var began: ContinuousClock.Instant?
        var finished = false
        var abandoned = false
    }

    private let test: StressTest<Outcome>
    private let options: StressOptions
    private let nextIteration = Atomic(0)
    private let completed = Atomic(0)
    private let forbidden = Atomic(0)
    private let stopping = Atomic(false)
    /// When an outcome was last seen for the first time in the run, in nanoseconds since it
    /// began: what an adaptive time budget (``StressTimeBudget``) goes by.
    private let lastNewOutcome = Atomic<Int64>(0)
    private let lock = SeamMutex()
    private var runners: [Runner]
    /// Every outcome the run has counted, guarded by `lock`.
    private var seen: Set<StressOutcome<Outcome>> = []
    private var crashNote: StressCrashNote
    private let taskPool: StressTaskPool?
    private let wording: StressRunWording<Outcome>

    init(test: StressTest<Outcome>, options: StressOptions, wording: StressRunWording<Outcome>) {
        self.test = test
        self.options = options
        self.wording = wording
        runners = Array(repeating: Runner(), count: options.threads)
        crashNote = StressCrashNote(wording.crashNote(0, 0))
        taskPool =
            switch options.taskExecutor {
            case .dedicated(let threads): StressTaskPool(threads: threads)
            case .global: nil
            }
    }

    /// Runs the iterations and returns what they ended in; blocks the calling thread.
    func run() -> Result {
        let start = ContinuousClock.now
        var progress = ProgressMeter(label: wording.progressLabel, interval: options.progressInterval)
        let leakWatch = StressLeakWatch()
        var threads: [SeamThread] = []
        for runner in 0..<options.threads {
            switch Seam.spawnThread({ [self] in runIterations(as: runner, from: start) }) {
            case .success(let thread): threads.append(thread)
            case .failure(let error):
                preconditionFailure(
                    "the stress run could not start a runner thread (\(error)): has the process run out of threads?")
            }
        }
        let (hung, leaked) = watch(leakWatch: leakWatch, progress: &progress)
        for (runner, thread) in threads.enumerated() where !hung.contains(runner) {
            do {
                try thread.join()
            } catch {
                preconditionFailure("joining a stress runner failed: \(error)")
            }
        }
        let elapsed = ContinuousClock.now - start
        taskPool?.close()
        var histogram = StressHistogram<Outcome>()
        lock.withLockDirectly {
            for runner in runners { histogram.merge(runner.histogram) }
        }
        if let leaked {
            histogram.count(.leakedThreads(leaked), iteration: nextIteration.load(ordering: .relaxed))
        }
        let stop: StressStop =
            if !hung.isEmpty {
                .hang
            } else if leaked != nil {
                .threadLeak
            } else if histogram.total >= options.iterations {
                .iterations
            } else if options.timeLimit?.endsAtCap(lastNewOutcome: lastNewOutcomeSinceStart) == true {
                .timeCap
            } else {
                .timeBudget
            }
        progress.finish { _ in wording.finishedLines(histogram, elapsed) }
        return Result(
            histogram: histogram, iterations: histogram.total - (leaked == nil ? 0 : 1), elapsed: elapsed, stop: stop)
    }

    // MARK: Runners

    /// The time since the run began at which an outcome was last seen for the first time.
    private var lastNewOutcomeSinceStart: Duration {
        .nanoseconds(lastNewOutcome.load(ordering: .relaxed))
    }

    private func runIterations(as runner: Int, from start: ContinuousClock.Instant) {
        while !stopping.load(ordering: .relaxed) {
            let index = nextIteration.wrappingAdd(1, ordering: .relaxed).oldValue
            guard index < options.iterations else { break }
            if let limit = options.timeLimit,
                ContinuousClock.now - start >= limit.end(lastNewOutcome: lastNewOutcomeSinceStart)
            {
                break
            }
            let iteration = StressIteration(index: index, taskPool: taskPool)
            let note = lock.withLockDirectly {
                runners[runner].iteration = index
                runners[runner].current = iteration
                runners[runner].began = .now
                return crashNote
            }
            let outcome = run(iteration, note: note)
            let verdict = outcome.verdict(under: test.outcomes)
            let counted = lock.withLockDirectly {
                runners[runner].began = nil
                runners[runner].current = nil
                guard !runners[runner].abandoned else { return false }
                runners[runner].histogram.count(outcome, iteration: index)
                if seen.insert(outcome).inserted {
                    let since = (ContinuousClock.now - start).components
                    lastNewOutcome.store(
                        since.seconds * 1_000_000_000 + since.attoseconds / 1_000_000_000, ordering: .relaxed)
                }
                return true
            }
            guard counted else { return }
            completed.wrappingAdd(1, ordering: .relaxed)
            if verdict == .forbidden { forbidden.wrappingAdd(1, ordering: .relaxed) }
        }
        lock.withLockDirectly { runners[runner].finished = true }
    }

    private func run(_ iteration: StressIteration, note: StressCrashNote) -> StressOutcome<Outcome> {
        let controller = StressController(iteration: iteration, crashNote: note)
        note.install()
        defer { StressCrashNote.uninstall() }
        return Seam.withController(controller, thread: StressIteration.root) {
            let scenario = Scenario(stress: iteration)
            var returned: Outcome?
            do {
                returned = try test.body(scenario)
            } catch {
                iteration.record(.threw(error: "\(error)"))
            }
            scenario.joinAll()
            if let failure = iteration.recordedFailure { return failure.outcome() }
            return .returned(returned!)
        }
    }

    // MARK: Watching

    /// How often the watcher looks at the runners.
    private static var watchInterval: Duration { .milliseconds(5) }
    /// How often the crash note is brought up to date, and leaks looked for, at most.
    private static var noteInterval: Duration { .milliseconds(100) }

    /// Watches the runners until each has finished or hung, or the iterations leak threads;
    /// returns the hung runners and the number of threads leaked.
    private func watch(leakWatch: StressLeakWatch, progress: inout ProgressMeter) -> (hung: Set<Int>, leaked: Int?) {
        var hung: Set<Int> = []
        var leaked: Int?
        var lastNote = ContinuousClock.now
        var notedIterations = 0
        while true {
            let done = lock.withLockDirectly {
                for index in runners.indices where !runners[index].finished && !runners[index].abandoned {
                    guard let began = runners[index].began, ContinuousClock.now - began >= options.hangTimeout else {
                        continue
                    }
                    runners[index].abandoned = true
                    runners[index].current?.abandon()
                    runners[index].histogram.count(
                        .hung(seconds: options.hangTimeout.seconds), iteration: runners[index].iteration)
                    hung.insert(index)
                }
                return runners.allSatisfy { $0.finished || $0.abandoned }
            }
            if !hung.isEmpty { stopping.store(true, ordering: .relaxed) }
            if done { return (hung, leaked) }
            let iterations = completed.load(ordering: .relaxed)
            progress.update { elapsed in
                wording.progressLine(iterations, options.iterations, elapsed, forbidden.load(ordering: .relaxed))
            }
            if iterations != notedIterations, ContinuousClock.now - lastNote >= Self.noteInterval {
                if leaked == nil, let count = leakWatch.leakedThreads() {
                    leaked = count
                    stopping.store(true, ordering: .relaxed)
                }
                let note = StressCrashNote(wording.crashNote(iterations, forbidden.load(ordering: .relaxed)))
                lock.withLockDirectly { crashNote = note }
                notedIterations = iterations
                lastNote = .now
            }
            Thread.sleep(forTimeInterval: Self.watchInterval.seconds)
        }
    }
}
