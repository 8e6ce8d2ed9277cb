import CairoGraphics
import Foundation
import Testing
import UIKitTestSupport

@testable import LinuxUIKit

/// CRC-32 (ISO 3309, as PNG chunks use), bit by bit.
private func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

private func bigEndian(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
}

/// A PNG chunk: length, type, data, CRC over type and data.
private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
}

/// A PNG whose valid IHDR announces `width × height` RGBA pixels, followed by a scrap of IDAT and IEND: a decoder
/// that believed the header would allocate width × height × 4 bytes.
private func pngHeader(width: UInt32, height: UInt32) -> Data {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let ihdr = bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
    return Data(signature + chunk("IHDR", ihdr) + chunk("IDAT", [0x78, 0x9C, 0x01, 0x00]) + chunk("IEND", []))
}

/// A GIF of `frames` solid 2 × 2 frames in palette colours (0 red, 1 blue, 2 black, 3 white), each shown
/// `delays[i]` hundredths of a second, looping forever. LZW data: a clear code before every pixel, so all codes
/// stay 3 bits wide.
private func gif(frames: [UInt8], delays: [UInt16], screen: UInt16 = 2) -> Data {
    var b: [UInt8] =
        Array("GIF89a".utf8) + [UInt8(screen & 0xFF), UInt8(screen >> 8), UInt8(screen & 0xFF), UInt8(screen >> 8)]
    b += [0x81, 0, 0]
    b += [255, 0, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255]
    b += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
    for (index, colour) in frames.enumerated() {
        let delay = delays[index]
        b += [0x21, 0xF9, 4, 0x04, UInt8(delay & 0xFF), UInt8(delay >> 8), 0, 0]
        b += [0x2C, 0, 0, 0, 0, 2, 0, 2, 0, 0]
        var codes: [UInt8] = []
        for _ in 0..<4 { codes += [4, colour] }
        codes.append(5)
        var packed: [UInt8] = []
        var bitBuffer = 0
        var bitCount = 0
        for code in codes {
            bitBuffer |= Int(code) << bitCount
            bitCount += 3
            while bitCount >= 8 {
                packed.append(UInt8(bitBuffer & 0xFF))
                bitBuffer >>= 8
                bitCount -= 8
            }
        }
        if bitCount > 0 { packed.append(UInt8(bitBuffer & 0xFF)) }
        b += [2, UInt8(packed.count)] + packed + [0]
    }
    b.append(0x3B)
    return Data(b)
}

private let redJPEG = Data(
    base64Encoded:
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoKCgoKBggLDAsKDAkKCgr/2wBDAQICAgICAgUDAwUKBwYHCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgr/wAARCAAEAAgDAREAAhEBAxEB/8QAFAABAAAAAAAAAAAAAAAAAAAACP/EABQQAQAAAAAAAAAAAAAAAAAAAAD/xAAVAQEBAAAAAAAAAAAAAAAAAAAICf/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/ABeKa/j/2Q=="
)!

@MainActor @Suite struct UIImageTests {
    @Test func pngRoundTripKeepsPixelsAndSize() throws {
        let house = makeHouseImage(scale: 2)
        #expect(house.size == CGSize(width: 24, height: 24))
        let data = try #require(house.pngData())
        let decoded = try #require(UIImage(data: data, scale: 2))
        #expect(decoded.size == CGSize(width: 24, height: 24))
        #expect(decoded.scale == 2)
        #expect(pixel(decoded, 24, 32) == pixel(house, 24, 32))
        #expect(pixel(decoded, 24, 32).a == 255)
        #expect(pixel(decoded, 1, 1).a == 0)
        #expect(UIImage(data: data)?.size == CGSize(width: 48, height: 48))
    }

    @Test func jpegDecodes() throws {
        let image = try #require(UIImage(data: redJPEG))
        #expect(image.size == CGSize(width: 8, height: 4))
        #expect(pixelMatches(pixel(image, 3, 2), 254, 0, 0, 255, tolerance: 3))
    }

