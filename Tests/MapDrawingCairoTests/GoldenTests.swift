import Foundation
import MapDrawing
import MapDrawingCairo
import MapGeometry
import MapTestSupport
import Testing

private func path(_ flat: [Double], closed: Bool = false) -> RenderPath {
    var p = RenderPath()
    p.addPolyline(flat, closed: closed)
    return p
}

private let ink = RGBAColor(rgb: 0x1F3A5F)
private let marker = RGBAColor(rgb: 0xE03030)

@Suite(.serialized) struct GoldenTests {
    @Test func strokeFillSampler() throws {
        var list = DisplayList(size: ScreenSize(width: 480, height: 360), scale: 1)
        list.append(.clear(RGBAColor(rgb: 0xF5F3EE)))
        // Row 1: caps (butt, round, square) on 14 px lines from x = 30 to 130; red hairlines mark the end points.
        for (i, cap) in [LineCap.butt, .round, .square].enumerated() {
            let x = 30 + Double(i) * 150
            list.append(.stroke(StrokeCommand(path: path([x, 30, x + 100, 30]), color: ink, width: 14, cap: cap)))
            for ex in [x, x + 100] {
                list.append(.stroke(StrokeCommand(path: path([ex, 15, ex, 45]), color: marker, width: 1)))
            }
        }
        // Row 2: joins (miter, round, bevel) on a zig-zag; the miter one has a limit that keeps the sharp corner.
        for (i, join) in [LineJoin.miter, .round, .bevel].enumerated() {
            let x = 20 + Double(i) * 125
            list.append(
                .stroke(
                    StrokeCommand(
                        path: path([x, 110, x + 30, 70, x + 60, 110, x + 90, 70]), color: ink, width: 12, join: join,
                        miterLimit: 4)))
        }
        // Row 3: dashes in line widths, with butt and round caps, and a translucent dashed line.
        list.append(
            .stroke(StrokeCommand(path: path([30, 140, 450, 140]), color: ink, width: 4, dashes: [3, 1])))
        list.append(
            .stroke(
                StrokeCommand(path: path([30, 160, 450, 160]), color: ink, width: 6, cap: .round, dashes: [0, 2])))
        list.append(
            .stroke(
                StrokeCommand(
                    path: path([30, 180, 450, 180]), color: marker, width: 5, dashes: [4, 2, 1, 2], opacity: 0.6)))
        // Row 4: a blurred line beside a sharp one.
        list.append(.stroke(StrokeCommand(path: path([30, 205, 200, 205]), color: ink, width: 10)))
        list.append(.stroke(StrokeCommand(path: path([250, 205, 450, 205]), color: ink, width: 10, blur: 4)))
        // Row 5: fills. A five-point star with non-zero (solid) and even-odd (hollow centre).
        func star(cx: Double, cy: Double) -> RenderPath {
            var flat: [Double] = []
            for k in 0..<5 {
                let a = -Double.pi / 2 + Double(k) * 4 * Double.pi / 5
                flat += [cx + 45 * cos(a), cy + 45 * sin(a)]
            }
            return path(flat, closed: true)
        }
        list.append(.fill(FillCommand(path: star(cx: 70, cy: 290), color: RGBAColor(rgb: 0x3C8D5A))))
        list.append(
            .fill(FillCommand(path: star(cx: 170, cy: 290), color: RGBAColor(rgb: 0x3C8D5A), fillRule: .evenOdd)))
        // A square with a hole wound the other way (non-zero leaves the hole open), translucent.
        var holed = path([230, 250, 310, 250, 310, 330, 230, 330], closed: true)
        holed.addPolyline([250, 270, 250, 310, 290, 310, 290, 270], closed: true)
        list.append(.fill(FillCommand(path: holed, color: RGBAColor(rgb: 0x2060C0), opacity: 0.7)))
        // Overlapping translucent squares and an aliased triangle.
        list.append(
            .fill(
                FillCommand(
                    path: path([330, 250, 390, 250, 390, 310, 330, 310], closed: true), color: marker.withOpacity(0.5)))
        )
        list.append(
            .fill(
                FillCommand(
                    path: path([350, 270, 410, 270, 410, 330, 350, 330], closed: true), color: ink.withOpacity(0.5))))
        list.append(
            .fill(
                FillCommand(
                    path: path([420, 330, 470, 330, 445, 250], closed: true), color: ink, antialias: false)))
        // Clip and transform: a rotated square clipped to a band.
        list.append(.save)
        list.append(.clip(RenderRect(x: 400, y: 60, width: 70, height: 40)))
        list.append(.transform(.translation(x: 435, y: 80)))
        list.append(.transform(.rotation(radians: .pi / 6)))
        list.append(.fill(FillCommand(path: path([-30, -30, 30, -30, 30, 30, -30, 30], closed: true), color: marker)))
        list.append(.restore)
        let image = try makeBackend().render(list)
        try expectGolden(image, named: "stroke-fill-sampler")
    }

