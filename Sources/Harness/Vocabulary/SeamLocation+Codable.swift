import Primitives

// A source location in a failure's wire form: its file ID and line.
extension SeamLocation: Codable {
    private enum CodingKeys: String, CodingKey {
        case file, line
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let file = try container.decode(String.self, forKey: .file)
        self.init(fileIDText: file, line: try container.decode(UInt.self, forKey: .line))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(fileID, forKey: .file)
        try container.encode(line, forKey: .line)
    }
}
