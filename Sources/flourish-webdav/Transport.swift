import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import WebDAVWire

/// One request, made with URLSession and waited for. An answer past its limit is refused at once;
/// its task, cancelled, may go on a moment longer, its bytes dropped as they come.
enum Transport {
    static func perform(_ wire: WebDAVRequest, body: Data) -> (WebDAVOutcome, Data) {
        guard let url = URL(string: wire.url) else { return (WebDAVOutcome(kind: .failed, reason: "not an address"), Data()) }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: wire.timeout)
        request.httpMethod = wire.method
        request.httpBody = wire.hasBody ? body : nil
        for (name, value) in wire.headers { request.setValue(value, forHTTPHeaderField: name) }
        let exchange = Exchange(limit: wire.limit)
        let task = session.dataTask(with: request)
        exchanges.watch(task, exchange)
        task.resume()
        switch exchange.wait() {
        case let .answered(status, answer, retryAfter):
            guard wire.listing, status == 207 else { return (WebDAVOutcome(kind: .answered, status: status, retryAfter: retryAfter), answer) }
            let listing = MultiStatus(answer)
            return (WebDAVOutcome(kind: .answered, status: status, files: listing.parsed ? listing.files : nil), Data())
        case let .redirected(target): return (WebDAVOutcome(kind: .redirected, target: target?.absoluteString), Data())
        case .tooLarge: return (WebDAVOutcome(kind: .tooLarge), Data())
        case let .failed(error): return (WebDAVOutcome(kind: .failed, reason: error?.localizedDescription), Data())
        }
    }

    private static let exchanges = Exchanges()
    /// Ephemeral: nothing (cookies, cache, credentials) is written to disk.
    private static let session = URLSession(configuration: .ephemeral, delegate: exchanges, delegateQueue: InlineQueue())
}
