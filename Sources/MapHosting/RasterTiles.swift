import CairoGraphics
// Raster map tiles for hosts: the gdk-pixbuf decoder behind `RasterImageDecoder` (raster sources are opened by
// MapNetwork's `SourceOpener`, as vector sources are).
import Foundation
import MapDrawing
import MapPipeline

/// Decodes raster tiles (PNG, JPEG; WebP where Debian's `webp-pixbuf-loader` is installed) with gdk-pixbuf, through
/// CairoGraphics' image decoder (the package's one decoder: sizes checked from the header before pixels are allocated).
public struct PixbufRasterDecoder: RasterImageDecoder {
    /// Creates the decoder.
    public init() {}

    /// See ``RasterImageDecoder/decode(_:)``; errors name the problem (unknown format, truncated, too large).
    public func decode(_ bytes: [UInt8]) throws -> RasterImage {
        let d = try ImageDecoder.decodePremultipliedBGRA(bytes)
        return RasterImage(width: d.width, height: d.height, pixels: d.pixels)
    }

    /// Whether WebP tiles can be decoded here (gdk-pixbuf's WebP loader is installed).
    public static var decodesWebP: Bool { ImageDecoder.hasLoader("webp") }
}

extension MapRenderOptions {
    /// These options with ``PixbufRasterDecoder`` as the raster decoder when none is set.
    public func withRasterDecoder() -> MapRenderOptions {
        var o = self
        if o.rasterDecoder == nil { o.rasterDecoder = PixbufRasterDecoder() }
        return o
    }
}
