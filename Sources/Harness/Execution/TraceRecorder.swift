import Primitives

/// The trace of one execution as its steps are taken, and the names of its tasks: each step
/// the model takes becomes a record of a ``CompactTrace`` (with the task it belongs to), named
/// as a ``TraceStep`` only when read; its bytes go to the
/// ``ScheduleRecord`` for the crash report and an isolated child's parent, and it counts on
/// the exploration's ``ActivityCounter``.
///
/// Touched only by the execution's running thread (or by the thread that declares a stall
/// once the running one left the harness), as the rest of the execution's state.
struct TraceRecorder {
    /// The steps taken so far, recorded into the storage an execution takes (``adopt(_:)``).
    private(set) var steps = CompactTrace(capacity: 0)
    /// The names of the tasks that took steps, by their number from 0 (``TraceStep/task``
    /// less one); `nil` for a task with none. Grown to the highest task named.
    private(set) var taskNames: [TaskName?] = []
    private let record: ScheduleRecord
    private let activity: ActivityCounter
    private var byteCount = 0
    /// Each task's number (from 0), by the runtime's ID: the order in which the execution
    /// first saw it.
    private var taskNumbers = SmallMap<UInt64, Int>()
    /// Whether each task, by its number, was asked its name already.
    private var tasksAsked: [Bool] = []
    /// The tasks (numbered from 1) that ran in the job each lane just finished, with their
    /// places, until the lane's `takeJob` step is appended. Flat, as ``jobPoints``: a job
    /// appends its tasks to storage kept for the whole execution, and allocates nothing.
    private var finishedJobs: [(lane: Int, task: Int, points: TaskJobPoints)] = []
    /// The same, with the index of the `takeJob` step that ended each job, in step order.
    private(set) var jobPoints: [TaskJobRun] = []
    /// The drop-in calls each thread is inside, innermost last, with the index of the step
    /// that began each (`nil` until the thread takes its next step); no entry for a thread
    /// inside none.
    private var openCalls: [Int: [(call: DropInCall, step: Int?)]] = [:]

    /// The storage of the task numbering and the finished jobs a trace grew, emptied with its
    /// capacity kept, for the next execution's trace on the same runner (``leave(in:)``); the
    /// task names and job points go on with the record, and come back through
    /// ``RecordStorage``. Only ``leave(in:)`` gives one storage, so what it holds is always empty.
    struct Leftovers {
        fileprivate var taskNumbers = SmallMap<UInt64, Int>()
        fileprivate var tasksAsked: [Bool] = []
        fileprivate var finishedJobs: [(lane: Int, task: Int, points: TaskJobPoints)] = []
    }

    /// A trace that writes its steps' bytes to `record`, begun for the execution's token, and
    /// counts them on `activity`, with its bookkeeping in the storage it takes from
    /// `leftovers`.
    init(
        record: ScheduleRecord, activity: ActivityCounter, storage: consuming RecordStorage.Arrays,
        reusing leftovers: inout Leftovers
    ) {
        self.record = record
        self.activity = activity
        // Swapped in, not copied: the storage must be unique for inserting to reuse it.
        swap(&taskNumbers, &leftovers.taskNumbers)
        swap(&tasksAsked, &leftovers.tasksAsked)
        swap(&finishedJobs, &leftovers.finishedJobs)
        // Room for a small scenario's steps from the start: one allocation, where growing by
        // appending reallocated the trace at every doubling, seven times for 64 steps; none
        // when an earlier execution's storage has the room.
        adopt(storage)
    }

    /// Readies the trace, whose execution's record was made, for the next run of the same
    /// execution: every field as the initializer sets it, the bookkeeping emptied keeping its
    /// capacity, the steps, the task names and the job points recorded into `storage` (as the
    /// initializer's).
    mutating func restart(storage: consuming RecordStorage.Arrays) {
        adopt(storage)
        byteCount = 0
        taskNumbers.removeAll()
        tasksAsked.empty()
        finishedJobs.empty()
        openCalls = [:]
    }

