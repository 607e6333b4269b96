import CSodium
import Foundation

/// A passphrase or recovery key as the person typed it: its UTF-8 bytes in memory of its own,
/// wiped when the last reference goes. Never a Swift `String`, whose buffers are freed without
/// being wiped and copied as they are passed around: the unlock page, the lock's questions and
/// the lock's commands read what is typed straight into one (`init(reading:)`).
public final class Passphrase: @unchecked Sendable {
    private let bytes: UnsafeMutableRawBufferPointer

    /// A copy of `count` bytes at `start` (the caller wipes its own).
    public init(copying start: UnsafeRawPointer?, count: Int) {
        // One byte at least, so that even an empty passphrase has an address to hand over.
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 1)
        bytes.initializeMemory(as: UInt8.self, repeating: 0)
        if let start, count > 0 { bytes.baseAddress?.copyMemory(from: start, byteCount: count) }
        self.count = count
    }

    /// A copy of `bytes` (the caller wipes its own).
    public convenience init(bytes: [UInt8]) {
        self.init(copying: bytes, count: bytes.count)
    }

    /// Text that is a `String` already and no one's secret: tests, the benchmark. What a person
    /// types never passes through here.
    public convenience init(_ text: String) {
        var utf8 = Array(text.utf8)
        defer { sodium_memzero(&utf8, utf8.count) }
        self.init(copying: utf8, count: utf8.count)
    }

    deinit {
        sodium_memzero(bytes.baseAddress, bytes.count)
        bytes.deallocate()
    }

    /// How many bytes.
    public let count: Int

    public var isEmpty: Bool { count == 0 }

    /// How many characters (Unicode scalars, counted from the UTF-8 bytes): "at least 8".
    public var characterCount: Int {
        bytes.prefix(count).reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }

    /// Whether both hold the same bytes.
    public func isSame(as other: Passphrase) -> Bool {
        count == other.count && sodium_memcmp(bytes.baseAddress, other.bytes.baseAddress, count) == 0
    }

    /// Runs `body` with the bytes (valid only during the call).
    func withBytes<T, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T {
        try body(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[0..<count]))
    }
}
