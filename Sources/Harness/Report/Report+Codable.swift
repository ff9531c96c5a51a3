import Primitives

// The wire form of reports: how an isolated child hands its exploration back to the test's
// process, and how tools keep a report.

extension OperationKind: Codable {}

extension TraceStep: Codable {
    private enum CodingKeys: String, CodingKey {
        case thread, kind, target, choice, file, line, task, bookkeeping, call
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let file = try container.decodeIfPresent(String.self, forKey: .file)
        let line = try container.decodeIfPresent(UInt.self, forKey: .line)
        self.init(
            thread: try container.decodeIfPresent(Int.self, forKey: .thread),
            kind: try container.decode(OperationKind.self, forKey: .kind),
            target: try container.decodeIfPresent(TraceTarget.self, forKey: .target),
            choice: try container.decodeIfPresent(Int.self, forKey: .choice),
            location: file.map { SeamLocation(fileIDText: $0, line: line ?? 0) },
            task: try container.decodeIfPresent(Int.self, forKey: .task),
            isBookkeeping: try container.decodeIfPresent(Bool.self, forKey: .bookkeeping) ?? false,
            call: try container.decodeIfPresent(DropInCall.self, forKey: .call)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(thread, forKey: .thread)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(target, forKey: .target)
        try container.encodeIfPresent(choice, forKey: .choice)
        try container.encodeIfPresent(location?.fileID, forKey: .file)
        try container.encodeIfPresent(location?.line, forKey: .line)
        try container.encodeIfPresent(task, forKey: .task)
        if isBookkeeping { try container.encode(true, forKey: .bookkeeping) }
        try container.encodeIfPresent(call, forKey: .call)
    }
}

extension ReplayToken: Codable {
    public init(from decoder: any Decoder) throws {
        self = try decodeText(decoder) { text throws(ReplayTokenError) in try ReplayToken(parsing: text) }
    }

    public func encode(to encoder: any Encoder) throws {
        try encodeText(description, encoder)
    }
}

extension Strategy: Codable {
    public init(from decoder: any Decoder) throws {
        self = try decodeText(decoder) { text throws(HarnessConfigurationError) in try Strategy(parsing: text) }
    }

    public func encode(to encoder: any Encoder) throws {
        try encodeText(description, encoder)
    }
}

/// Decodes a value coded as its text form, which `parse` reads.
private func decodeText<Value, Failure: Error>(_ decoder: any Decoder, _ parse: (String) throws(Failure) -> Value)
    throws -> Value
{
    let text = try decoder.singleValueContainer().decode(String.self)
    do {
        return try parse(text)
    } catch {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(error)"))
    }
}

/// Encodes a value as its text form.
private func encodeText(_ text: String, _ encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(text)
}
