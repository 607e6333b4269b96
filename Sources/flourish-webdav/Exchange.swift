import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession's delegate for every WebDAV request: it hands what comes in to the request's
/// `Exchange`, follows no redirect, and answers every authentication challenge with "no".
final class Exchanges: NSObject, URLSessionDataDelegate, @unchecked Sendable {
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
final class InlineQueue: OperationQueue, @unchecked Sendable {
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        block()
    }
}

/// The answer to one request, handed from URLSession's queue to the thread waiting for it.
final class Exchange: @unchecked Sendable {
    enum Outcome {
        /// `retryAfter`: the answer's `Retry-After` header, when it has one.
        case answered(status: Int, body: Data, retryAfter: String?)
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
            case _ where wasRefused: .answered(status: 401, body: Data(), retryAfter: nil)
            // A 3xx Foundation did not offer to follow (a 300, or one without a Location) is a redirect too.
            case let status? where error == nil && (300..<400).contains(status):
                .redirected(to: location.flatMap { URL(string: $0, relativeTo: response?.url) })
            case let status? where error == nil:
                .answered(status: status, body: body, retryAfter: (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Retry-After"))
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
