/// Decompresses a zlib stream (RFC 1950, around RFC 1951's deflate), checking its Adler-32:
/// enough to read the PNG screenshots the browser tests take, since Foundation on Linux has
/// no zlib. Decodes Huffman codes a bit at a time, after zlib's `puff.c`: slow, but simple.
enum Inflate {
    enum Failure: Error, Equatable {
        case truncated
        case badHeader
        case badBlockType
        case badStoredLength
        case badCodeLengths
        case badCode
        case badDistance
        case checksumMismatch
    }

    /// The bytes `stream` holds compressed.
    static func zlib(_ stream: [UInt8]) throws(Failure) -> [UInt8] {
        guard stream.count >= 6 else { throw .truncated }
        let method = stream[0], flags = stream[1]
        guard method & 0x0f == 8, method >> 4 <= 7, (UInt16(method) << 8 | UInt16(flags)) % 31 == 0, flags & 0x20 == 0
        else {
            throw .badHeader
        }
        var reader = BitReader(stream, from: 2)
        var output: [UInt8] = []
        var last = false
        while !last {
            last = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0: try stored(&reader, into: &output)
            case 1: try compressed(&reader, literals: fixedLiterals, distances: fixedDistances, into: &output)
            case 2:
                let codes = try dynamicCodes(&reader)
                try compressed(&reader, literals: codes.literals, distances: codes.distances, into: &output)
            default: throw .badBlockType
            }
        }
        reader.dropToByte()
        var checksum: UInt32 = 0
        for _ in 0..<4 { checksum = checksum << 8 | UInt32(try reader.byte()) }
        guard checksum == adler32(output) else { throw .checksumMismatch }
        return output
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for chunk in stride(from: 0, to: bytes.count, by: 5_552) {
            for byte in bytes[chunk..<min(chunk + 5_552, bytes.count)] {
                a += UInt32(byte)
                b += a
            }
            a %= 65_521
            b %= 65_521
        }
        return b << 16 | a
    }

    // MARK: Blocks

    private static func stored(_ reader: inout BitReader, into output: inout [UInt8]) throws(Failure) {
        reader.dropToByte()
        let length = Int(try reader.byte()) | Int(try reader.byte()) << 8
        let complement = Int(try reader.byte()) | Int(try reader.byte()) << 8
        guard length == ~complement & 0xffff else { throw .badStoredLength }
        for _ in 0..<length { output.append(try reader.byte()) }
    }

    private static let lengthBases = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258
    ]
    private static let lengthExtras = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0
    ]
    private static let distanceBases = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577
    ]
    private static let distanceExtras = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13
    ]

    private static func compressed(
        _ reader: inout BitReader,
        literals: Huffman,
        distances: Huffman,
        into output: inout [UInt8]
    ) throws(Failure) {
        while true {
            let symbol = try literals.decode(&reader)
            if symbol < 256 {
                output.append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let index = symbol - 257
                guard index < lengthBases.count else { throw .badCode }
                let length = lengthBases[index] + (try reader.bits(lengthExtras[index]))
                let code = try distances.decode(&reader)
                guard code < distanceBases.count else { throw .badDistance }
                let distance = distanceBases[code] + (try reader.bits(distanceExtras[code]))
                guard distance <= output.count else { throw .badDistance }
                let start = output.count - distance
                for offset in 0..<length { output.append(output[start + offset]) }
            }
        }
    }

    private static let fixedLiterals = try! Huffman(
        lengths: (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 })
    private static let fixedDistances = try! Huffman(lengths: [Int](repeating: 5, count: 30))

    private static func dynamicCodes(_ reader: inout BitReader) throws(Failure) -> (
        literals: Huffman, distances: Huffman
    ) {
        let literalCount = try reader.bits(5) + 257
        let distanceCount = try reader.bits(5) + 1
        let lengthCodeCount = try reader.bits(4) + 4
        var lengthCodeLengths = [Int](repeating: 0, count: 19)
        for position in [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15].prefix(lengthCodeCount) {
            lengthCodeLengths[position] = try reader.bits(3)
        }
        let lengthCode = try Huffman(lengths: lengthCodeLengths)
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            let symbol = try lengthCode.decode(&reader)
            switch symbol {
            case 0..<16:
                lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw .badCodeLengths }
                lengths += repeatElement(previous, count: 3 + (try reader.bits(2)))
            case 17:
                lengths += repeatElement(0, count: 3 + (try reader.bits(3)))
            default:
                lengths += repeatElement(0, count: 11 + (try reader.bits(7)))
            }
        }
        guard lengths.count == literalCount + distanceCount, lengths[256] != 0 else { throw .badCodeLengths }
        return (
            try Huffman(lengths: Array(lengths[..<literalCount])), try Huffman(lengths: Array(lengths[literalCount...]))
        )
    }
}

/// Reads a deflate stream's bits, least significant first.
private struct BitReader {
    private let bytes: [UInt8]
    private var next: Int
    private var buffer: UInt32 = 0
    private var count = 0

    init(_ bytes: [UInt8], from start: Int) {
        self.bytes = bytes
        next = start
    }

    mutating func bits(_ wanted: Int) throws(Inflate.Failure) -> Int {
        while count < wanted {
            guard next < bytes.count else { throw .truncated }
            buffer |= UInt32(bytes[next]) << count
            next += 1
            count += 8
        }
        let value = Int(buffer & (1 << wanted - 1))
        buffer >>= wanted
        count -= wanted
        return value
    }

    /// Drops the rest of the current byte (fewer than 8 bits are ever buffered).
    mutating func dropToByte() {
        buffer = 0
        count = 0
    }

    /// The next whole byte, after ``dropToByte()``.
    mutating func byte() throws(Inflate.Failure) -> UInt8 {
        guard next < bytes.count else { throw .truncated }
        defer { next += 1 }
        return bytes[next]
    }
}

/// A canonical Huffman code, decoded a bit at a time.
private struct Huffman {
    /// How many symbols have a code of each length, 0 to 15.
    private var counts = [Int](repeating: 0, count: 16)
    /// The symbols ordered by code length, then by value.
    private var symbols: [Int] = []

    init(lengths: [Int]) throws(Inflate.Failure) {
        for length in lengths { counts[length] += 1 }
        var left = 1
        for length in 1..<16 {
            left = left << 1 - counts[length]
            guard left >= 0 else { throw .badCodeLengths }
        }
        var offsets = [Int](repeating: 0, count: 16)
        for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
        symbols = [Int](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length != 0 {
            symbols[offsets[length]] = symbol
            offsets[length] += 1
        }
    }

    func decode(_ reader: inout BitReader) throws(Inflate.Failure) -> Int {
        var code = 0, first = 0, index = 0
        for length in 1..<16 {
            code |= try reader.bits(1)
            let count = counts[length]
            if code - count < first { return symbols[index + code - first] }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        throw .badCode
    }
}
