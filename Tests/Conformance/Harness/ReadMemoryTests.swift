import CShim
import Foundation
import Testing

/// `cshim_read_memory`, with which the harness walks a suspended task's async frames: a
/// frame pointer the runtime has not linked, or has let go, must end the walk, not the process.
@Suite("Harness: reading memory that may not be there")
struct ReadMemoryTests {
    @Test("a readable address is copied")
    func readable() {
        let source: [UInt64] = [0x0123_4567_89AB_CDEF, 42]
        var copy: [UInt64] = [0, 0]
        let result = source.withUnsafeBytes { from in
            copy.withUnsafeMutableBytes { into in cshim_read_memory(from.baseAddress, into.baseAddress, into.count) }
        }
        #expect(result == 0)
        #expect(copy == source)
    }

    @Test("an address that is not mapped readable fails with EFAULT instead of crashing")
    func unreadable() throws {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let page = try #require(mmap(nil, pageSize, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        #expect(page != MAP_FAILED)
        defer { munmap(page, pageSize) }
        var copy: UInt64 = 0
        let result = withUnsafeMutableBytes(of: &copy) { into in
            cshim_read_memory(page, into.baseAddress, into.count)
        }
        #expect(result == -1)
        #expect(errno == EFAULT)
        #expect(copy == 0)
    }
}
