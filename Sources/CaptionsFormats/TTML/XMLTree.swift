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

    /// A copy of this tree in which elements without a namespace are in `namespace` (for
    /// documents that leave out the one they mean); attributes are unchanged.
    func placingUnqualifiedElements(in namespace: String) -> XMLElement {
        let copy = XMLElement(
            namespace: self.namespace.isEmpty ? namespace : self.namespace, name: name, attributes: attributes, line: line)
        copy.children = children.map { child in
            if case .element(let element) = child { .element(element.placingUnqualifiedElements(in: namespace)) } else { child }
        }
        return copy
    }
}

/// A child of an element.
enum XMLNode {
    case element(XMLElement)
    case text(String)
}

/// Parses XML with libxml2's streaming reader, hardened for untrusted files.
///
/// No network (`XML_PARSE_NONET`), no external DTD (`XML_PARSE_DTDLOAD` off), no entity
/// substitution (`XML_PARSE_NOENT` off), a 64 MiB size limit, and elements nested at most
/// ``maximumDepth`` deep (deeper ones are left out of the tree, their text kept in the deepest
/// element, and the line of the first is reported through ``parse(_:codePrefix:tooDeep:)``); a document that declares entities at all is refused, so neither external entities (XXE)
/// nor entity expansion ("billion laughs") can happen. TTML never needs a DTD. The reader frees
/// what it has passed, so only the Swift tree stays in memory.
enum XMLTree {
    static let maximumBytes = 64 << 20
    /// The deepest element nesting kept: `tt`, `body`, a few `div`s and `p` above the spans a cue
    /// may nest (``InlineNode/maximumDepth``), so that what the TTML writer writes reads back whole.
    static let maximumDepth = InlineNode.maximumDepth + 8

    static func parse(_ bytes: [UInt8], codePrefix: String) throws(CaptionsError) -> XMLElement {
        var tooDeep: SourceLocation?
        return try parse(bytes, codePrefix: codePrefix, tooDeep: &tooDeep)
    }

    /// Whether `bytes` start with an XML declaration that names UTF-16 or UTF-32 although they are
    /// not (the declaration itself is in single bytes, with no byte order mark): files converted
    /// to UTF-8 whose declaration was left behind.
    static func mislabelledAsWide(_ bytes: [UInt8]) -> Bool {
        guard bytes.starts(with: Array("<?xml".utf8)) else { return false }
        let declaration = String(decoding: bytes.prefix(200).prefix { $0 != UInt8(ascii: ">") }, as: UTF8.self).lowercased()
        return declaration.contains("encoding=\"utf-16") || declaration.contains("encoding='utf-16")
            || declaration.contains("encoding=\"utf-32") || declaration.contains("encoding='utf-32")
    }

    /// Parses `bytes`; `tooDeep` is set to the start of the first element left out for depth.
    /// `encoding` overrides the document's own declaration.
    static func parse(
        _ bytes: [UInt8], codePrefix: String, tooDeep: inout SourceLocation?, encoding: String? = nil
    ) throws(CaptionsError) -> XMLElement {
        guard !bytes.isEmpty else { throw CaptionsError("input.empty", "the file is empty", at: .start) }
        guard bytes.count <= maximumBytes else {
            throw CaptionsError(
                Diagnostic.Code(rawValue: "\(codePrefix).xml.tooLarge"),
                "the XML document is larger than \(maximumBytes >> 20) MiB", at: .start)
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_NOERROR.rawValue
            | XML_PARSE_NOWARNING.rawValue)
        xmlResetLastError()
        return try bytes.withUnsafeBufferPointer { buffer throws(CaptionsError) -> XMLElement in
            guard let base = buffer.baseAddress,
                let reader = base.withMemoryRebound(to: CChar.self, capacity: buffer.count, {
                    xmlReaderForMemory($0, Int32(buffer.count), "input.xml", encoding, options)
                })
            else { throw CaptionsError(Diagnostic.Code(rawValue: "\(codePrefix).xml.malformed"), "cannot read the XML", at: .start) }
            defer { xmlFreeTextReader(reader) }
            ccaptions_xml_reader_silence(reader)
            return try read(reader, codePrefix: codePrefix, tooDeep: &tooDeep)
        }
    }

