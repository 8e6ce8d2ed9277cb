import MapDrawing
import MapGeometry
import Testing

@Suite struct DisplayListTests {
    @Test(arguments: [
        (0.0, "0"), (1.0, "1"), (-0.0, "0"), (0.5, "0.5"), (12.345, "12.35"), (-3.25, "-3.25"), (0.001, "0"),
        (100.1, "100.1"), (2.05, "2.05"), (-0.004, "0"), (1e6, "1000000"),
    ])
    func numberFormatting(value: Double, expected: String) {
        var list = DisplayList(size: ScreenSize(width: value, height: 1))
        list.scale = 1
        // The header prints the width with the display list's number format.
        #expect(list.description.hasPrefix("DisplayList \(expected)x1 @1x"))
    }

    @Test func snapshotOfEveryCommandKind() {
        var triangle = RenderPath()
        triangle.move(to: ScreenPoint(x: 10, y: 10))
        triangle.line(to: ScreenPoint(x: 20, y: 10))
        triangle.line(to: ScreenPoint(x: 15, y: 18.5))
        triangle.close()
        var line = RenderPath()
        line.addPolyline([0, 0, 100, 0, 100, 50], closed: false)
        let label = TextStyle(
            fontFamilies: ["Noto Sans", "DejaVu Sans"], size: 14, weight: .bold, color: RGBAColor(rgb: 0x333333),
            haloColor: .white, haloWidth: 1.5)
        let handle = ImageHandle(id: 7, pixelWidth: 512, pixelHeight: 512, scale: 2)
        var list = DisplayList(size: ScreenSize(width: 320, height: 240), scale: 2)
        list.append(.clear(RGBAColor(rgb: 0xF2EFE9)))
        list.append(.save)
        list.append(.clip(RenderRect(x: 0, y: 0, width: 160, height: 120)))
        list.append(.transform(.translation(x: 5, y: -2.5)))
        list.append(
            .fill(FillCommand(path: triangle, color: RGBAColor(rgb: 0xFF0000), opacity: 0.5, fillRule: .evenOdd)))
        list.append(.restore)
        list.append(
            .stroke(
                StrokeCommand(
                    path: line, color: .black, width: 2, cap: .round, join: .round, dashes: [2, 1], blur: 0.5)))
        list.append(
            .circle(
                CircleCommand(
                    center: ScreenPoint(x: 50, y: 60), radius: 4, fillColor: RGBAColor(rgb: 0x0000FF),
                    strokeColor: .white, strokeWidth: 1)))
        list.append(
            .text(
                TextCommand(
                    text: "Helsinki \"centre\"", style: label, position: ScreenPoint(x: 160, y: 120), anchor: .top,
                    offset: ScreenPoint(x: 0, y: 4), rotation: -15)))
        list.append(
            .lineText(
                LineTextCommand(
                    style: TextStyle(size: 12),
                    glyphs: [
                        GlyphPlacement(text: "A", position: ScreenPoint(x: 1, y: 2), rotation: 10),
                        GlyphPlacement(text: "b", position: ScreenPoint(x: 8.25, y: 3), rotation: 12.5),
                    ])))
        list.append(
            .image(ImageCommand(image: handle, rect: RenderRect(x: -10.5, y: 0, width: 256, height: 256), opacity: 0.8))
        )
        let expected = """
            DisplayList 320x240 @2x (11 commands)
              clear #f2efe9ff
              save
                clip (0,0 160x120)
                transform [1 0 0 1 5 -2.5]
                fill #ff0000ff opacity=0.5 rule=evenodd path{1 sub, 3 pts, bounds=(10,10 10x8.5): M(10,10) (20,10) (15,18.5) Z}
              restore
              stroke #000000ff width=2 cap=round join=round dash=[2,1] blur=0.5 path{1 sub, 3 pts, bounds=(0,0 100x50): M(0,0) (100,0) (100,50)}
              circle center=(50,60) r=4 fill=#0000ffff stroke=#ffffffff sw=1
              text "Helsinki \\"centre\\"" at=(160,120) anchor=top offset=(0,4) rotate=-15 font=Noto Sans|DejaVu Sans size=14 weight=700 color=#333333ff halo=#ffffffff/1.5
              line-text ["A"@(1,2)r10 "b"@(8.25,3)r12.5] font=sans-serif size=12 color=#000000ff
              image #7 rect=(-10.5,0 256x256) opacity=0.8

            """
        #expect(list.description == expected)
        #expect(list.pixelWidth == 640 && list.pixelHeight == 480)
    }

