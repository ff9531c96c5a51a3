/// How a stress test judges an outcome it observed, as jcstress does.
public enum OutcomeClass: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// The contract allows it.
    case acceptable
    /// The contract allows it, and it is rare or surprising enough to count on its own: a
    /// race won the unlikely way. Never a failure.
    case interesting
    /// The contract forbids it: the stress run fails, and the harness searches for a
    /// schedule that ends in it.
    case forbidden

    public var description: String { rawValue }

    /// Forbidden first, then interesting, then acceptable: the order of a report's rows.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int {
        switch self {
        case .forbidden: 0
        case .interesting: 1
        case .acceptable: 2
        }
    }
}

/// One line of a stress test's outcome table: the outcomes it covers, their class and what
/// they mean.
public struct OutcomeRule<Outcome: Hashable & Sendable>: Sendable {
    /// The class of the outcomes this rule covers.
    public let verdict: OutcomeClass
    /// What the outcomes mean, for the report.
    public let meaning: String
    let covers: @Sendable (Outcome) -> Bool

    /// A rule for the outcomes `covers` accepts.
    public init(_ verdict: OutcomeClass, _ meaning: String, where covers: @escaping @Sendable (Outcome) -> Bool) {
        self.verdict = verdict
        self.meaning = meaning
        self.covers = covers
    }

    /// A rule for exactly `outcomes`.
    public init(_ verdict: OutcomeClass, _ outcomes: [Outcome], _ meaning: String) {
        let listed = Set(outcomes)
        self.init(verdict, meaning, where: { listed.contains($0) })
    }

    /// `outcomes` are acceptable.
    public static func acceptable(_ outcomes: Outcome..., meaning: String) -> Self {
        Self(.acceptable, outcomes, meaning)
    }
    /// `outcomes` are interesting.
    public static func interesting(_ outcomes: Outcome..., meaning: String) -> Self {
        Self(.interesting, outcomes, meaning)
    }
    /// `outcomes` are forbidden.
    public static func forbidden(_ outcomes: Outcome..., meaning: String) -> Self {
        Self(.forbidden, outcomes, meaning)
    }
    /// The outcomes `covers` accepts are acceptable.
    public static func acceptable(meaning: String, where covers: @escaping @Sendable (Outcome) -> Bool) -> Self {
        Self(.acceptable, meaning, where: covers)
    }
    /// The outcomes `covers` accepts are interesting.
    public static func interesting(meaning: String, where covers: @escaping @Sendable (Outcome) -> Bool) -> Self {
        Self(.interesting, meaning, where: covers)
    }
    /// The outcomes `covers` accepts are forbidden.
    public static func forbidden(meaning: String, where covers: @escaping @Sendable (Outcome) -> Bool) -> Self {
        Self(.forbidden, meaning, where: covers)
    }
}

/// A stress test's outcome table: the first rule that covers an outcome classifies it, and
/// an outcome no rule covers is `unlisted`.
public struct OutcomeClassification<Outcome: Hashable & Sendable>: Sendable {
    /// The rules, in the order they are tried.
    public let rules: [OutcomeRule<Outcome>]
    /// The class of an outcome no rule covers.
    public let unlisted: OutcomeClass

    /// A table of `rules`; an outcome none covers is `unlisted` (forbidden unless said).
    public init(_ rules: [OutcomeRule<Outcome>], unlisted: OutcomeClass = .forbidden) {
        self.rules = rules
        self.unlisted = unlisted
    }

    /// The class of `outcome`: the first covering rule's, else `unlisted`.
    func verdict(of outcome: Outcome) -> OutcomeClass {
        rules.first { $0.covers(outcome) }?.verdict ?? unlisted
    }
}
