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
        let (status, _) = try request("PROPFIND", collection, headers: ["Depth": "0"], body: Self.propfind)
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
        let (status, body) = try request("PROPFIND", url, headers: ["Depth": "1"], body: Self.propfind)
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
        let (status, body) = try request("GET", url(of: name))
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

    /// One request, waited for: sync runs off the GTK thread, one request at a time.
    private func request(_ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil) throws(SyncError) -> (Int, Data) {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        // Sent with every request rather than after a 401: one round trip each.
        let credentials = Data("\(user):\(password)".utf8).base64EncodedString()
        request.setValue("Basic \(credentials)", forHTTPHeaderField: "Authorization")
        let answer = Answer()
        let task = Self.session.dataTask(with: request) { data, response, error in
            answer.set(data: data, status: (response as? HTTPURLResponse)?.statusCode, error: error)
        }
        Self.refuser.watch(task, answer)
        task.resume()
        let (data, status, error) = answer.wait()
        guard let status else {
            throw .unreachable(place: displayName, reason: error?.localizedDescription ?? tr("no answer"))
        }
        return (status, data ?? Data())
    }

    /// Ephemeral: nothing (cookies, cache, credentials) is written to disk.
    private static let refuser = ChallengeRefuser()
    private static let session = URLSession(configuration: .ephemeral, delegate: refuser, delegateQueue: nil)
}

/// Answers every authentication challenge with "no": the credentials went with the request, so
/// a challenge means the server refused them. (Without a delegate that says so, Foundation on
/// Linux leaves a request that met a 401 waiting forever.) The refused request is answered as
/// the 401 it was.
private final class ChallengeRefuser: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [Int: Answer] = [:]

    func watch(_ task: URLSessionTask, _ answer: Answer) {
        lock.withLock { answers[task.taskIdentifier] = answer }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        lock.withLock { answers[task.taskIdentifier] }?.refused()
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.withLock { _ = answers.removeValue(forKey: task.taskIdentifier) }
    }
}

/// The answer to one request, handed from URLSession's queue to the waiting thread.
private final class Answer: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var data: Data?
    private var status: Int?
    private var error: Error?
    private var wasRefused = false

    /// The server asked for credentials other than those sent.
    func refused() {
        lock.withLock { wasRefused = true }
    }

    func set(data: Data?, status: Int?, error: Error?) {
        lock.withLock {
            (self.data, self.status, self.error) = (data, wasRefused ? 401 : status, error)
        }
        done.signal()
    }

    func wait() -> (Data?, Int?, Error?) {
        done.wait()
        return lock.withLock { (data, status, error) }
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
