import CairoGraphics
import Foundation
import Testing

@testable import LinuxUIKit

/// CairoGraphics' pixel access (the typed value the marker sprites and the SDL window read instead of a Cairo
/// pointer) and the window host's frames: its bitmap drawn into again only while nobody else holds it, and the
/// per-stage timings of `--stats`.
@MainActor @Suite struct FrameBitmapTests {
    /// Premultiplied B, G, R, A bytes of `count` pixels of one colour.
    static func bytes(_ b: UInt8, _ g: UInt8, _ r: UInt8, _ a: UInt8, count: Int) -> [UInt8] {
        (0..<count).flatMap { _ in [b, g, r, a] }
    }

    @Test func pixelsCoverEveryRowAtTheStride() throws {
        let surface = try CairoSurface(width: 5, height: 3)
        let stride = surface.stride
        #expect(stride >= 5 * 4)
        #expect(stride % 4 == 0)
        let (count, allClear) = surface.withPixels { ($0.count, $0.allSatisfy { $0 == 0 }) }
        #expect(count == stride / 4 * 3)
        #expect(allClear)
    }

    @Test func pixelsArePremultipliedARGBWords() throws {
        // Half-transparent red (straight 255, 0, 0 at alpha 128) is stored as red 128 under alpha 128.
        let pixels = Self.bytes(0, 0, 128, 128, count: 4) + Self.bytes(255, 255, 255, 255, count: 4)
        let surface = try CairoSurface(width: 4, height: 2, premultipliedBGRA: pixels)
        let row = surface.stride / 4
        let (first, second) = surface.withPixels { ($0[0], $0[row + 3]) }
        #expect(first == 0x8080_0000)
        #expect(second == 0xffff_ffff)
        let straight = surface.pixel(x: 1, y: 0)
        #expect(straight.r == 255 && straight.g == 0 && straight.b == 0 && straight.a == 128)
    }

    @Test func writtenPixelsReachCairoAndPNG() throws {
        let surface = try CairoSurface(width: 3, height: 3)
        let row = surface.stride / 4
        surface.withMutablePixels { p in p[2 * row + 1] = 0x4000_2040 }  // premultiplied: green 32, blue 64, alpha 64
        let copy = surface.copy()  // painted by Cairo from the written pixels
        let read = copy.withPixels { $0[2 * row + 1] }
        #expect(read == 0x4000_2040)
        let decoded = try CairoSurface.decodePNG(surface.pngData())
        let p = decoded.pixel(x: 1, y: 2)
        #expect(p.a == 64 && p.r == 0 && p.g == 128 && p.b == 255)
        #expect(decoded.pixel(x: 0, y: 0).a == 0)
    }

    @Test func emptySurfaceHasNoPixels() throws {
        let surface = try CairoSurface(width: 0, height: 7)
        #expect(surface.withPixels { $0.count } == 0)
        #expect(surface.withMutablePixels { $0.count } == 0)
    }

    @Test func imageSurfaceIsTheFirstFramesPixels() throws {
        let image = UIGraphicsImageRenderer(size: CGSize(width: 4, height: 2)).image { r in
            r.cgContext.setFillColor(UIColor(red: 0, green: 0, blue: 1, alpha: 1).cgColor)
            r.cgContext.fill(CGRect(x: 0, y: 0, width: 4, height: 2))
        }
        let surface = try #require(image.surface)
        #expect(surface.width == 4 && surface.height == 2)
        #expect(surface.withPixels { $0[0] } == 0xff00_00ff)
        let atlas = SpriteAtlas()
        let icon = try #require(atlas.icon(for: image))
        let placement = try #require(atlas.placement(of: icon))
        #expect(placement.width == 4 && placement.height == 2)
        #expect(atlas.pixel(of: icon, x: 3, y: 1) == 0xff00_00ff)
    }

    /// A view whose colour the test changes between frames.
    final class Swatch: UIView {}

    private func host(_ view: UIView) -> UIHeadlessHost {
        UIAnimator.shared.reset()
        UIApplication.shared.resetForNextRun()
        return UIHeadlessHost(view: view)
    }

    @Test func aFrameNobodyHoldsIsDrawnIntoAgain() throws {
        let view = Swatch(frame: CGRect(x: 0, y: 0, width: 40, height: 30))
        view.backgroundColor = .red
        let host = host(view)
        host.advance(by: 0)
        weak let first = host.host.lastImage?.surface
        #expect(first != nil)
        view.backgroundColor = .blue
        host.host.dirty = true
        host.advance(by: 0)
        let image = try #require(host.host.lastImage)
        #expect(first != nil && image.surface === first, "the previous frame's bitmap is drawn into again")
        let p = image.surface?.pixel(x: 20, y: 15)
        #expect(p?.b == 255 && p?.r == 0)
    }

    @Test func aHeldFrameKeepsItsPixels() throws {
        let view = Swatch(frame: CGRect(x: 0, y: 0, width: 40, height: 30))
        view.backgroundColor = .red
        let host = host(view)
        let held = host.snapshot()
        view.backgroundColor = .blue
        host.host.dirty = true
        let next = host.snapshot()
        #expect(next !== held)
        let old = held.surface?.pixel(x: 20, y: 15)
        let new = next.surface?.pixel(x: 20, y: 15)
        #expect(old?.r == 255 && old?.b == 0)
        #expect(new?.b == 255 && new?.r == 0)
        #expect(held.surface !== next.surface)
    }

    @Test func statisticsKeepEachStage() {
        let view = Swatch(frame: CGRect(x: 0, y: 0, width: 40, height: 30))
        let host = host(view)
        host.host.keepsStatistics = true
        host.host.dirty = true
        host.advance(by: 0)
        host.host.recordPresent(0.25)
        #expect(host.host.stageTimes.count == 1)
        let stages = host.host.stageTimes.first ?? [:]
        #expect(Set(stages.keys) == ["tick", "layout", "render", "present"])
        #expect(stages["present"] == 0.25)
        #expect(!FrameStages.isRecording)
        host.host.keepsStatistics = false
        host.host.dirty = true
        host.advance(by: 0)
        #expect(host.host.stageTimes.count == 1)
    }
}
