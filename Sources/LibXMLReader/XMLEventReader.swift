import CLibXML2

/// An element or attribute name as libxml2 reports it: the local name (no namespace prefix) as UTF-8 bytes, valid
/// only during the callback that receives it.
public typealias XMLLocalName = UnsafeBufferPointer<UInt8>

/// The attributes of a start tag (valid only during the callback that receives them).
public struct XMLAttributes {
    /// libxml2's array: five pointers per attribute (local name, prefix, URI, value start, value end).
    fileprivate let raw: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    /// How many attributes.
    public let count: Int

    /// The value of the attribute whose local name is `localName` (any namespace), or nil.
    public subscript(localName: String) -> String? {
        guard let raw else { return nil }
        for k in 0..<count {
            guard let name = raw[5 * k], let start = raw[5 * k + 3], let end = raw[5 * k + 4] else { continue }
            guard String(cString: name) == localName else { continue }
            return String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
        }
        return nil
    }
}

/// Receives the events of a document read by ``XMLEventReader``, in document order, on the reading thread.
public protocol XMLEventHandler: AnyObject {
    /// A start tag.
    func startElement(_ localName: XMLLocalName, attributes: XMLAttributes, reader: XMLEventReader)
    /// An end tag (an empty element gets a start and an end).
    func endElement(_ localName: XMLLocalName, reader: XMLEventReader)
    /// A run of character data or a CDATA section (one text may come in several runs), entities already replaced.
    func characters(_ bytes: UnsafeBufferPointer<UInt8>, reader: XMLEventReader)
}

/// Why a document could not be read: the first error libxml2 reported, or the handler's ``XMLEventReader/stop(_:)``.
public struct XMLReadError: Error, Sendable {
    /// The 1-based line of the error.
    public let line: Int
    /// The 1-based column of the error (libxml2's count), or 0 when unknown.
    public let column: Int
    /// libxml2's message, e.g. "Opening and ending tag mismatch: Point line 3 and Placemark".
    public let message: String
    /// libxml2's error number (`xmlParserErrors`), or 0 for a ``XMLEventReader/stop(_:)``.
    public let code: Int

    /// libxml2's `XML_ERR_DOCUMENT_END`: the document ended early (an element still open) or had text after its root
    /// element, or there was no root element.
    public static let documentEndCode = Int(XML_ERR_DOCUMENT_END.rawValue)
}

/// A SAX reader of XML over libxml2's push parser: the one adapter over libxml2 (`import CLibXML2` nowhere else).
///
/// Made for speed: names and text reach the handler as bytes, nothing is built that the handler does not ask for.
/// The document is fed to libxml2 in 64 KiB chunks, so inputs of any size are read (Foundation's `XMLParser(data:)`
/// hands libxml2 the whole document at once and fails past libxml2's 10,000,000-byte look-up limit). Safety:
/// no network access, no external entities or DTDs loaded, libxml2's default limits (elements nest at most 256 deep,
/// entity expansion bounded); `XML_PARSE_HUGE` is not set. A namespace prefix that was never declared is not an
/// error (the local name is reported), as KML files in the wild often use `gx:` without declaring it.
/// - Thread rules: one reader per document; readers on different threads are independent.
public final class XMLEventReader {
    private var context: xmlParserCtxtPtr?
    /// Held by ``read(_:handler:)`` for the whole reading (unowned(unsafe): no reference counting per event).
    private unowned(unsafe) let handler: any XMLEventHandler
    private var firstError: XMLReadError?
    private var stopped: XMLReadError?

    private init(handler: any XMLEventHandler) { self.handler = handler }

    /// Reads `bytes` (the whole document), calling `handler` for each event.
    /// - Throws: ``XMLReadError`` at the first error (a document that is not well-formed, or a ``stop(_:)``).
    public static func read(_ bytes: UnsafeRawBufferPointer, handler: any XMLEventHandler) throws(XMLReadError) {
        _ = Self.initialized
        // `handler` (a parameter) and `reader` (its `run`'s self) live until `run` returns.
        let reader = XMLEventReader(handler: handler)
        try reader.run(bytes)
    }

