/// A small LZ77 coding of a schedule's bytes: schedules that spin repeat themselves, so a
/// token for a livelock stays short.
///
/// The coded form is a sequence of chunks, each starting with a varint `header`: an even
/// header is a run of `header / 2` literal bytes that follow; an odd one copies
/// `header / 2 + 3` bytes from `distance` (a varint that follows) bytes back, and may
/// overlap what it writes.
enum StepCompression {
    private static let minimumMatch = 3

    static func compress(_ input: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var literals: [UInt8] = []
        var lastPosition: [Int: Int] = [:]
        var index = 0
        func flushLiterals() {
            guard !literals.isEmpty else { return }
            appendVarint(literals.count << 1, to: &output)
            output += literals
            literals.removeAll(keepingCapacity: true)
        }
        while index < input.count {
            var length = 0
            var distance = 0
            if index + minimumMatch <= input.count, let candidate = lastPosition[key(input, index)] {
                while index + length < input.count && input[candidate + length] == input[index + length] {
                    length += 1
                }
                distance = index - candidate
            }
            if length >= minimumMatch {
                flushLiterals()
                appendVarint((length - minimumMatch) << 1 | 1, to: &output)
                appendVarint(distance, to: &output)
                for position in index..<min(index + length, input.count - minimumMatch + 1) {
                    lastPosition[key(input, position)] = position
                }
                index += length
            } else {
                if index + minimumMatch <= input.count { lastPosition[key(input, index)] = index }
                literals.append(input[index])
                index += 1
            }
        }
        flushLiterals()
        return output
    }

    /// The bytes `input` codes, or `nil` when it is not a valid coding.
    static func decompress(_ input: [UInt8]) -> [UInt8]? {
        var output: [UInt8] = []
        var index = 0
        while index < input.count {
            guard let header = readVarint(input, &index) else { return nil }
            if header & 1 == 0 {
                let count = header >> 1
                guard count <= input.count - index else { return nil }
                output += input[index..<index + count]
                index += count
            } else {
                guard let distance = readVarint(input, &index), distance >= 1, distance <= output.count else {
                    return nil
                }
                let length = (header >> 1) + minimumMatch
                guard length <= 1 << 24 else { return nil }
                let start = output.count - distance
                for offset in 0..<length { output.append(output[start + offset]) }
            }
        }
        return output
    }

    private static func key(_ bytes: [UInt8], _ index: Int) -> Int {
        Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
    }

    private static func appendVarint(_ value: Int, to output: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            output.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        output.append(UInt8(value))
    }

    private static func readVarint(_ bytes: [UInt8], _ index: inout Int) -> Int? {
        var value = 0
        var shift = 0
        while index < bytes.count, shift < 35 {
            let byte = bytes[index]
            index += 1
            value |= Int(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }
}
