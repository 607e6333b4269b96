import Foundation
import WebDAVWire

/// A sync place on a WebDAV server (Nextcloud, ownCloud, a NAS, Apache's mod_dav): a collection
/// reached with a user name and an (app) password, over HTTPS on the open network. Files are
/// listed with PROPFIND, read with GET and created with PUT and `If-None-Match: *`, which the
/// server refuses (412) when the name is taken, so a file is never replaced; collections are made
/// with MKCOL. Nothing relies on the server's clocks or modification times.
///
/// The server is not trusted: no redirect is followed (the password would go with it, wherever the
/// server says), and no more of an answer is taken in than sync can use.
///
/// The requests themselves are made by Flourish's WebDAV helper process (`WebDAVHelper`), the one
/// part of Flourish that links a network stack.
public struct WebDAVPlace: SyncPlace {
    /// The collection, always ending in "/", without user or password.
    public let collection: URL
    public let user: String
    private let password: String
    /// The address as the person knows it: with the user, never the password.
    public let displayName: String
    private let timeout: TimeInterval
    /// Shared by the place's copies; the helper process ends with the last of them.
    private let helper: WebDAVHelper
    /// How a busy server is waited for (see `BusyServer`), and who hears of each wait.
    private let busy: BusyServer
    private let waits = BusyWaits()

    /// `address` is "https://anna@cloud.example.org/remote.php/dav/files/anna/Flourish/"; the
    /// user name is taken from it, and a password written into it is refused rather than kept.
    public init(address: String, password: String, timeout: TimeInterval = 30) throws(SyncError) {
        try self.init(address: address, password: password, timeout: timeout, helper: WebDAVHelper())
    }

