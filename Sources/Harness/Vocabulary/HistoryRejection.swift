/// How the history a ``LinearizabilityTest`` recorded failed its check
/// (``ExecutionFailure/historyRejected(_:thread:)``).
public enum HistoryRejection: Sendable, Hashable, Codable {
    /// The checker's verdict on the history was `kind`; `explanation` is the verdict in the
    /// checker's words (``LinearizabilityVerdict/description``).
    case verdict(Kind, explanation: String)
    /// The call `call` threw `error` (its description), which is not a `expected`, so the
    /// model's results have no place for it.
    case foreignError(call: String, error: String, expected: String)

    /// What kind of rejection it is: what shrinking keeps apart.
    public enum Kind: Sendable, Hashable, Codable {
        /// No sequential order explains the history.
        case notLinearizable
        /// The model answered one call differently from equal states.
        case modelNotDeterministic
        /// The checker spent its budget without a verdict.
        case undecided
        /// A call threw an error the model's results cannot hold.
        case foreignError
    }

    /// What kind of rejection it is.
    public var kind: Kind {
        switch self {
        case .verdict(let kind, _): kind
        case .foreignError: .foreignError
        }
    }
}
