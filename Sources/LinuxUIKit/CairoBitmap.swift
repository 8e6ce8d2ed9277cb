import CCairo
import CairoGraphics
import Foundation

/// LinuxUIKit's name for the package's one surface type, CairoGraphics' `CairoSurface` (ARGB32, premultiplied,
/// native-endian; destroyed when the last reference goes): image frames and image contexts' bitmaps.
///
/// Pixel contents never change after an image is made, so a bitmap may be read (drawn from) on any thread.
typealias CairoBitmap = CairoSurface

extension CairoSurface {
    /// The `cairo_surface_t *`, for LinuxUIKit's Cairo calls.
    var surface: OpaquePointer { pointer }

    /// A new transparent ARGB32 bitmap of `width × height` pixels; a size Cairo refuses (callers clamp to
    /// `0…8192`, see `pixelCount`) gives an empty 0 × 0 bitmap instead of trapping.
    static func blank(width: Int, height: Int) -> CairoSurface {
        (try? CairoSurface(width: width, height: height))
            ?? CairoSurface(taking: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 0, 0))
    }

    /// A pixel-for-pixel copy of another surface's current contents.
    static func copy(of source: OpaquePointer) -> CairoSurface { CairoSurface(converting: source) }

    /// The PNG encoding of the surface (8-bit RGBA, straight alpha), or nil if Cairo reports an error.
    func pngFileData() -> Data? { (try? pngData()).map { Data($0) } }
}

extension UIImage {
    /// A still image from premultiplied B, G, R, A bytes (rows top to bottom, no padding) at `scale`; nil when the
    /// byte count is not `width × height × 4` or the size is one Cairo refuses. Made off the main thread by tile
    /// producers (GoogleMapsUtils' heatmap), as Apple's `UIImage(cgImage:)` over a raw bitmap is.
    package convenience init?(premultipliedBGRA pixels: [UInt8], width: Int, height: Int, scale: CGFloat = 1) {
        guard let surface = try? CairoSurface(width: width, height: height, premultipliedBGRA: pixels) else {
            return nil
        }
        self.init(bitmaps: [surface], scale: scale)
    }

    /// The first frame's pixels as premultiplied B, G, R, A bytes (rows top to bottom, no padding), for the map's
    /// drawing backend (tile layers); `nil` for an empty image.
    package func premultipliedBGRA() -> (width: Int, height: Int, pixels: [UInt8])? {
        guard let first = bitmaps.first, first.width > 0, first.height > 0 else { return nil }
        return (first.width, first.height, first.premultipliedBGRA())
    }
}