    @Test func multiFrameGIFBecomesAnAnimatedImage() throws {
        let image = try #require(UIImage(data: gif(frames: [0, 1, 3], delays: [10, 30, 20])))
        let frames = try #require(image.images)
        #expect(frames.count == 3)
        #expect(abs(image.duration - 0.6) < 1e-9)
        #expect(image.size == CGSize(width: 2, height: 2))
        #expect(pixelMatches(pixel(frames[0], 1, 1), 255, 0, 0, 255))
        #expect(pixelMatches(pixel(frames[1], 1, 1), 0, 0, 255, 255))
        #expect(pixelMatches(pixel(frames[2], 0, 0), 255, 255, 255, 255))
        // Each frame shows for its own delay: 0–0.1 s red, 0.1–0.4 s blue, 0.4–0.6 s white, then it loops.
        #expect(pixelMatches(pixel(image.frame(at: 0.05), 0, 0), 255, 0, 0, 255))
        #expect(pixelMatches(pixel(image.frame(at: 0.15), 0, 0), 0, 0, 255, 255))
        #expect(pixelMatches(pixel(image.frame(at: 0.39), 0, 0), 0, 0, 255, 255))
        #expect(pixelMatches(pixel(image.frame(at: 0.45), 0, 0), 255, 255, 255, 255))
        #expect(pixelMatches(pixel(image.frame(at: 0.65), 0, 0), 255, 0, 0, 255))  // looped
        #expect(image.withRenderingMode(.alwaysTemplate).frame(at: 0.15).renderingMode == .alwaysTemplate)
        #expect(ImageDecoder.gifFrameCount(gif(frames: [0, 1, 3], delays: [10, 30, 20])) == 3)
    }

    @Test func singleFrameGIFIsStill() throws {
        let image = try #require(UIImage(data: gif(frames: [1], delays: [0])))
        #expect(image.images == nil)
        #expect(pixelMatches(pixel(image, 0, 1), 0, 0, 255, 255))
    }

    @Test func animatedImageFromFrames() throws {
        let a = makeHouseImage()
        let b = makeHouseImage().withTintColor(.red)
        let animated = try #require(UIImage.animatedImage(with: [a, b], duration: 2))
        #expect(animated.images?.count == 2)
        #expect(animated.duration == 2)
        #expect(animated.size == a.size)
        #expect(pixelMatches(pixel(animated.frame(at: 1.5), 12, 16), 255, 0, 0, 255))
        #expect(pixelMatches(pixel(animated.frame(at: 0.5), 12, 16), 0, 0, 0, 255))
        #expect(UIImage.animatedImage(with: [], duration: 1) == nil)
    }

