import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(FoundationXML)
import FoundationXML
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
        let file = Limit(bytes: SyncLimits.largestFile, exceeded: .refusedFile(name: name))
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

// MARK: - Requests and their answers

/// URLSession's delegate for every WebDAV request: it hands what comes in to the request's
/// `Exchange`, follows no redirect, and answers every authentication challenge with "no".
private final class Exchanges: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var exchanges: [Int: Exchange] = [:]

    func watch(_ task: URLSessionTask, _ exchange: Exchange) {
        lock.withLock { exchanges[task.taskIdentifier] = exchange }
    }

    private func exchange(of task: URLSessionTask) -> Exchange? {
        lock.withLock { exchanges[task.taskIdentifier] }
    }

    /// Followed, a redirect takes the request wherever the server says, to another host or from
    /// https to http, and Foundation on Linux sends the Authorization header along. The redirect
    /// itself becomes the answer.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        exchange(of: task)?.redirected(to: request.url)
        completionHandler(nil)
    }

    /// The credentials went with the request, so a challenge means the server refused them.
    /// (Without a delegate that says so, Foundation on Linux leaves a request that met a 401
    /// waiting forever.) The refused request is answered as the 401 it was.
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        exchange(of: task)?.refused()
        // Refusing cancels the task: not from URLSession's queue (see InlineQueue).
        nonisolated(unsafe) let refuse = completionHandler
        Self.aside.async { refuse(.cancelAuthenticationChallenge, nil) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let tooLarge = exchange(of: dataTask)?.announced(length: response.expectedContentLength) ?? false
        completionHandler(tooLarge ? .cancel : .allow)
        // Foundation on Linux ignores the disposition: the task is cancelled here.
        if tooLarge { Self.cancel(dataTask) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if exchange(of: dataTask)?.add(data) ?? false { Self.cancel(dataTask) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.withLock { exchanges.removeValue(forKey: task.taskIdentifier) }?.finish(task.response, error: error)
    }

    /// Where a delegate call hands what must not run on URLSession's queue. Concurrent: a cancel
    /// kept waiting holds up no other.
    private static let aside = DispatchQueue.global()

    private static func cancel(_ task: URLSessionTask) {
        aside.async { task.cancel() }
    }
}

/// Runs URLSession's delegate calls at once, on URLSession's own queue, rather than queueing them.
/// Queued, every piece of an answer waits in memory for the delegate, and nothing keeps Foundation
/// from receiving faster than the delegate queue runs: held up for a moment, it had a gigabyte of
/// an endless answer waiting. Run at once, receiving waits for the delegate, and a piece past the
/// limit is let go as it comes. The price: a delegate call must not wait for URLSession's queue,
/// and `URLSessionTask.cancel()` does (Foundation on Linux, Swift 6.3).
private final class InlineQueue: OperationQueue, @unchecked Sendable {
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        block()
    }
}

/// The answer to one request, handed from URLSession's queue to the thread waiting for it.
private final class Exchange: @unchecked Sendable {
    enum Outcome {
        case answered(status: Int, body: Data)
        /// A redirect, to where the server said if it did.
        case redirected(to: URL?)
        /// The answer passed the limit; none of it was kept.
        case tooLarge
        case failed(Error?)
    }

    private let limit: Int
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var body = Data()
    private var overflowed = false
    private var wasRefused = false
    private var wasRedirected = false
    private var target: URL?
    private var outcome: Outcome?

    init(limit: Int) {
        self.limit = limit
    }

    /// The server asked for credentials other than those sent.
    func refused() {
        lock.withLock { wasRefused = true }
    }

    func redirected(to target: URL?) {
        lock.withLock { (wasRedirected, self.target) = (true, target) }
    }

    /// The answer's Content-Length (-1 when it has none); true when that is past the limit, and
    /// the request is to be cancelled.
    func announced(length: Int64) -> Bool {
        lock.withLock {
            guard !overflowed, length > limit else { return false }
            overflow()
            return true
        }
    }

    /// Takes in the next piece of the answer; true the moment the answer passes the limit, and
    /// the request is to be cancelled. What came before is let go, and nothing after is taken.
    func add(_ piece: Data) -> Bool {
        lock.withLock {
            guard !overflowed else { return false }
            guard piece.count <= limit - body.count else {
                overflow()
                return true
            }
            body.append(piece)
            return false
        }
    }

    /// Called with the lock held. The waiting thread goes on at once rather than when the
    /// cancelled task ends: a cancel waits for URLSession's queue, and a server sending without
    /// pause can keep it waiting until it stops.
    private func overflow() {
        (overflowed, body) = (true, Data())
        settle(wasRedirected ? .redirected(to: target) : .tooLarge)
    }

    func finish(_ response: URLResponse?, error: Error?) {
        lock.withLock {
            let status = (response as? HTTPURLResponse)?.statusCode
            let location = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Location")
            let outcome: Outcome = switch status {
            case _ where wasRedirected: .redirected(to: target)
            case _ where wasRefused: .answered(status: 401, body: Data())
            // A 3xx Foundation did not offer to follow (a 300, or one without a Location) is a redirect too.
            case let status? where error == nil && (300..<400).contains(status):
                .redirected(to: location.flatMap { URL(string: $0, relativeTo: response?.url) })
            case let status? where error == nil: .answered(status: status, body: body)
            default: .failed(error)
            }
            settle(outcome)
        }
    }

    /// Called with the lock held; the first outcome stands.
    private func settle(_ outcome: Outcome) {
        guard self.outcome == nil else { return }
        self.outcome = outcome
        done.signal()
    }

    func wait() -> Outcome {
        done.wait()
        return lock.withLock { outcome ?? .failed(nil) }
    }
}

/// A PROPFIND's multi-status answer: the href of each file (the collections left out).
private final class MultiStatus: NSObject, XMLParserDelegate {
    private(set) var files: [String] = []
    private(set) var parsed = false
    private var href = ""
    private var inHref = false
    private var isCollection = false

    init(_ data: Data) {
        super.init()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.delegate = self
        parsed = parser.parse()
    }

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        switch element {
        case "response": (href, isCollection) = ("", false)
        case "href": inHref = true
        case "collection": isCollection = true
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inHref { href += string }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        switch element {
        case "href": inHref = false
        case "response": if !isCollection { files.append(href.trimmingCharacters(in: .whitespacesAndNewlines)) }
        default: break
        }
    }
}