    /// Records the steps, the task names and the job points into `storage`'s arrays, which
    /// must be empty (an earlier execution's, given back): the record shares them.
    private mutating func adopt(_ storage: consuming RecordStorage.Arrays) {
        precondition(storage.taskNames.isEmpty && storage.jobPoints.isEmpty, "a trace begins with no tasks")
        // Swapped in, not copied: the arrays must be unique for appending to reuse them.
        swap(&taskNames, &storage.taskNames)
        swap(&jobPoints, &storage.jobPoints)
        var stepStorage: [CompactTrace.Step] = []
        swap(&stepStorage, &storage.steps)
        // Moved in: a copy left here would make the trace's room for its steps a new allocation.
        steps = CompactTrace(storage: consume stepStorage, capacity: Self.expectedSteps)
    }

    /// Empties the trace's bookkeeping into `leftovers`, keeping its capacity, for the next
    /// execution's trace; call once the execution's record was made, which leaves this trace
    /// spent.
    mutating func leave(in leftovers: inout Leftovers) {
        tasksAsked.leaveStorage(in: &leftovers.tasksAsked)
        finishedJobs.leaveStorage(in: &leftovers.finishedJobs)
        swap(&leftovers.taskNumbers, &taskNumbers)
        leftovers.taskNumbers.removeAll()
    }

    /// The steps a trace is given room for at its start.
    private static var expectedSteps: Int { 64 }
    /// The job points a trace is given room for at its first job.
    private static var expectedJobs: Int { 16 }
    /// The task names a trace is given room for at its first.
    private static var expectedTasks: Int { 8 }

    /// Adds `step`, which the model took, to the trace and the record's bytes. Returns the
    /// step as a token keeps it, for the replay's checks (``steps`` names it at its index).
    mutating func append(_ step: ExecutionModel.Step) -> EncodedStep {
        let task = step.isOnExecutorThread ? taskOfStep(step) : nil
        let call = openCalls.isEmpty ? nil : beginningCall(step)
        let isBookkeeping =
            (step.isOnExecutorThread && task == nil)
            || (call == nil && step.target?.object?.kind.isDropIn == true)
        if let task, !isBookkeeping, step.kind != .chooseJob, step.kind != .takeJob,
            !CompactTrace.isHarnessCode(step.location)
        {
            nameTask(task)
        }
        if step.kind == .takeJob, let lane = step.thread, !finishedJobs.isEmpty {
            takeFinishedJob(of: lane, endedBy: steps.count)
        }
        steps.append(
            thread: step.thread, kind: step.kind, target: step.target, choice: step.choice, location: step.location,
            task: task.map { $0 + 1 }, isBookkeeping: isBookkeeping, call: call)
        let encoded = EncodedStep(thread: step.thread, kind: step.kind, choice: step.choice)
        if byteCount + encoded.byteCount <= record.stepCapacity {
            encoded.forEachByte { byte in
                record.stepBytes[byteCount] = byte
                byteCount += 1
            }
            record.setByteCount(byteCount)
        }
        activity.noteStep()
        return encoded
    }

    /// Notes that `thread` begins `call`: its next step is the call's first.
    mutating func beginCall(_ call: DropInCall, by thread: Int) {
        openCalls[thread, default: []].append((call, nil))
    }

    /// Notes that `thread`'s innermost call ended with `outcome`, which the step that began it
    /// then says.
    mutating func endCall(_ outcome: SeamCall.Outcome, by thread: Int) {
        guard let (call, step) = openCalls[thread]?.popLast() else { return }
        if openCalls[thread]?.isEmpty == true { openCalls[thread] = nil }
        if let step, outcome != .completed { steps.setCall(call.ended(outcome), ofStep: step) }
    }

    /// The call that `step` begins: its thread's innermost call, when it has taken no step yet.
    private mutating func beginningCall(_ step: ExecutionModel.Step) -> DropInCall? {
        guard let thread = step.thread, var calls = openCalls[thread], let open = calls.last, open.step == nil else {
            return nil
        }
        calls[calls.count - 1].step = steps.count
        openCalls[thread] = calls
        return open.call
    }

    /// The execution's number (from 0) for the task the runtime knows by `runtimeID`:
    /// tasks are numbered in the order the execution first sees them.
    mutating func taskNumber(runtimeID: UInt64) -> Int {
        if let number = taskNumbers[runtimeID] { return number }
        let number = taskNumbers.count
        taskNumbers.set(runtimeID, to: number)
        return number
    }