    /// The line (1-based) of the event being reported.
    public var line: Int { context.map { Int(xmlSAX2GetLineNumber(UnsafeMutableRawPointer($0))) } ?? 0 }

    /// The column (1-based) of the event being reported.
    public var column: Int { context.map { Int(xmlSAX2GetColumnNumber(UnsafeMutableRawPointer($0))) } ?? 0 }

    /// Ends the reading at the current event: ``read(_:handler:)`` throws `reason` with the current line and column.
    public func stop(_ reason: String) {
        guard stopped == nil else { return }
        stopped = XMLReadError(line: line, column: column, message: reason, code: 0)
        if let context { xmlStopParser(context) }
    }

    /// libxml2's one-time set-up (Swift runs a static's initialiser once, thread-safely).
    private static let initialized: Void = xmlInitParser()

    private func run(_ bytes: UnsafeRawBufferPointer) throws(XMLReadError) {
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        // After stop(), libxml2 calls no more handlers (xmlStopParser disables SAX).
        sax.startElementNs = { user, localName, _, _, _, _, attributeCount, _, attributes in
            guard let user, let localName else { return }
            Unmanaged<XMLEventReader>.fromOpaque(user)._withUnsafeGuaranteedRef { reader in
                reader.handler.startElement(
                    name(localName), attributes: XMLAttributes(raw: attributes, count: Int(attributeCount)),
                    reader: reader)
            }
        }
        sax.endElementNs = { user, localName, _, _ in
            guard let user, let localName else { return }
            Unmanaged<XMLEventReader>.fromOpaque(user)._withUnsafeGuaranteedRef { reader in
                reader.handler.endElement(name(localName), reader: reader)
            }
        }
        let text: charactersSAXFunc = { user, chars, count in
            guard let user, let chars, count > 0 else { return }
            Unmanaged<XMLEventReader>.fromOpaque(user)._withUnsafeGuaranteedRef { reader in
                reader.handler.characters(UnsafeBufferPointer(start: chars, count: Int(count)), reader: reader)
            }
        }
        sax.characters = text
        sax.cdataBlock = text
        sax.serror = { user, error in
            // Namespace errors (a prefix never declared) are not fatal: the local name still arrives.
            guard let user, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue,
                error.pointee.domain != Int32(XML_FROM_NAMESPACE.rawValue)
            else { return }
            let reader = Unmanaged<XMLEventReader>.fromOpaque(user).takeUnretainedValue()
            guard reader.firstError == nil else { return }
            var message = error.pointee.message.map { String(cString: $0) } ?? "not well-formed"
            while message.last?.isWhitespace == true { message.removeLast() }
            reader.firstError = XMLReadError(
                line: Int(error.pointee.line), column: Int(error.pointee.int2), message: message,
                code: Int(error.pointee.code))
        }
        let user = Unmanaged.passUnretained(self).toOpaque()
        guard let context = xmlCreatePushParserCtxt(&sax, user, nil, 0, nil) else {
            throw XMLReadError(line: 0, column: 0, message: "libxml2 could not make a parser", code: 0)
        }
        self.context = context
        defer {
            self.context = nil
            xmlFreeParserCtxt(context)
        }
        _ = xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
        let chunk = 1 << 16
        var offset = 0
        let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
        repeat {
            let n = min(chunk, bytes.count - offset)
            let last: Int32 = offset + n >= bytes.count ? 1 : 0
            _ = xmlParseChunk(context, base.map { $0 + offset }, Int32(n), last)
            offset += n
            if stopped != nil || firstError != nil { break }
        } while offset < bytes.count
        if let stopped { throw stopped }
        if let firstError { throw firstError }
        if context.pointee.wellFormed == 0 {
            throw XMLReadError(line: line, column: column, message: "not well-formed", code: 0)
        }
    }
}

/// The bytes of a NUL-terminated name.
@inline(__always)
private func name(_ p: UnsafePointer<xmlChar>) -> XMLLocalName {
    var n = 0
    while p[n] != 0 { n += 1 }
    return UnsafeBufferPointer(start: p, count: n)
}
