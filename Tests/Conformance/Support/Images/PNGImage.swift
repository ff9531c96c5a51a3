/// A PNG image decoded to 8-bit RGBA pixels: enough of PNG for the screenshots a browser
/// writes (8 bits a channel, RGB or RGBA, not interlaced).
struct PNGImage {
    enum Failure: Error, Equatable {
        case notPNG
        case truncated
        case unsupported(String)
        case badFilter(UInt8)
        case badData(Inflate.Failure)
        case wrongSize(expected: Int, found: Int)
    }

    let width: Int
    let height: Int
    /// Four bytes a pixel, row by row.
    let rgba: [UInt8]

    init(_ bytes: [UInt8]) throws(Failure) {
        guard bytes.starts(with: [137, 80, 78, 71, 13, 10, 26, 10]) else { throw .notPNG }
        func integer(at offset: Int) throws(Failure) -> Int {
            guard offset + 4 <= bytes.count else { throw .truncated }
            return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        var header: ArraySlice<UInt8>?
        var data: [UInt8] = []
        var offset = 8
        chunks: while true {
            let length = try integer(at: offset)
            guard offset + 12 + length <= bytes.count else { throw .truncated }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let body = bytes[offset + 8..<offset + 8 + length]
            switch type {
            case "IHDR": header = body
            case "IDAT": data += body
            case "IEND": break chunks
            default: break
            }
            offset += 12 + length
        }
        guard let header, header.count == 13 else { throw .unsupported("no IHDR chunk") }
        let fields = Array(header)
        width = fields[0..<4].reduce(0) { $0 << 8 | Int($1) }
        height = fields[4..<8].reduce(0) { $0 << 8 | Int($1) }
        let (depth, colour, interlace) = (fields[8], fields[9], fields[12])
        guard depth == 8, colour == 2 || colour == 6, interlace == 0 else {
            throw .unsupported("bit depth \(depth), colour type \(colour), interlace \(interlace)")
        }
        let channels = colour == 6 ? 4 : 3
        let raw: [UInt8]
        do {
            raw = try Inflate.zlib(data)
        } catch {
            throw .badData(error)
        }
        let stride = width * channels
        guard raw.count == height * (stride + 1) else {
            throw .wrongSize(expected: height * (stride + 1), found: raw.count)
        }
        rgba = try Self.unfilter(raw, width: width, height: height, channels: channels)
    }

    /// Undoes each row's filter (PNG's five: none, sub, up, average, Paeth) and widens RGB to RGBA.
    private static func unfilter(_ raw: [UInt8], width: Int, height: Int, channels: Int) throws(Failure) -> [UInt8] {
        let stride = width * channels
        var previous = [UInt8](repeating: 0, count: stride)
        var row = [UInt8](repeating: 0, count: stride)
        var rgba: [UInt8] = []
        rgba.reserveCapacity(width * height * 4)
        for y in 0..<height {
            let start = y * (stride + 1)
            let filter = raw[start]
            for x in 0..<stride {
                let value = raw[start + 1 + x]
                let left = x >= channels ? Int(row[x - channels]) : 0
                let up = Int(previous[x])
                let upLeft = x >= channels ? Int(previous[x - channels]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = left
                case 2: predicted = up
                case 3: predicted = (left + up) / 2
                case 4:
                    let estimate = left + up - upLeft
                    let (toLeft, toUp, toUpLeft) = (abs(estimate - left), abs(estimate - up), abs(estimate - upLeft))
                    predicted = toLeft <= toUp && toLeft <= toUpLeft ? left : toUp <= toUpLeft ? up : upLeft
                default: throw .badFilter(filter)
                }
                row[x] = value &+ UInt8(predicted & 0xff)
            }
            for x in 0..<width {
                rgba += row[x * channels..<x * channels + 3]
                rgba.append(channels == 4 ? row[x * channels + 3] : 255)
            }
            swap(&previous, &row)
        }
        return rgba
    }

    /// How many pixels have each colour, as `0xRRGGBB` (alpha ignored).
    var colourCounts: [UInt32: Int] {
        var counts: [UInt32: Int] = [:]
        for pixel in stride(from: 0, to: rgba.count, by: 4) {
            counts[UInt32(rgba[pixel]) << 16 | UInt32(rgba[pixel + 1]) << 8 | UInt32(rgba[pixel + 2]), default: 0] += 1
        }
        return counts
    }
}