    @Test func imageViewShowsTheFrameForTheClock() throws {
        let clock = installManualClock()
        let animated = try #require(
            UIImage.animatedImage(with: [makeHouseImage(), makeHouseImage().withTintColor(.blue)], duration: 1))
        let view = UIImageView(image: animated)
        #expect(pixelMatches(pixel(view.renderImage(scale: 1), 12, 16), 0, 0, 0, 255))
        clock.advance(by: 0.75)
        #expect(pixelMatches(pixel(view.renderImage(scale: 1), 12, 16), 0, 0, 255, 255))
    }

    @Test func renderingModeAndInsetsAreCopies() {
        let image = makeHouseImage()
        #expect(image.renderingMode == .automatic)
        let template = image.withRenderingMode(.alwaysTemplate)
        #expect(template.renderingMode == .alwaysTemplate)
        #expect(image.renderingMode == .automatic)
        let insets = UIEdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
        let inset = template.withAlignmentRectInsets(insets)
        #expect(inset.alignmentRectInsets == insets)
        #expect(inset.renderingMode == .alwaysTemplate)
        #expect(template.alignmentRectInsets == .zero)
        #expect(image.withTintColor(.green).renderingMode == .alwaysOriginal)
        let tinted = image.withTintColor(.green, renderingMode: .alwaysTemplate)
        #expect(tinted.renderingMode == .alwaysTemplate)
        #expect(tinted.pngData() == image.withTintColor(.green).pngData())
        #expect(pixelMatches(pixel(image.withTintColor(.green), 12, 16), 0, 255, 0, 255))
    }

    @Test func badFilesGiveNilWithAReason() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = try #require(makeHouseImage().pngData())
        let cases: [(name: String, data: Data)] = [
            ("truncated.png", good.prefix(good.count / 2)),
            ("empty.png", Data()),
            ("text.png", Data("this is not an image, just text\n".utf8)),
            ("huge.png", pngHeader(width: 20_000, height: 20_000)),
            ("truncated.jpg", redJPEG.prefix(redJPEG.count - 40)),
            ("truncated.gif", gif(frames: [0, 1], delays: [10, 10]).dropLast(12)),
        ]
        for (name, data) in cases {
            let path = dir.appendingPathComponent(name).path
            try data.write(to: URL(fileURLWithPath: path))
            #expect(UIImage(contentsOfFile: path) == nil, "\(name)")
            #expect(UIImage(data: data) == nil, "\(name)")
        }
        func reason(_ data: Data) -> ImageDecodingError? {
            do {
                _ = try ImageDecoder.decode(data: data)
                return nil
            } catch { return error }
        }
        #expect(reason(Data()) == .empty)
        // A GIF whose logical screen is 20000 × 20000 (frames are composited onto the screen).
        #expect(
            reason(gif(frames: [0, 1], delays: [10, 10], screen: 20_000)) == .tooLarge(width: 20_000, height: 20_000))
        #expect(reason(pngHeader(width: 20_000, height: 20_000)) == .tooLarge(width: 20_000, height: 20_000))
        if case .undecodable(let message)? = reason(good.prefix(good.count / 2)) {
            #expect(!message.isEmpty)
        } else {
            Issue.record("truncated PNG should be undecodable")
        }
        if case .undecodable(let message)? = reason(Data("this is not an image\n".utf8)) {
            #expect(message.lowercased().contains("format"))
        } else {
            Issue.record("text should be undecodable")
        }
        // The file path refuses the huge header before reading the pixels (gdk_pixbuf_get_file_info).
        do {
            _ = try ImageDecoder.decode(contentsOfFile: dir.appendingPathComponent("huge.png").path)
            Issue.record("huge file decoded")
        } catch {
            #expect(error == .tooLarge(width: 20_000, height: 20_000))
        }
        #expect(UIImage(contentsOfFile: dir.appendingPathComponent("missing.png").path) == nil)
        // A 200 MB file (sparse: nothing is written) is refused by size before it is read.
        let big = dir.appendingPathComponent("big.png")
        try good.write(to: big)
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 200_000_000)
        try handle.close()
        do {
            _ = try ImageDecoder.decode(contentsOfFile: big.path)
            Issue.record("a 200 MB file was read")
        } catch {
            if case .unreadable(let message) = error {
                #expect(message.contains("200000000 bytes"))
            } else {
                Issue.record("unexpected \(error)")
            }
        }
        // A large but acceptable header still decodes the pixels it has: 4096 × 1 is fine.
        #expect(ImageDecoder.isAcceptable(width: 4096, height: 4096))
        #expect(!ImageDecoder.isAcceptable(width: 16_385, height: 1))
        #expect(!ImageDecoder.isAcceptable(width: 16_384, height: 16_384))
    }

    @Test func onlyPNGJPEGAndGIFAreAccepted() {
        #expect(ImageDecoder.format(of: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])) == "png")
        #expect(ImageDecoder.format(of: redJPEG) == "jpeg")
        #expect(ImageDecoder.format(of: Data("GIF87a".utf8)) == "gif")
        // A 1 × 1 24-bit BMP (a format gdk-pixbuf could read) is refused by signature.
        var bmp: [UInt8] =
            Array("BM".utf8) + [58, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0, 40, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]
        bmp += [1, 0, 24, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0x13, 0x0B, 0, 0, 0x13, 0x0B, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        bmp += [0, 0, 255, 0]
        #expect(ImageDecoder.format(of: Data(bmp)) == nil)
        #expect(UIImage(data: Data(bmp)) == nil)
    }

    @Test func candidateNamesFollowTheDocumentedOrder() {
        #expect(
            UIImage.candidateFileNames(for: "house", screenScale: 2)
                == ["house@2x.png", "house@3x.png", "house.png", "house.jpg", "house.jpeg", "house.gif"])
        #expect(
            UIImage.candidateFileNames(for: "house", screenScale: 1)
                == ["house.png", "house@3x.png", "house@2x.png", "house.jpg", "house.jpeg", "house.gif"])
        #expect(UIImage.candidateFileNames(for: "pin.png", screenScale: 1) == ["pin.png", "pin@3x.png", "pin@2x.png"])
    }

    @Test func namedImagesFromARegisteredDirectory() throws {
        let dir = try makeTemporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: dir)
            UIImage.removeAllSearchDirectories()
            UIScreen.main.scale = 1
        }
        try #require(makeHouseImage(scale: 1).pngData()).write(to: dir.appendingPathComponent("house.png"))
        try #require(makeHouseImage(scale: 2).pngData()).write(to: dir.appendingPathComponent("house@2x.png"))
        #expect(UIImage(named: "house-\(UUID().uuidString)") == nil)
        UIImage.registerSearchDirectory(dir.path)
        let plain = try #require(UIImage(named: "house"))
        #expect(plain.scale == 1 && plain.size == CGSize(width: 24, height: 24))
        // A second lookup shares the decoded pixels.
        #expect(UIImage(named: "house")?.surface === plain.surface)
        // "House" finds house.png as the Maps guide's snippet expects.
        #expect(UIImage(named: "House")?.size == CGSize(width: 24, height: 24))
        #expect(UIImage(named: "house.png")?.scale == 1)
        UIScreen.main.scale = 2
        let retina = try #require(UIImage(named: "house"))
        #expect(retina.scale == 2 && retina.size == CGSize(width: 24, height: 24))
        #expect(UIImage(named: "") == nil)
    }
}