    @Test func circlesWithStrokes() throws {
        var list = DisplayList(size: ScreenSize(width: 320, height: 120), scale: 2)
        list.append(.clear(RGBAColor(rgb: 0xE5E3DF)))
        let fill = RGBAColor(rgb: 0x4285F4)
        for (i, r) in [3.0, 6, 12, 20].enumerated() {
            list.append(
                .circle(
                    CircleCommand(
                        center: ScreenPoint(x: 25 + Double(i) * 50, y: 40), radius: r, fillColor: fill,
                        strokeColor: .white, strokeWidth: 2)))
        }
        // The same ring around a transparent centre, a blurred disc and overlapping translucent discs.
        list.append(
            .circle(
                CircleCommand(
                    center: ScreenPoint(x: 260, y: 40), radius: 15, fillColor: .clear, strokeColor: ink,
                    strokeWidth: 3)))
        list.append(.circle(CircleCommand(center: ScreenPoint(x: 40, y: 95), radius: 18, fillColor: fill, blur: 0.6)))
        for (i, color) in [RGBAColor(rgb: 0xEA4335), RGBAColor(rgb: 0xFBBC05), RGBAColor(rgb: 0x34A853)].enumerated() {
            list.append(
                .circle(
                    CircleCommand(
                        center: ScreenPoint(x: 110 + Double(i) * 16, y: 95), radius: 14, fillColor: color,
                        strokeColor: .black, strokeWidth: 1, opacity: 0.6)))
        }
        list.append(.circle(CircleCommand(center: ScreenPoint(x: 230, y: 95), radius: 0, fillColor: fill)))
        let image = try makeBackend().render(list)
        #expect(image.width == 640 && image.height == 240)
        try expectGolden(image, named: "circles")
    }

    @Test func labelStress() throws {
        var random = SeededRandom(seed: 2026)
        var list = DisplayList(size: ScreenSize(width: 640, height: 480), scale: 1)
        list.append(.clear(RGBAColor(rgb: 0xE8E4DA)))
        // Coloured bands so the halos have something to stand out against.
        for (i, color) in [0xAAD3DF, 0xC8E6B0, 0xFFFFFF, 0xF7D58A].enumerated() {
            list.append(
                .fill(
                    FillCommand(
                        path: path(
                            [
                                0, Double(i) * 120 + 40, 640, Double(i) * 120 + 20, 640, Double(i) * 120 + 70, 0,
                                Double(i) * 120 + 90,
                            ], closed: true),
                        color: RGBAColor(rgb: UInt32(color)))))
        }
        let names = [
            "Kamppi", "Kallio", "Töölö", "Punavuori", "Katajanokka", "Sörnäinen", "Ruoholahti", "Pasila",
            "Mannerheimintie", "Esplanadi", "Senaatintori", "Suomenlinna", "Kaivopuisto", "Hakaniemi",
        ]
        let anchors = TextAnchor.allCases
        for i in 0..<160 {
            let size = Double(Int.random(in: 9...22, using: &random))
            let style = TextStyle(
                fontFamilies: ["DejaVu Sans"], size: size, weight: i % 5 == 0 ? .bold : .regular,
                color: RGBAColor(rgb: [0x333333, 0x1A4D8F, 0x6B3E26, 0x2E6B30][i % 4]),
                haloColor: RGBAColor(rgb: 0xFFFFFF, alpha: 0.9), haloWidth: Double(1 + i % 3),
                haloBlur: i % 7 == 0 ? 1 : 0, letterSpacing: i % 6 == 0 ? 1.5 : 0,
                maxWidth: i % 9 == 0 ? 80 : nil)
            let text = i % 9 == 0 ? "\(names[i % names.count]) \(names[(i + 3) % names.count])" : names[i % names.count]
            let rotation = i % 4 == 0 ? Double(Int.random(in: -60...60, using: &random)) : 0
            list.append(
                .text(
                    TextCommand(
                        text: text, style: style,
                        position: ScreenPoint(
                            x: Double.random(in: 20...620, using: &random),
                            y: Double.random(in: 20...460, using: &random)),
                        anchor: anchors[i % anchors.count], rotation: rotation, opacity: i % 10 == 0 ? 0.6 : 1)))
        }
        // A road label following a curve, one cluster per letter.
        var glyphs: [GlyphPlacement] = []
        for (k, ch) in "Hämeentie".enumerated() {
            let t = Double(k) * 8.5
            glyphs.append(
                GlyphPlacement(
                    text: String(ch), position: ScreenPoint(x: 180 + t, y: 400 - 0.002 * t * t * 2),
                    rotation: -atan(0.008 * t) * 180 / .pi))
        }
        list.append(
            .lineText(
                LineTextCommand(
                    style: TextStyle(size: 13, color: .black, haloColor: .white, haloWidth: 1.5), glyphs: glyphs)))
        let backend = makeBackend()
        let image = try backend.render(list)
        try expectGolden(image, named: "label-stress")
    }

    @Test func unicodeLabels() throws {
        let backend = makeBackend()
        let names = [
            "Helsinki", "Хельсинки", "Ελσίνκι", "هلسنكي", "הלסינקי", "ヘルシンキ", "赫尔辛基", "헬싱키", "🗺️ 📍 Helsinki 🇫🇮",
        ]
        var list = DisplayList(size: ScreenSize(width: 360, height: 400), scale: 1)
        list.append(.clear(RGBAColor(rgb: 0xAAD3DF)))
        let style = TextStyle(
            size: 26, color: RGBAColor(rgb: 0x202020), haloColor: .white, haloWidth: 2)
        for (i, name) in names.enumerated() {
            #expect(backend.shaper.unknownGlyphCount(name, style: style) == 0, "tofu in \(name)")
            list.append(
                .text(
                    TextCommand(
                        text: name, style: style, position: ScreenPoint(x: 180, y: 24 + Double(i) * 43))))
        }
        let image = try backend.render(list)
        try expectGolden(image, named: "unicode-labels")
    }
}
