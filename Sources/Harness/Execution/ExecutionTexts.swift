/// The texts that name one execution for the process's records: its token without the steps
/// (for the schedule record), and what the crash report prints before and after the schedule.
/// Written from templates in which a stand-in byte marks the execution's number, into buffers
/// kept from one execution to the next: once they have grown to fit, naming an execution
/// allocates nothing. Used by one thread at a time.
final class ExecutionTexts {
    /// The token's, the crash prefix's and the crash suffix's templates, each split at the
    /// stand-in.
    private let templates: [[ArraySlice<UInt8>]]
    /// The texts for the execution named last, in the templates' order, each NUL-terminated.
    private var texts: [[CChar]]

    /// Texts made from `token`, `crashPrefix` and `crashSuffix`, in which each `standIn`
    /// (a byte that never occurs in them otherwise) stands for the execution's number.
    init(token: String, crashPrefix: String, crashSuffix: String, standIn: UInt8) {
        templates = [token, crashPrefix, crashSuffix].map { text in
            Array(text.utf8).split(separator: standIn, omittingEmptySubsequences: false)
        }
        texts = Array(repeating: [], count: templates.count)
    }

    /// Writes the texts of execution `number`.
    func name(execution number: Int) {
        for index in templates.indices {
            texts[index].removeAll(keepingCapacity: true)
            for (position, part) in templates[index].enumerated() {
                if position > 0 { Self.appendDecimal(number, to: &texts[index]) }
                for byte in part { texts[index].append(CChar(bitPattern: byte)) }
            }
            texts[index].append(0)
        }
    }

    /// Lends the texts of the execution named last, as C strings valid during `body`.
    func withCStrings<Result>(
        _ body: (
            _ token: UnsafePointer<CChar>, _ crashPrefix: UnsafePointer<CChar>, _ crashSuffix: UnsafePointer<CChar>
        ) -> Result
    ) -> Result {
        texts[0].withUnsafeBufferPointer { token in
            texts[1].withUnsafeBufferPointer { prefix in
                texts[2].withUnsafeBufferPointer { suffix in
                    body(token.baseAddress!, prefix.baseAddress!, suffix.baseAddress!)
                }
            }
        }
    }

    /// Appends `number`'s decimal digits, as `String(number)` writes them, without making
    /// a string.
    private static func appendDecimal(_ number: Int, to text: inout [CChar]) {
        if number < 0 { text.append(CChar(UInt8(ascii: "-"))) }
        let start = text.count
        var rest = number.magnitude
        repeat {
            text.append(CChar(UInt8(ascii: "0") + UInt8(rest % 10)))
            rest /= 10
        } while rest > 0
        text[start...].reverse()
    }
}
