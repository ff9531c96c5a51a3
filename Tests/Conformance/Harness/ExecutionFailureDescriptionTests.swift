@testable import Harness
import Primitives
import Testing

/// The words of a failure's values, written in one place (`Report/`): the one test of their
/// rendering, where the other tests compare the values.
@Suite("Report: a failure's values in words")
struct ExecutionFailureDescriptionTests {
    @Test("a step's target prints as a trace has always shown it")
    func targets() {
        let targets: [(TraceTarget, String)] = [
            (.object(SharedObject(.mutex, 1)), "mutex#1"),
            (.object(SharedObject(.condition, 2)), "condition#2"),
            (.object(SharedObject(.atomic, 3)), "atomic#3"),
            (.thread(2), "T2"),
            (.job(task: 2), "task 2"),
            (.job(task: nil), "a job of no task"),
            (.deadline(nanoseconds: 5_000_000), "until +5.0 ms"),
            (.clockAdvance(nanoseconds: 5_000_000), "+5.0 ms"),
            (.queuedJob(position: 2, count: 2), "(queued job 2 of 2)")
        ]
        for (target, text) in targets {
            #expect("\(target)" == text)
        }
    }

    /// Two threads that each wait for the mutex the other holds, T0 at `Bank.swift:7`.
    static let lockOrderWaits: [Wait] = [
        .thread(
            ThreadWait(
                thread: 0,
                reason: .lock(mutex: SharedObject(.mutex, 2), holder: 1),
                location: SeamLocation(fileID: "Module/Bank.swift", line: 7)
            )),
        .thread(ThreadWait(thread: 1, reason: .lock(mutex: SharedObject(.mutex, 1), holder: 0)))
    ]

    @Test("a deadlock lists each wait, who holds what and where, then the cycle")
    func deadlock() {
        let failure = ExecutionFailure.deadlock(
            waits: Self.lockOrderWaits + [
                .thread(ThreadWait(thread: 2, reason: .lock(mutex: SharedObject(.mutex, 3), holder: nil))),
                .thread(ThreadWait(thread: 3, reason: .join(thread: 1))),
                .thread(ThreadWait(thread: 4, reason: .operation(.yield)))
            ],
            cycle: [0, 1]
        )
        #expect(
            "\(failure)" == """
                deadlock: no thread can run
                  T0 waits to lock mutex#2 held by T1 at Bank.swift:7
                  T1 waits to lock mutex#1 held by T0
                  T2 waits to lock mutex#3 held by nobody
                  T3 waits to join T1
                  T4 waits to yield
                  lock-order cycle: T0 → T1 → T0
                """)
    }

    @Test("threads still running list their waits, then the tasks'")
    func threadsStillRunning() {
        let failure = ExecutionFailure.threadsStillRunning(waits: [
            .thread(ThreadWait(thread: 1, reason: .signal(condition: SharedObject(.condition, 1)))),
            .task(BlockedTask(task: 1, name: nil, waitsAt: nil, startedIn: nil))
        ])
        #expect(
            "\(failure)" == """
                threads still running when the scenario ended
                  T1 waits on condition#1, which nobody will signal
                  task 1 waits (where is unknown: no debug information)
                """)
    }

    @Test("an unlock of a mutex not held reads as the failed invariant it is")
    func unheldUnlock() {
        let location = SeamLocation(fileID: "Module/Unheld.swift", line: 12)
        #expect(
            "\(ExecutionFailure.unheldUnlock(thread: 1, mutex: SharedObject(.mutex, 1), location: location))"
                == "invariant failed on T1 at Module/Unheld.swift:12: T1 released mutex#1, which it does not hold")
    }

    @Test("a second join of a thread reads as the failed invariant it is")
    func joinedTwice() {
        let location = SeamLocation(fileID: "Module/Reaper.swift", line: 7)
        #expect(
            "\(ExecutionFailure.joinedTwice(thread: 0, target: 2, location: location))"
                == "invariant failed on T0 at Module/Reaper.swift:7: T0 joined T2, which was joined already")
    }

    @Test("a forbidden outcome and a rejected history say what they are")
    func harnessChecks() {
        #expect(
            "\(ExecutionFailure.forbiddenOutcome(outcome: "1", thread: 0))"
                == "the scenario returned the forbidden outcome 1 on T0")
        let foreign = HistoryRejection.foreignError(call: "push(3)", error: "unexpected", expected: "StackError")
        #expect(
            "\(foreign)"
                == "push(3) threw unexpected, which is not a StackError: the model's results have no place for it")
        #expect(
            "\(ExecutionFailure.historyRejected(.verdict(.undecided, explanation: "undecided"), thread: 2))"
                == "linearizability check failed on T2: undecided")
    }

    @Test(
        "a stall is read from the stack as a value and said with its wait, caller, alternative and last place"
    )
    func stall() {
        let frames = [
            "__lll_lock_wait", "Synchronization.Mutex.withLock<A>(_:)", "Cache.fill()", "Harness.Execution.run()"
        ]
        let started = SeamLocation(fileID: "Module/Cache.swift", line: 12)
        let blocked = StallDiagnosis(.blocked(seconds: 1), frames: frames, lastSeen: .started(at: started))
        #expect(blocked.activity == .blocked)
        #expect(blocked.blockedIn == StallDiagnosis.BlockedIn(frame: frames[1], blocker: .synchronizationMutex))
        #expect(blocked.codeFrame == "Cache.fill()")
        #expect(
            "\(blocked)"
                == "blocked in Synchronization.Mutex.withLock<A>(_:) (called from Cache.fill()): "
                + "a Synchronization.Mutex, which the harness does not control; use SeamMutex; "
                + "it was started at Cache.swift:12 and has taken no step since"
        )

        let busy = StallDiagnosis(.busy(seconds: 1), frames: ["Spinner.spin()"], lastSeen: .step(.yield, at: started))
        #expect(
            "\(busy)"
                == "busy outside the seam (in Spinner.spin()): computing on a CPU, not waiting: "
                + "an endless loop, or a spin on state the harness does not see; "
                + "spin with Seam.yield, or wait on a SeamCondition; its last step was yield at Cache.swift:12"
        )

        let unread = StallDiagnosis(.blocked(seconds: 1), frames: nil, lastSeen: nil)
        #expect("\(unread)" == "blocked outside the seam: in code the harness does not control")
    }
}
