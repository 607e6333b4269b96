import Foundation

// What passes between Flourish and its WebDAV helper, `flourish-webdav`: a request, then its
// outcome, each one message on a local socket. The helper alone links Foundation's network stack
// (libcurl and some thirty libraries under it), which every start of the app would otherwise
// load, relocate and keep in memory for a sync through WebDAV that most starts never make.

/// One HTTP request to the WebDAV server; its body travels beside it.
public struct WebDAVRequest: Codable, Sendable {
    public var method: String
    public var url: String
    public var headers: [String: String]
    /// Seconds without an answer before the request fails.
    public var timeout: Double
    /// An answer past this many bytes is refused, and none of it kept.
    public var limit: Int
    /// The answer is a PROPFIND's multi-status: the helper reads it, and sends back the hrefs of
    /// its files instead of its bytes.
    public var listing: Bool
    /// Whether the request has a body (an empty file's PUT has one of no bytes; a GET has none).
    public var hasBody: Bool

    public init(method: String, url: String, headers: [String: String], timeout: Double, limit: Int, listing: Bool,
                hasBody: Bool) {
        (self.method, self.url, self.headers, self.timeout) = (method, url, headers, timeout)
        (self.limit, self.listing, self.hasBody) = (limit, listing, hasBody)
    }
}

/// What became of a request; the answer's bytes travel beside it.
public struct WebDAVOutcome: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        /// The server answered with `status`.
        case answered
        /// The server sent the request elsewhere (to `target`, when it said where); not followed.
        case redirected
        /// The answer passed the request's limit.
        case tooLarge
        /// No answer: the server could not be reached, or stopped (`reason` says why, when known).
        case failed
    }

    public var kind: Kind
    public var status: Int
    public var target: String?
    public var reason: String?
    /// A listing's files (collections left out); nil when the answer was no multi-status.
    public var files: [String]?
    /// The answer's `Retry-After` header, as sent (a busy server's 423, 429 or 503).
    public var retryAfter: String?

    public init(kind: Kind, status: Int = 0, target: String? = nil, reason: String? = nil, files: [String]? = nil,
                retryAfter: String? = nil) {
        (self.kind, self.status, self.target, self.reason, self.files) = (kind, status, target, reason, files)
        self.retryAfter = retryAfter
    }
}

/// One message: its header's length and its body's (8 bytes each, little-endian), the header as
/// JSON, then the body.
public enum WebDAVWire {
    /// More than any request or answer sync makes (files are at most 256 MiB): a length past it
    /// means the other end is not speaking this protocol, and nothing is allocated for it.
    public static let largestMessage = 1 << 30

    /// Writes one message to the socket `descriptor`; false when the other end is gone.
    public static func send(_ header: some Encodable, body: Data, to descriptor: Int32) -> Bool {
        guard let json = try? JSONEncoder().encode(header) else { return false }
        var lengths = Data(count: 16)
        lengths.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: UInt64(json.count).littleEndian, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: UInt64(body.count).littleEndian, toByteOffset: 8, as: UInt64.self)
        }
        return [lengths, json, body].allSatisfy { write($0, to: descriptor) }
    }

    /// Reads one message from the socket `descriptor`; nil at its end, or for anything that is
    /// not a message.
    public static func receive<Header: Decodable>(_ type: Header.Type, from descriptor: Int32) -> (Header, Data)? {
        guard let lengths = read(16, from: descriptor) else { return nil }
        let (headerLength, bodyLength) = lengths.withUnsafeBytes { raw in
            (UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
             UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
        guard headerLength <= largestMessage, bodyLength <= largestMessage,
              let json = read(Int(headerLength), from: descriptor), let body = read(Int(bodyLength), from: descriptor),
              let header = try? JSONDecoder().decode(type, from: json) else { return nil }
        return (header, body)
    }

    /// MSG_NOSIGNAL: a helper that has gone makes a failed write, not a SIGPIPE that ends the app.
    private static func write(_ data: Data, to descriptor: Int32) -> Bool {
        data.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let count = Glibc.send(descriptor, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                sent += count
            }
            return true
        }
    }

    private static func read(_ count: Int, from descriptor: Int32) -> Data? {
        var data = Data(count: count)
        let complete = data.withUnsafeMutableBytes { raw in
            var received = 0
            while received < count {
                let got = recv(descriptor, raw.baseAddress! + received, count - received, 0)
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { return false }
                received += got
            }
            return true
        }
        return complete ? data : nil
    }
}
