/// Turns encoded image bytes (PNG, JPEG, WebP tiles) into premultiplied pixels.
///
/// The engine decodes no image format itself: hosts inject the adapter (`MapHosting.PixbufRasterDecoder`, over
/// gdk-pixbuf). Thread rules: implementations are `Sendable` and may be called from any thread.
public protocol RasterImageDecoder: Sendable {
    /// Decodes one image.
    /// - Parameter bytes: the encoded image.
    /// - Returns: the image at scale 1.
    /// - Throws: an error describing why the bytes are not a decodable image (unknown format, truncated, too large).
    func decode(_ bytes: [UInt8]) throws -> RasterImage
}
