/// The texts that name one execution for the process's records: its token without the steps
/// (for the schedule record), and what the crash report prints before and after the schedule.
/// Written from templates in which a stand-in byte marks the execution's number, into buffers
/// kept from one execution to the next: each execution writes only its number's digits (the
/// rest is laid out again when the number's width changes), and once the buffers have grown to
/// fit, naming an execution allocates nothing. Used by one thread at a time.
final class ExecutionTexts {
    /// One text: its template, and the bytes written for the execution named last.
    private struct Text {
        /// The template's parts, split at the stand-in.
        let parts: [[CChar]]
        /// The parts' bytes together.
        let partsLength: Int
        /// How many stand-ins the template has.
        let standIns: Int
        /// The text, NUL-terminated, in memory of its own (freed by ``free()``): lent as it
        /// is, where an array's buffer was retained and released each time it was lent.
        private(set) var bytes: UnsafeMutableBufferPointer<CChar>
        /// Where each stand-in's number begins in `bytes`, as laid out for the width written
        /// last; empty before the first.
        var numberOffsets: [Int] = []

        init(_ template: String, standIn: UInt8) {
            parts = template.utf8.split(separator: standIn, omittingEmptySubsequences: false).map { part in
                part.map { CChar(bitPattern: $0) }
            }
            partsLength = parts.reduce(0) { $0 + $1.count }
            standIns = parts.count - 1
            bytes = Self.owned(parts[0] + [0])
        }

        /// Writes the execution number's `digits` in place of each stand-in. The parts around
        /// them are laid out again only when the number's width changes.
        mutating func name(digits: UnsafeBufferPointer<CChar>) {
            // A template without a stand-in was written whole when the text was made.
            guard standIns > 0 else { return }
            if numberOffsets.isEmpty || bytes.count != partsLength + standIns * digits.count + 1 {
                layOut(width: digits.count)
            }
            for offset in numberOffsets {
                (bytes.baseAddress! + offset).update(from: digits.baseAddress!, count: digits.count)
            }
        }

        /// Writes the parts with room for a number of `width` digits between each two, and
        /// the NUL, and notes where the numbers go.
        private mutating func layOut(width: Int) {
            var laidOut: [CChar] = []
            numberOffsets.removeAll(keepingCapacity: true)
            for (index, part) in parts.enumerated() {
                if index > 0 {
                    numberOffsets.append(laidOut.count)
                    laidOut.append(contentsOf: repeatElement(0, count: width))
                }
                laidOut.append(contentsOf: part)
            }
            laidOut.append(0)
            free()
            bytes = Self.owned(laidOut)
        }

        /// `text`, copied to memory of its own.
        private static func owned(_ text: [CChar]) -> UnsafeMutableBufferPointer<CChar> {
            let bytes = UnsafeMutableBufferPointer<CChar>.allocate(capacity: text.count)
            _ = bytes.initialize(from: text)
            return bytes
        }

        /// Frees the text's bytes; the text is not used again until laid out anew.
        func free() {
            bytes.deallocate()
        }
    }

    // Used by one thread at a time, and no access to a text outlives a call: exempt from
    // dynamic exclusivity checking, which took six `swift_beginAccess` calls an execution.
    @exclusivity(unchecked) private var token: Text
    @exclusivity(unchecked) private var crashPrefix: Text
    @exclusivity(unchecked) private var crashSuffix: Text

    /// Texts made from `token`, `crashPrefix` and `crashSuffix`, in which each `standIn`
    /// (a byte that never occurs in them otherwise) stands for the execution's number.
    init(token: String, crashPrefix: String, crashSuffix: String, standIn: UInt8) {
        self.token = Text(token, standIn: standIn)
        self.crashPrefix = Text(crashPrefix, standIn: standIn)
        self.crashSuffix = Text(crashSuffix, standIn: standIn)
    }

    deinit {
        token.free()
        crashPrefix.free()
        crashSuffix.free()
    }

    /// Writes the texts of execution `number`.
    func name(execution number: Int) {
        ExecutionTexts.withDecimal(number) { digits in
            token.name(digits: digits)
            crashPrefix.name(digits: digits)
            crashSuffix.name(digits: digits)
        }
    }

    /// Lends the texts of the execution named last, as C strings valid during `body`.
    func withCStrings<Result>(
        _ body: (
            _ token: UnsafePointer<CChar>, _ crashPrefix: UnsafePointer<CChar>, _ crashSuffix: UnsafePointer<CChar>
        ) -> Result
    ) -> Result {
        body(
            UnsafePointer(token.bytes.baseAddress!), UnsafePointer(crashPrefix.bytes.baseAddress!),
            UnsafePointer(crashSuffix.bytes.baseAddress!))
    }

    /// Lends `number`'s decimal digits, as `String(number)` writes them, without making a
    /// string.
    private static func withDecimal(_ number: Int, _ body: (UnsafeBufferPointer<CChar>) -> Void) {
        // Int.min's nineteen digits and its sign.
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 20) { buffer in
            var start = buffer.endIndex
            var magnitude = number.magnitude
            repeat {
                start -= 1
                buffer[start] = CChar(UInt8(ascii: "0") + UInt8(magnitude % 10))
                magnitude /= 10
            } while magnitude > 0
            if number < 0 {
                start -= 1
                buffer[start] = CChar(UInt8(ascii: "-"))
            }
            body(UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }
}
