import Primitives
import Testing

@Suite("Runtime seam: source locations")
struct SeamLocationTests {
    @Test("a location read back as text equals, and hashes as, the literal one it was written from")
    func textEqualsLiteral() {
        let literal = SeamLocation(fileID: "Module/Code.swift", line: 12)
        let text = SeamLocation(fileIDText: "Module/" + "Code.swift", line: 12)
        #expect(text == literal)
        #expect(text.hashValue == literal.hashValue)
        #expect(Set([literal, text]).count == 1)
        #expect(text.fileID == "Module/Code.swift" && text.fileName == "Code.swift")
        #expect(text.description == "Module/Code.swift:12")
        #expect(text != SeamLocation(fileIDText: "Module/Code.swift", line: 13))
        #expect(text != SeamLocation(fileIDText: "Module/Code.swif", line: 12))
    }

    @Test("a file ID given as text keeps its bytes after the string is gone, and is kept once")
    func internedText() {
        var locations: [SeamLocation] = []
        for line in 1...3 {
            // A fresh string each time, released at the end of the iteration.
            let fileID = String(decoding: Array("Module/Ünïcode \(40 + 2).swift".utf8), as: UTF8.self)
            locations.append(SeamLocation(fileIDText: fileID, line: UInt(line)))
        }
        #expect(locations.map(\.fileID) == Array(repeating: "Module/Ünïcode 42.swift", count: 3))
        #expect(locations.map(\.description) == (1...3).map { "Module/Ünïcode 42.swift:\($0)" })
        #expect(SeamLocation(fileIDText: "", line: 0).fileID.isEmpty)
    }

    @Test("the file name is what follows the file ID's last slash, or the whole ID without one")
    func fileName() {
        #expect(SeamLocation(fileID: "Module/Code.swift", line: 1).fileName == "Code.swift")
        #expect(SeamLocation(fileIDText: "Module/Sub/Deep.swift", line: 1).fileName == "Deep.swift")
        #expect(SeamLocation(fileIDText: "Alone.swift", line: 1).fileName == "Alone.swift")
        #expect(SeamLocation(fileIDText: "Ünï/Çødé ⁄ 42.swift", line: 1).fileName == "Çødé ⁄ 42.swift")
        #expect(SeamLocation(fileIDText: "Module/", line: 1).fileName.isEmpty)
        #expect(SeamLocation(fileIDText: "", line: 1).fileName.isEmpty)
    }

    @Test("a location is a plain value: copying one retains nothing")
    func plainValue() {
        #expect(_isPOD(SeamLocation.self))
        #expect(_isPOD(SeamLocation?.self))
    }
}
