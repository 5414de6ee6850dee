import CCaptionsXML
import CaptionsCore

/// An XML element, namespace-aware, with its source line, as the TTML reader walks it.
final class XMLElement {
    /// The namespace URI ("" for none), with the 2006 DFXP namespaces mapped to TTML's.
    let namespace: String
    /// The local name.
    let name: String
    /// Attributes: namespace URI (mapped like ``namespace``), local name, value.
    let attributes: [(namespace: String, name: String, value: String)]
    /// Child elements and text, in order.
    var children: [XMLNode] = []
    /// The line of the start tag.
    let line: Int

    init(namespace: String, name: String, attributes: [(namespace: String, name: String, value: String)], line: Int) {
        self.namespace = namespace
        self.name = name
        self.attributes = attributes
        self.line = line
    }

    /// The value of an attribute in a namespace.
    func attribute(_ name: String, namespace: String = "") -> String? {
        attributes.first { $0.name == name && $0.namespace == namespace }?.value
    }

    /// Child elements only.
    var elements: [XMLElement] {
        children.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    /// The location of the start tag.
    var location: SourceLocation { SourceLocation(line: line, column: 1) }
}

/// A child of an element.
enum XMLNode {
    case element(XMLElement)
    case text(String)
}

/// Parses XML with libxml2, hardened for untrusted files.
///
/// No network (`XML_PARSE_NONET`), no external DTD (`XML_PARSE_DTDLOAD` off), no entity
/// substitution (`XML_PARSE_NOENT` off), libxml2's default depth limit (256) and a 64 MiB size
/// limit; a document that declares entities at all is refused, so neither external entities (XXE)
/// nor entity expansion ("billion laughs") can happen. TTML never needs a DTD.
enum XMLTree {
    static let maximumBytes = 64 << 20

    static func parse(_ bytes: [UInt8], codePrefix: String) throws(CaptionsError) -> XMLElement {
        guard !bytes.isEmpty else { throw CaptionsError("input.empty", "the file is empty", at: .start) }
        guard bytes.count <= maximumBytes else {
            throw CaptionsError(
                Diagnostic.Code(rawValue: "\(codePrefix).xml.tooLarge"),
                "the XML document is larger than \(maximumBytes >> 20) MiB", at: .start)
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_NOERROR.rawValue
            | XML_PARSE_NOWARNING.rawValue)
        xmlResetLastError()
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    xmlReadMemory($0, Int32(buffer.count), "input.xml", nil, options)
                }
            } ?? nil
        }
        guard let document else {
            let error = xmlGetLastError()
            let message = error?.pointee.message.map { String(cString: $0).trimmingASCIIWhitespace() } ?? "unreadable XML"
            let line = Int(error?.pointee.line ?? 1)
            throw CaptionsError(
                Diagnostic.Code(rawValue: "\(codePrefix).xml.malformed"), "not well-formed XML: \(message)",
                at: SourceLocation(line: max(line, 1), column: Int(max(error?.pointee.int2 ?? 1, 1))))
        }
        defer { xmlFreeDoc(document) }
        if let subset = document.pointee.intSubset, subset.pointee.entities != nil || subset.pointee.pentities != nil {
            throw CaptionsError(
                Diagnostic.Code(rawValue: "\(codePrefix).xml.entities"),
                "the document declares entities; they are refused (no external entities, no entity expansion)",
                at: SourceLocation(line: Int(xmlGetLineNo(UnsafeMutableRawPointer(subset).assumingMemoryBound(to: xmlNode.self))), column: 1))
        }
        guard let root = xmlDocGetRootElement(document) else {
            throw CaptionsError(Diagnostic.Code(rawValue: "\(codePrefix).xml.empty"), "the XML document has no root element", at: .start)
        }
        var namespaces = NamespaceTable()
        return try convert(root, document: document, namespaces: &namespaces)
    }

    private static func convert(_ node: xmlNodePtr, document: xmlDocPtr, namespaces: inout NamespaceTable) throws(CaptionsError) -> XMLElement {
        var attributes: [(namespace: String, name: String, value: String)] = []
        attributes.reserveCapacity(4)
        var attribute = node.pointee.properties
        while let current = attribute {
            let value = xmlNodeListGetString(document, current.pointee.children, 1)
            attributes.append((
                namespace: namespaces.uri(current.pointee.ns),
                name: String(cString: current.pointee.name), value: value.map { String(cString: $0) } ?? ""
            ))
            ccaptions_xml_free(value)
            attribute = current.pointee.next
        }
        let element = XMLElement(
            namespace: namespaces.uri(node.pointee.ns),
            name: String(cString: node.pointee.name), attributes: attributes, line: Int(xmlGetLineNo(node)))
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                element.children.append(.element(try convert(current, document: document, namespaces: &namespaces)))
                // Free each converted subtree at once, so the two trees never both sit whole in memory.
                let next = current.pointee.next
                xmlUnlinkNode(current)
                xmlFreeNode(current)
                child = next
                continue
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content { element.children.append(.text(String(cString: content))) }
            case XML_ENTITY_REF_NODE:
                throw CaptionsError(
                    "ttml.xml.entities", "entity references are refused", at: SourceLocation(line: Int(xmlGetLineNo(current)), column: 1))
            default:
                break
            }
            child = current.pointee.next
        }
        return element
    }

    /// One `String` per namespace URI, shared by every element and attribute that uses it. Entries
    /// are checked against the URI text, since freed namespace declarations may be reused.
    private struct NamespaceTable {
        private var known: [UnsafePointer<xmlChar>: (text: [xmlChar], uri: String)] = [:]

        mutating func uri(_ namespace: xmlNsPtr?) -> String {
            guard let href = namespace?.pointee.href else { return "" }
            if let entry = known[href], entry.text.withUnsafeBufferPointer({ xmlStrEqual($0.baseAddress, href) == 1 }) {
                return entry.uri
            }
            let text = String(cString: href)
            let uri = canonicalNamespace(text)
            known[href] = (Array(text.utf8) + [0], uri)
            return uri
        }
    }

    /// TTML's namespaces, with the 2006 DFXP ones (`ttaf1`) mapped onto them.
    static func canonicalNamespace(_ uri: String) -> String {
        guard uri.hasPrefix("http://www.w3.org/2006/") else { return uri }
        if uri.hasSuffix("#styling") || uri.hasSuffix("#style") { return TTMLNamespace.styling }
        if uri.hasSuffix("#parameter") { return TTMLNamespace.parameter }
        if uri.hasSuffix("#metadata") { return TTMLNamespace.metadata }
        if uri.hasSuffix("ttaf1") { return TTMLNamespace.ttml }
        return uri
    }
}

/// The TTML namespace URIs.
enum TTMLNamespace {
    static let ttml = "http://www.w3.org/ns/ttml"
    static let styling = "http://www.w3.org/ns/ttml#styling"
    static let parameter = "http://www.w3.org/ns/ttml#parameter"
    static let metadata = "http://www.w3.org/ns/ttml#metadata"
    static let xml = "http://www.w3.org/XML/1998/namespace"
}