    init(address: String, password: String, timeout: TimeInterval = 30, helper: WebDAVHelper,
         busy: BusyServer = BusyServer()) throws(SyncError) {
        // Checked first: an address with a password in it is never repeated in a message.
        let authority = address.split(separator: "/", maxSplits: 3).dropFirst().first ?? ""
        let userInfo = authority.contains("@") ? authority.prefix { $0 != "@" } : ""
        guard !userInfo.contains(":") else {
            throw .other(reason: tr("write the address without its password; Flourish asks for the password on its own"))
        }
        guard var parts = URLComponents(string: address), let scheme = parts.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = parts.host, !host.isEmpty
        else { throw .missing(place: address) }
        // Over plain HTTP the password would cross the network readable: only on this machine.
        guard scheme == "https" || ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host.lowercased()) else {
            throw .other(reason: tr("a WebDAV server is reached over https://; plain http:// is only for one on this computer"))
        }
        user = parts.user ?? ""
        parts.user = nil
        if !parts.path.hasSuffix("/") { parts.path += "/" }
        guard let collection = parts.url else { throw .missing(place: address) }
        self.collection = collection
        self.password = password
        self.timeout = timeout
        self.helper = helper
        self.busy = busy
        var shown = parts
        shown.user = user.isEmpty ? nil : user
        displayName = shown.string ?? address
    }

    /// A PROPFIND's headers: its depth, and its body said to be XML, which lighttpd requires
    /// (415 without it) and Nextcloud's SabreDAV expects.
    static func propfindHeaders(depth: String) -> [String: String] {
        ["Depth": depth, "Content-Type": "application/xml; charset=utf-8"]
    }

    public func prepare(create: Bool) throws(SyncError) {
        let status = try request("PROPFIND", collection, headers: Self.propfindHeaders(depth: "0"), body: Self.propfind, limit: listing).status
        switch status {
        case 207, 200: return
        case 404 where create:
            let made = try request("MKCOL", collection).status
            switch made {
            case 201: return
            // 409: the parent collection is missing.
            case 409: throw .missing(place: displayName)
            default: throw failure(made)
            }
        default: throw failure(status)
        }
    }

    public func list(_ folder: String) throws(SyncError) -> [String] {
        let url = folder.isEmpty ? collection : collection.appendingPathComponent(folder, isDirectory: true)
        let answer = try request("PROPFIND", url, headers: Self.propfindHeaders(depth: "1"), body: Self.propfind, limit: listing, listing: true)
        if answer.status == 404 { return [] }
        guard answer.status == 207 else { throw failure(answer.status) }
        guard let files = answer.files else { throw .notAJournal(place: displayName) }
        return files.compactMap { href in
            // Each href is a path (or a whole URL) ending in the file's name, percent-encoded.
            let path = URL(string: href)?.path ?? href
            let name = (path as NSString).lastPathComponent
            return name.isEmpty || name.hasPrefix(".") ? nil : name
        }
    }

    public func read(_ name: String) throws(SyncError) -> Data? {
        // Refused whole, never read in part: a file cut short fails its check anyway.
        let file = Limit(bytes: SyncLimits.largestFile, exceeded: .skippedFile(name: name))
        let answer = try request("GET", url(of: name), limit: file)
        switch answer.status {
        case 200: return answer.body
        case 404: return nil
        default: throw failure(answer.status)
        }
    }

    public func create(_ name: String, contents: Data) throws(SyncError) {
        let folder = (name as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            let status = try request("MKCOL", collection.appendingPathComponent(folder, isDirectory: true)).status
            // 405: it is there already.
            guard [201, 405].contains(status) else { throw failure(status) }
        }
        let status = try request("PUT", url(of: name), headers: ["If-None-Match": "*", "Content-Type": "application/octet-stream"],
                                 body: contents).status
        switch status {
        case 200, 201, 204: return
        case 412: throw .fileExists(name: name)
        default: throw failure(status)
        }
    }

    /// A PUT without If-None-Match: the server swaps the file whole.
    public func replace(_ name: String, contents: Data) throws(SyncError) {
        let status = try request("PUT", url(of: name), headers: ["Content-Type": "application/octet-stream"], body: contents).status
        guard [200, 201, 204].contains(status) else { throw failure(status) }
    }

    public func remove(_ name: String) throws(SyncError) {
        let status = try request("DELETE", url(of: name)).status
        guard [200, 204, 404].contains(status) else { throw failure(status) }
    }

    private func url(of name: String) -> URL {
        name.split(separator: "/").reduce(collection) { $0.appendingPathComponent(String($1)) }
    }

    /// What an HTTP status means for the person.
    private func failure(_ status: Int) -> SyncError {
        switch status {
        case 401: .wrongPassword(place: displayName)
        case 403: .permissionDenied(place: displayName)
        case 404, 409: .missing(place: displayName)
        case 507: .full(place: displayName)
        default: .serverError(place: displayName, status: status)
        }
    }

    private static let propfind = Data("""
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/></d:prop></d:propfind>
        """.utf8)

    /// How much of an answer Flourish takes in, and what it says when a server sends more.
    private struct Limit {
        let bytes: Int
        let exceeded: SyncError
    }

    /// A journal's listing stays well under a megabyte, its batches folded into snapshots; past
    /// this, the collection holds something else.
    private var listing: Limit { Limit(bytes: 64 << 20, exceeded: .notAJournal(place: displayName)) }
    /// What MKCOL, PUT and DELETE answer is read for its status alone.
    private var reply: Limit {
        let reason = tr("the server answered with far more than was asked")
        return Limit(bytes: 1 << 20, exceeded: .unreachable(place: displayName, reason: reason))
    }

    /// What a server answered: its status, and its bytes, or a listing's files (nil when the
    /// answer was no multi-status).
    private struct Answer {
        let status: Int
        var body = Data()
        var files: [String]?
    }

    public func hearBusy(_ heard: @escaping @Sendable (Int) -> Void) {
        waits.hear(heard)
    }

    /// One request, made again while the server says it is busy (423, 429, 503), a few times at
    /// most and after the wait it asks for (see `BusyServer`). Past the last try, or when the
    /// journal closes meanwhile, `.busy`.
    private func request(_ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil,
                         limit: Limit? = nil, listing: Bool = false) throws(SyncError) -> Answer {
        for attempt in 0... {
            let (answer, retryAfter) = try requestOnce(method, url, headers: headers, body: body, limit: limit, listing: listing)
            guard BusyServer.statuses.contains(answer.status) else { return answer }
            guard let wait = busy.wait(after: attempt, retryAfter: retryAfter), waits.wait(wait) else { break }
        }
        throw .busy(place: displayName)
    }

    /// One request, made by the helper and waited for: sync runs off the GTK thread, one request
    /// at a time. An answer past its limit is refused at once.
    private func requestOnce(_ method: String, _ url: URL, headers: [String: String], body: Data?,
                             limit: Limit?, listing: Bool) throws(SyncError) -> (Answer, retryAfter: String?) {
        var headers = headers
        // Sent with every request rather than after a 401: one round trip each.
        headers["Authorization"] = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        let limit = limit ?? reply
        let wire = WebDAVRequest(method: method, url: url.absoluteString, headers: headers, timeout: timeout, limit: limit.bytes,
                                 listing: listing, hasBody: body != nil)
        guard let (outcome, answer) = helper.exchange(wire, body: body ?? Data()) else {
            throw .unreachable(place: displayName, reason: tr("Flourish's WebDAV helper (flourish-webdav) is missing or stopped"))
        }
        switch outcome.kind {
        case .answered: return (Answer(status: outcome.status, body: answer, files: outcome.files), outcome.retryAfter)
        case .redirected: throw refusedRedirect(to: outcome.target.flatMap { URL(string: $0) })
        case .tooLarge: throw limit.exceeded
        case .failed: throw .unreachable(place: displayName, reason: outcome.reason ?? tr("no answer"))
        }
    }

    /// A redirect, in words: where to (the server alone, never a path or query that may hold a
    /// token), and that the password did not go there.
    private func refusedRedirect(to target: URL?) -> SyncError {
        var server = URLComponents()
        (server.scheme, server.host, server.port) = (target?.scheme, target?.host, target?.port)
        guard server.host != nil, let shown = server.string else {
            let reason = tr("the server sent Flourish elsewhere; Flourish follows no redirect, so the password went nowhere else")
            return .unreachable(place: displayName, reason: reason)
        }
        let words = tr("the server sent Flourish elsewhere, to %@; Flourish follows no redirect, so the password went nowhere else")
        return .unreachable(place: displayName, reason: String(format: words, shown))
    }
}