    /// Notes the tasks (by their runtime IDs) that ran, with their places, in the job `lane`
    /// just finished; kept with the lane's next `takeJob` step.
    mutating func noteFinishedJob(lane: Int, ran: some Sequence<(runtimeID: UInt64, points: TaskJobPoints)>) {
        // Room for a small scenario's jobs at the first: one allocation, not one per doubling.
        if jobPoints.capacity == 0 { jobPoints.reserveCapacity(Self.expectedJobs) }
        takeFinishedJob(of: lane, endedBy: nil)
        for (runtimeID, points) in ran { finishedJobs.append((lane, taskNumber(runtimeID: runtimeID) + 1, points)) }
    }

    /// Removes the tasks of `lane`'s finished job from ``finishedJobs``; with `step`, adds them,
    /// in order, to ``jobPoints`` as the job that step ended.
    private mutating func takeFinishedJob(of lane: Int, endedBy step: Int?) {
        var kept = 0
        for index in finishedJobs.indices {
            let entry = finishedJobs[index]
            if entry.lane != lane {
                finishedJobs[kept] = entry
                kept += 1
            } else if let step {
                jobPoints.append(TaskJobRun(step: step, task: entry.task, points: entry.points))
            }
        }
        finishedJobs.removeLast(finishedJobs.count - kept)
    }

    /// Names the task the runtime knows by `runtimeID` `name`, for reports.
    mutating func nameTask(runtimeID: UInt64, _ name: TaskName) {
        let task = taskNumber(runtimeID: runtimeID)
        _ = noteAsked(task)
        setName(name, ofTask: task)
    }

    /// The name of task `number`, numbered from 1 as ``TraceStep/task`` numbers it.
    func name(ofTask number: Int) -> TaskName? {
        taskNames.indices.contains(number - 1) ? taskNames[number - 1] : nil
    }

    /// Names task `task` (numbered from 0) `name`.
    private mutating func setName(_ name: TaskName, ofTask task: Int) {
        if taskNames.isEmpty { taskNames.reserveCapacity(Self.expectedTasks) }
        taskNames.pad(toHold: task, with: nil)
        taskNames[task] = name
    }

    /// `values`, by the runtime IDs of tasks, by the tasks' numbers in the trace (from 1)
    /// instead; the tasks the execution never saw are left out.
    @inline(__always)  // Called, it took a copy of the whole trace, read from its execution.
    func numbered<Value>(_ values: [UInt64: Value]) -> [Int: Value] {
        Dictionary(uniqueKeysWithValues: values.compactMap { id, value in taskNumbers[id].map { ($0 + 1, value) } })
    }

    /// The task a job that escaped the execution ran, numbered and named as the trace numbers
    /// and names it: `nil` for a job of no task, or of a task the execution never saw.
    func escapedTask(runtimeID: UInt64) -> (task: Int, name: String?)? {
        guard runtimeID != 0, let number = taskNumbers[runtimeID] else { return nil }
        return (number + 1, name(ofTask: number + 1)?.text)
    }

    /// Where `thread` was last seen at the seam, for a stall report: its last step with a
    /// source location, or where it was started.
    func lastSeen(_ thread: Int) -> StallDiagnosis.LastSeen? {
        let named = steps.named
        if let step = named.last(where: { $0.thread == thread && $0.location != nil && !$0.isBookkeeping }),
            let location = step.location
        {
            return .step(step.kind, at: location)
        }
        if let spawn = named.first(where: { $0.kind == .spawn && $0.target == .thread(thread) }),
            let location = spawn.location
        {
            return .started(at: location)
        }
        return nil
    }

    /// The task (numbered from 0) a step of an executor thread belongs to: the task the
    /// runtime runs on the calling thread, or, when a lane picks or finishes a task's job,
    /// that task.
    private mutating func taskOfStep(_ step: ExecutionModel.Step) -> Int? {
        if step.kind == .chooseJob || step.kind == .takeJob { return step.job?.task }
        guard step.job != nil, let runtimeID = currentTaskRuntimeID() else { return nil }
        return taskNumber(runtimeID: runtimeID)
    }

    /// Learns the name of task `task`, which runs on the calling lane, the first time it
    /// takes a step of its own.
    private mutating func nameTask(_ task: Int) {
        guard noteAsked(task), let name = Task.name else { return }
        setName(.given(name), ofTask: task)
    }

    /// Notes that task `task` was asked its name; returns whether it was the first time.
    private mutating func noteAsked(_ task: Int) -> Bool {
        tasksAsked.pad(toHold: task, with: false)
        defer { tasksAsked[task] = true }
        return !tasksAsked[task]
    }
}