    @Test func largePathsPrintOnlyCountsAndBounds() {
        var path = RenderPath()
        for i in 0..<20 { path.line(to: ScreenPoint(x: Double(i), y: Double(i % 3))) }
        let list = DisplayList(
            size: ScreenSize(width: 10, height: 10), commands: [.fill(FillCommand(path: path, color: .black))])
        #expect(list.description.contains("path{1 sub, 20 pts, bounds=(0,0 19x2)}"))
    }

    @Test func pixelSizeRoundsUpAndRejectsNonsense() {
        #expect(DisplayList(size: ScreenSize(width: 100.2, height: 50), scale: 1.5).pixelWidth == 151)
        #expect(DisplayList(size: ScreenSize(width: -4, height: 50)).pixelWidth == 0)
        #expect(DisplayList(size: ScreenSize(width: .nan, height: 50)).pixelWidth == 0)
    }

    @Test func lineMeshDescription() {
        var t = LineTessellator()
        t.addLine([ScreenPoint(x: 10, y: 20), ScreenPoint(x: 50, y: 20), ScreenPoint(x: 50, y: 60)])
        var list = DisplayList(size: ScreenSize(width: 100, height: 100), scale: 2)
        list.append(.lineMesh(LineMeshCommand(mesh: t.mesh, paint: .solid(RGBAColor(rgb: 0x336699)), width: 3)))
        list.append(
            .lineMesh(
                LineMeshCommand(
                    mesh: t.mesh, paint: .solid(.black), width: 2.5, gapWidth: 4, offset: -1.5, blur: 0.5,
                    opacity: 0.25)))
        list.append(.lineMesh(LineMeshCommand(mesh: LineMesh(), paint: .solid(.black), width: 1)))
        #expect(
            list.description == """
                DisplayList 100x100 @2x (3 commands)
                  line-mesh #336699ff width=3 mesh{6 verts, 4 tris, centers=(10,20 40x40)}
                  line-mesh #000000ff width=2.5 gap=4 offset=-1.5 blur=0.5 opacity=0.25 mesh{6 verts, 4 tris, centers=(10,20 40x40)}
                  line-mesh #000000ff width=1 mesh{empty}

                """)
    }

    /// An image draw with a source rectangle is the projected image mapping that rectangle onto its own, turned
    /// about the rectangle's centre; without one (or with an empty one) there is none.
    @Test func anImageDrawWithASourceRectangleIsAProjectedImage() throws {
        let image = ImageHandle(id: 3, pixelWidth: 8, pixelHeight: 8, scale: 2)
        var draw = ImageCommand(
            image: image, rect: RenderRect(x: 10, y: 20, width: 30, height: 10), opacity: 0.5, nearestNeighbor: true,
            sourceRect: RenderRect(x: 1, y: 1, width: 3, height: 2))
        let flat = try #require(draw.projected)
        #expect(flat.image == image && flat.opacity == 0.5 && flat.nearestNeighbor)
        func near(_ p: ScreenPoint?, _ x: Double, _ y: Double) -> Bool {
            guard let p else { return false }
            return abs(p.x - x) < 1e-9 && abs(p.y - y) < 1e-9
        }
        #expect(near(flat.homography.apply(to: ScreenPoint(x: 1, y: 1)), 10, 20))
        #expect(near(flat.homography.apply(to: ScreenPoint(x: 4, y: 3)), 40, 30))
        #expect(flat.area.count == 4 && near(flat.area[0], 10, 20) && near(flat.area[2], 40, 30))
        // A quarter turn clockwise about the centre (25, 25): the source's top-left corner lands at (30, 10).
        draw.rotation = 90
        let turned = try #require(draw.projected)
        #expect(near(turned.homography.apply(to: ScreenPoint(x: 1, y: 1)), 30, 10))
        #expect(near(turned.homography.apply(to: ScreenPoint(x: 4, y: 3)), 20, 40))
        // Edges a rounding error off the 1/256-point grid lie on it.
        draw.rotation = 0
        draw.rect = RenderRect(x: 10 + 1e-9, y: 20, width: 30 - 2e-9, height: 10)
        #expect(try #require(draw.projected).area[0] == ScreenPoint(x: 10, y: 20))
        draw.sourceRect = RenderRect(x: 1, y: 1, width: 0, height: 2)
        #expect(draw.projected == nil)
        draw.sourceRect = nil
        #expect(draw.projected == nil)
    }
}
