/// The texts that name one execution for the process's records: its token without the steps
/// (for the schedule record), and what the crash report prints before and after the schedule.
/// Written from templates in which a stand-in byte marks the execution's number, into buffers
/// kept from one execution to the next: each execution rewrites only what follows a buffer's
/// first stand-in, and once the buffers have grown to fit, naming an execution allocates
/// nothing. Used by one thread at a time.
final class ExecutionTexts {
    /// One text: its template, and the bytes written for the execution named last.
    private struct Text {
        /// The template's parts, split at the stand-in.
        let parts: [[CChar]]
        /// The text, NUL-terminated; its first part stays from one execution to the next.
        var bytes: [CChar]

        init(_ template: String, standIn: UInt8) {
            parts = template.utf8.split(separator: standIn, omittingEmptySubsequences: false).map { part in
                part.map { CChar(bitPattern: $0) }
            }
            bytes = parts[0]
        }

        mutating func name(execution number: Int) {
            bytes.removeLast(bytes.count - parts[0].count)
            for part in parts.dropFirst() {
                ExecutionTexts.appendDecimal(number, to: &bytes)
                bytes.append(contentsOf: part)
            }
            bytes.append(0)
        }
    }

    private var token: Text
    private var crashPrefix: Text
    private var crashSuffix: Text

    /// Texts made from `token`, `crashPrefix` and `crashSuffix`, in which each `standIn`
    /// (a byte that never occurs in them otherwise) stands for the execution's number.
    init(token: String, crashPrefix: String, crashSuffix: String, standIn: UInt8) {
        self.token = Text(token, standIn: standIn)
        self.crashPrefix = Text(crashPrefix, standIn: standIn)
        self.crashSuffix = Text(crashSuffix, standIn: standIn)
    }

    /// Writes the texts of execution `number`.
    func name(execution number: Int) {
        token.name(execution: number)
        crashPrefix.name(execution: number)
        crashSuffix.name(execution: number)
    }

    /// Lends the texts of the execution named last, as C strings valid during `body`.
    func withCStrings<Result>(
        _ body: (
            _ token: UnsafePointer<CChar>, _ crashPrefix: UnsafePointer<CChar>, _ crashSuffix: UnsafePointer<CChar>
        ) -> Result
    ) -> Result {
        token.bytes.withUnsafeBufferPointer { token in
            crashPrefix.bytes.withUnsafeBufferPointer { prefix in
                crashSuffix.bytes.withUnsafeBufferPointer { suffix in
                    body(token.baseAddress!, prefix.baseAddress!, suffix.baseAddress!)
                }
            }
        }
    }

    /// Appends `number`'s decimal digits, as `String(number)` writes them, without making
    /// a string.
    private static func appendDecimal(_ number: Int, to text: inout [CChar]) {
        if number < 0 { text.append(CChar(UInt8(ascii: "-"))) }
        let magnitude = number.magnitude
        var place: UInt = 1
        while magnitude / place >= 10 { place *= 10 }
        while place > 0 {
            text.append(CChar(UInt8(ascii: "0") + UInt8(magnitude / place % 10)))
            place /= 10
        }
    }
}
