extension FailurePicture {
    /// Who took a step: the scheduler, or a thread.
    ///
    /// The one place that maps a step to its lane (``init(of:)``) and names a lane
    /// (``label``): a new kind of lane, such as a task, is a case of `Identity`, a line in
    /// each of the two, and nothing else in the picture changes.
    public struct Lane: Hashable, Sendable, Comparable, CustomStringConvertible {
        enum Identity: Hashable, Comparable {
            case scheduler
            case thread(Int)
        }

        let identity: Identity

        /// The scheduler's own steps: advancing the virtual clock, choosing a job.
        public static let scheduler = Lane(identity: .scheduler)

        /// The lane of thread `number`, as reports number threads (`T0` runs the scenario).
        public static func thread(_ number: Int) -> Lane {
            Lane(identity: .thread(number))
        }

        /// The lane that took `step`.
        public init(of step: TraceStep) {
            self = step.thread.map(Lane.thread) ?? .scheduler
        }

        private init(identity: Identity) {
            self.identity = identity
        }

        /// The lane's name as the report's text spells it: `T2`, or `scheduler`.
        public var label: String {
            switch identity {
            case .scheduler: "scheduler"
            case .thread(let number): "T\(number)"
            }
        }

        public var description: String { label }

        public static func < (lhs: Lane, rhs: Lane) -> Bool {
            lhs.identity < rhs.identity
        }
    }
}