    private static func read(
        _ reader: xmlTextReaderPtr, codePrefix: String, tooDeep: inout SourceLocation?
    ) throws(CaptionsError) -> XMLElement {
        var namespaces = NamespaceTable()
        var stack: [XMLElement] = []
        var root: XMLElement?
        /// Open elements left out for depth, inside the deepest kept one.
        var skipped = 0
        func line() -> Int { xmlTextReaderCurrentNode(reader).map { Int(xmlGetLineNo($0)) } ?? 1 }
        while true {
            let status = xmlTextReaderRead(reader)
            if status == 0 { break }
            guard status > 0 else {
                let error = xmlGetLastError()
                let message = error?.pointee.message.map { String(cString: $0).trimmingASCIIWhitespace() } ?? "unreadable XML"
                throw CaptionsError(
                    Diagnostic.Code(rawValue: "\(codePrefix).xml.malformed"), "not well-formed XML: \(message)",
                    at: SourceLocation(line: max(Int(error?.pointee.line ?? 1), 1), column: Int(max(error?.pointee.int2 ?? 1, 1))))
            }
            switch xmlTextReaderNodeType(reader) {
            case Int32(XML_READER_TYPE_ELEMENT.rawValue):
                if stack.count >= maximumDepth {
                    if tooDeep == nil { tooDeep = SourceLocation(line: line(), column: 1) }
                    if xmlTextReaderIsEmptyElement(reader) != 1 { skipped += 1 }
                    continue
                }
                let element = XMLElement(
                    namespace: namespaces.uri(xmlTextReaderConstNamespaceUri(reader)),
                    name: xmlTextReaderConstLocalName(reader).map { String(cString: $0) } ?? "",
                    attributes: attributes(reader, namespaces: &namespaces), line: line())
                if let parent = stack.last { parent.children.append(.element(element)) } else if root == nil { root = element }
                if xmlTextReaderIsEmptyElement(reader) != 1 { stack.append(element) }
            case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
                if skipped > 0 { skipped -= 1 } else { _ = stack.popLast() }
            case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue),
                Int32(XML_READER_TYPE_WHITESPACE.rawValue), Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue):
                if let parent = stack.last, let value = xmlTextReaderConstValue(reader) {
                    parent.children.append(.text(String(cString: value)))
                }
            case Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue):
                throw CaptionsError(
                    Diagnostic.Code(rawValue: "\(codePrefix).xml.entities"), "entity references are refused",
                    at: SourceLocation(line: line(), column: 1))
            case Int32(XML_READER_TYPE_DOCUMENT_TYPE.rawValue):
                if let subset = xmlTextReaderCurrentDoc(reader)?.pointee.intSubset,
                    subset.pointee.entities != nil || subset.pointee.pentities != nil
                {
                    throw CaptionsError(
                        Diagnostic.Code(rawValue: "\(codePrefix).xml.entities"),
                        "the document declares entities; they are refused (no external entities, no entity expansion)",
                        at: SourceLocation(line: line(), column: 1))
                }
            default:
                break
            }
        }
        guard let root else {
            throw CaptionsError(Diagnostic.Code(rawValue: "\(codePrefix).xml.empty"), "the XML document has no root element", at: .start)
        }
        return root
    }

    private static func attributes(
        _ reader: xmlTextReaderPtr, namespaces: inout NamespaceTable
    ) -> [(namespace: String, name: String, value: String)] {
        var attributes: [(namespace: String, name: String, value: String)] = []
        while xmlTextReaderMoveToNextAttribute(reader) == 1 {
            let namespace = namespaces.uri(xmlTextReaderConstNamespaceUri(reader))
            guard namespace != "http://www.w3.org/2000/xmlns/" else { continue }
            attributes.append((
                namespace: namespace, name: xmlTextReaderConstLocalName(reader).map { String(cString: $0) } ?? "",
                value: xmlTextReaderConstValue(reader).map { String(cString: $0) } ?? ""
            ))
        }
        xmlTextReaderMoveToElement(reader)
        return attributes
    }

    /// One `String` per namespace URI, shared by every element and attribute that uses it (the
    /// reader's URI strings live in its dictionary as long as it does).
    private struct NamespaceTable {
        private var known: [UnsafePointer<xmlChar>: String] = [:]

        mutating func uri(_ href: UnsafePointer<xmlChar>?) -> String {
            guard let href else { return "" }
            if let uri = known[href] { return uri }
            let uri = canonicalNamespace(String(cString: href))
            known[href] = uri
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

/// The XML library in use.
public enum XMLLibrary {
    /// libxml2's version, such as `2.9.14`.
    public static var version: String { String(cString: ccaptions_xml_version()) }
}
