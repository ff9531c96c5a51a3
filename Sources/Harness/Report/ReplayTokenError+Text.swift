/// Why a replay token could not be used, in words.
extension ReplayTokenError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .malformed(let malformation):
            "malformed replay token: \(malformation)"
        case .unsupportedVersion(let version):
            "replay token format H\(version) is not supported; this harness reads H\(ReplayToken.formatVersion): "
                + "record the schedule again by re-running its exploration (same strategy and seed)"
        case let .otherScenario(token, scenario):
            "the replay token was recorded for another scenario (hash \(String(token, radix: 16))), not '\(scenario)' "
                + "(hash \(String(ReplayToken.hash(scenario), radix: 16)))"
        }
    }
}

/// What is wrong with a text that is not a replay token, in words.
extension ReplayTokenError.Malformation: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .fieldCount(count, text):
            "expected 6 fields separated by '.' (7 for a generated scenario), found \(count) in '\(text)'"
        case .version(let field):
            "a token starts with 'H' and its format version, not '\(field)'"
        case .scenario(let field):
            "the scenario field '\(field)' is not hexadecimal"
        case .emptyStrategy:
            "the strategy field is empty"
        case .seed(let field):
            "the seed field '\(field)' is not hexadecimal"
        case .execution(let field):
            "the execution field '\(field)' is not a whole number"
        case .generatedScenario(let field):
            "the generated scenario field '\(field)' holds more than letters, digits and '-'"
        case .stepsNotBase64URL:
            "the steps field is not base64url"
        case .compressedStepsCorrupt:
            "the compressed steps field is corrupt"
        case .stepCutShort(let step):
            "step \(step) is cut short"
        case let .unknownOperation(step, code):
            "step \(step) has an unknown operation code \(code)"
        case .missingJobChoice(let step):
            "step \(step) lacks the job it chose"
        }
    }
}
