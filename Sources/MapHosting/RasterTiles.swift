import CairoGraphics
// Raster map tiles for hosts: the gdk-pixbuf decoder behind `RasterImageDecoder` and the raster sources
// (`mbtiles://`, `pmtiles://`, `file://` or plain-path `tiles` templates; `http(s)://` templates, TileJSON and
// `pmtiles://http(s)://` archives through `TileNetwork.shared`, as vector sources are).
import Foundation
import MapData
import MapDrawing
import MapNetwork
import MapPipeline
import MapStorage
import MapStyle

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

extension MapHost {
    /// The tile source of a raster style source: an MBTiles file (`mbtiles://`, PNG/JPEG/WebP tiles, `format` in
    /// its metadata), a PMTiles archive (`pmtiles://` + a path or `file://` URL with ``PMTilesSource``;
    /// `pmtiles://http(s)://…` through ``TileNetwork/shared``, range requests), a `file://`/plain-path `tiles`
    /// template, or `http(s)://` `tiles` templates (``TileNetwork/shared``); `nil` for anything else.
    /// - Throws: `MBTilesError` or `PMTilesError` naming the file, or ``HTTPError`` naming the URL, when it cannot be
    ///   opened.
    public static func rasterResolver(_ id: String, _ source: StyleSource) throws -> (any TileSource)? {
        guard case .raster(let r) = source else { return nil }
        if let path = r.mbtilesPath { return try MBTilesSource(path: path) }
        if let path = r.pmtilesPath { return try PMTilesSource(path: path) }
        if TileNetwork.isNetworkSource(source) { return try TileNetwork.shared.tileSource(id: id, source: source) }
        guard let template = r.localTileTemplate else { return nil }
        // Absolute templates hang below "/"; relative ones were resolved against the style's folder already.
        let relative = template.hasPrefix("/") ? String(template.dropFirst()) : template
        return try DirectoryTileSource(
            directory: URL(fileURLWithPath: template.hasPrefix("/") ? "/" : "."), template: relative, zoomRange: 0...30)
    }
}

extension MapRenderOptions {
    /// These options with ``PixbufRasterDecoder`` as the raster decoder when none is set.
    public func withRasterDecoder() -> MapRenderOptions {
        var o = self
        if o.rasterDecoder == nil { o.rasterDecoder = PixbufRasterDecoder() }
        return o
    }
}
