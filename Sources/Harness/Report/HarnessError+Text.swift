/// Why an exploration could not run, in words.
extension HarnessError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .configuration(let error):
            "\(error)"
        case let .isolatedChildFailed(scenario, ending):
            "the isolated exploration of '\(scenario)' failed: \(ending)"
        }
    }
}
