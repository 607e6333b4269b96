import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A sync place on a WebDAV server (Nextcloud, ownCloud, a NAS, Apache's mod_dav): a collection
/// reached with a user name and an (app) password, over HTTPS on the open network. Files are
/// listed with PROPFIND, read with GET and created with PUT and `If-None-Match: *`, which the
/// server refuses (412) when the name is taken, so a file is never replaced; collections are made
/// with MKCOL. Nothing relies on the server's clocks or modification times.
///
/// The server is not trusted: no redirect is followed (the password would go with it, wherever the
/// server says), and no more of an answer is taken in than sync can use.
public struct WebDAVPlace: SyncPlace {
    /// The collection, always ending in "/", without user or password.
    public let collection: URL
    public let user: String
    private let password: String
    /// The address as the person knows it: with the user, never the password.
    public let displayName: String
    private let timeout: TimeInterval

    /// `address` is "https://anna@cloud.example.org/remote.php/dav/files/anna/Flourish/"; the
    /// user name is taken from it, and a password written into it is refused rather than kept.
    public init(address: String, password: String, timeout: TimeInterval = 30) throws(SyncError) {
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
        var shown = parts
        shown.user = user.isEmpty ? nil : user
        displayName = shown.string ?? address
    }

    public func prepare(create: Bool) throws(SyncError) {
        let (status, _) = try request("PROPFIND", collection, headers: ["Depth": "0"], body: Self.propfind, limit: listing)
        switch status {
        case 207, 200: return
        case 404 where create:
            let (made, _) = try request("MKCOL", collection)
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
        let (status, body) = try request("PROPFIND", url, headers: ["Depth": "1"], body: Self.propfind, limit: listing)
        if status == 404 { return [] }
        guard status == 207 else { throw failure(status) }
        let listing = MultiStatus(body)
        guard listing.parsed else { throw .notAJournal(place: displayName) }
        return listing.files.compactMap { href in
            // Each href is a path (or a whole URL) ending in the file's name, percent-encoded.
            let path = URL(string: href)?.path ?? href
            let name = (path as NSString).lastPathComponent
            return name.isEmpty || name.hasPrefix(".") ? nil : name
        }
    }

    public func read(_ name: String) throws(SyncError) -> Data? {
        // Refused whole, never read in part: a file cut short fails its check anyway.
        let file = Limit(bytes: SyncLimits.largestFile, exceeded: .skippedFile(name: name))
        let (status, body) = try request("GET", url(of: name), limit: file)
        switch status {
        case 200: return body
        case 404: return nil
        default: throw failure(status)
        }
    }

    public func create(_ name: String, contents: Data) throws(SyncError) {
        let folder = (name as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            let (status, _) = try request("MKCOL", collection.appendingPathComponent(folder, isDirectory: true))
            // 405: it is there already.
            guard [201, 405].contains(status) else { throw failure(status) }
        }
        let (status, _) = try request("PUT", url(of: name), headers: ["If-None-Match": "*", "Content-Type": "application/octet-stream"],
                                      body: contents)
        switch status {
        case 200, 201, 204: return
        case 412: throw .fileExists(name: name)
        default: throw failure(status)
        }
    }

    /// A PUT without If-None-Match: the server swaps the file whole.
    public func replace(_ name: String, contents: Data) throws(SyncError) {
        let (status, _) = try request("PUT", url(of: name), headers: ["Content-Type": "application/octet-stream"], body: contents)
        guard [200, 201, 204].contains(status) else { throw failure(status) }
    }

    public func remove(_ name: String) throws(SyncError) {
        let (status, _) = try request("DELETE", url(of: name))
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

    /// One request, waited for: sync runs off the GTK thread, one request at a time. An answer
    /// past its limit is refused at once; its task, cancelled, may go on a moment longer, its
    /// bytes dropped as they come.
    private func request(_ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil,
                         limit: Limit? = nil) throws(SyncError) -> (Int, Data) {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        // Sent with every request rather than after a 401: one round trip each.
        let credentials = Data("\(user):\(password)".utf8).base64EncodedString()
        request.setValue("Basic \(credentials)", forHTTPHeaderField: "Authorization")
        let limit = limit ?? reply
        let exchange = Exchange(limit: limit.bytes)
        let task = Self.session.dataTask(with: request)
        Self.exchanges.watch(task, exchange)
        task.resume()
        switch exchange.wait() {
        case let .answered(status, body): return (status, body)
        case let .redirected(target): throw refusedRedirect(to: target)
        case .tooLarge: throw limit.exceeded
        case let .failed(error): throw .unreachable(place: displayName, reason: error?.localizedDescription ?? tr("no answer"))
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

    private static let exchanges = Exchanges()
    /// Ephemeral: nothing (cookies, cache, credentials) is written to disk.
    private static let session = URLSession(configuration: .ephemeral, delegate: exchanges, delegateQueue: InlineQueue())
}
