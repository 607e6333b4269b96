import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A PROPFIND's multi-status answer: the href of each file (the collections left out).
final class MultiStatus: NSObject, XMLParserDelegate {
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
