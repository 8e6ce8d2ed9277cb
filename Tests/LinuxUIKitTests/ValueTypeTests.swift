import Foundation
import Testing

@testable import LinuxUIKit

@Suite struct UIColorTests {
    @Test func componentsAndClamping() {
        var r: CGFloat = -1
        var g: CGFloat = -1
        var b: CGFloat = -1
        var a: CGFloat = -1
        #expect(UIColor(red: 0.2, green: 1.5, blue: -3, alpha: 0.5).getRed(&r, green: &g, blue: &b, alpha: &a))
        #expect((r, g, b, a) == (0.2, 1, 0, 0.5))
        #expect(UIColor(white: 0.25, alpha: 1).rgba == (0.25, 0.25, 0.25, 1))
        #expect(UIColor.red.withAlphaComponent(0.3).rgba == (1, 0, 0, 0.3))
        var white: CGFloat = 0
        UIColor.blue.getWhite(&white, alpha: nil)
        #expect(abs(white - 0.0722) < 1e-12)
    }

    @Test(
        arguments: [
            (UIColor.red, 1.0, 0.0, 0.0, 1.0), (UIColor.green, 0.0, 1.0, 0.0, 1.0), (UIColor.blue, 0.0, 0.0, 1.0, 1.0),
            (UIColor.black, 0.0, 0.0, 0.0, 1.0), (UIColor.white, 1.0, 1.0, 1.0, 1.0),
            (UIColor.clear, 0.0, 0.0, 0.0, 0.0),
            (UIColor.gray, 0.5, 0.5, 0.5, 1.0), (UIColor.systemBlue, 0.0, 122.0 / 255, 1.0, 1.0),
        ] as [(UIColor, Double, Double, Double, Double)])
    func namedColours(color: UIColor, r: Double, g: Double, b: Double, a: Double) {
        #expect(color.rgba == (CGFloat(r), CGFloat(g), CGFloat(b), CGFloat(a)))
    }

    @Test func cgColorRoundTrip() {
        let c = UIColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)
        #expect(UIColor(cgColor: c.cgColor) == c)
        #expect(c.cgColor.components == [0.1, 0.2, 0.3, 0.4])
        #expect(c.cgColor.alpha == 0.4)
    }
}

@Suite struct CGAffineTransformTests {
    private func near(_ p: CGPoint, _ x: CGFloat, _ y: CGFloat) -> Bool { abs(p.x - x) < 1e-12 && abs(p.y - y) < 1e-12 }

    @Test func rotationScaleTranslation() {
        #expect(near(CGPoint(x: 1, y: 0).applying(CGAffineTransform(rotationAngle: .pi / 2)), 0, 1))
        #expect(CGPoint(x: 2, y: 3).applying(CGAffineTransform(scaleX: 2, y: -1)) == CGPoint(x: 4, y: -3))
        #expect(CGPoint(x: 2, y: 3).applying(CGAffineTransform(translationX: 10, y: 20)) == CGPoint(x: 12, y: 23))
        #expect(CGAffineTransform.identity.isIdentity)
    }

    @Test func concatenationOrder() {
        // First scale by 2, then move by (10, 0): (1, 1) → (2, 2) → (12, 2).
        let t = CGAffineTransform(scaleX: 2, y: 2).concatenating(CGAffineTransform(translationX: 10, y: 0))
        #expect(CGPoint(x: 1, y: 1).applying(t) == CGPoint(x: 12, y: 2))
        // translatedBy applies the translation first: (1, 1) → (11, 1) → (22, 2).
        let u = CGAffineTransform(scaleX: 2, y: 2).translatedBy(x: 10, y: 0)
        #expect(CGPoint(x: 1, y: 1).applying(u) == CGPoint(x: 22, y: 2))
    }

    @Test func inverseUndoes() {
        let t = CGAffineTransform(rotationAngle: 0.7).scaledBy(x: 3, y: 0.5).translatedBy(x: -4, y: 9)
        let p = CGPoint(x: 5, y: -2)
        let back = p.applying(t).applying(t.inverted())
        #expect(near(back, 5, -2))
        let singular = CGAffineTransform(scaleX: 0, y: 1)
        #expect(singular.inverted() == singular)
    }

    @Test func rectBoundingBox() {
        let r = CGRect(x: -1, y: -1, width: 2, height: 2).applying(CGAffineTransform(rotationAngle: .pi / 4))
        #expect(abs(r.width - 2 * CGFloat(2).squareRoot()) < 1e-12)
        #expect(abs(r.midX) < 1e-12)
    }
}

@Suite struct UIFontTests {
    @Test func systemFonts() {
        _ = pinFonts
        let f = UIFont.systemFont(ofSize: 15)
        #expect(f.pointSize == 15)
        #expect(UIFont.boldSystemFont(ofSize: 15) != f)
        #expect(UIFont.systemFont(ofSize: 15, weight: .regular) == f)
        #expect(UIFont.systemFont(ofSize: -3).pointSize == 17)
        #expect(f.withSize(20).pointSize == 20)
    }

    @Test func metricsOfThePinnedFont() {
        _ = pinFonts
        // DejaVu Sans: hhea ascender 1901 and descender −483 units of 2048 per em.
        let f = UIFont.systemFont(ofSize: 20)
        #expect(abs(f.ascender - 20 * 1901 / 2048) < 0.2)
        #expect(abs(f.descender + 20 * 483 / 2048) < 0.2)
        #expect(abs(f.lineHeight - 20 * 2384 / 2048) < 0.3)
    }

    @Test func namedFamilies() {
        _ = pinFonts
        #expect(UIFont(name: "DejaVu Sans", size: 12) != nil)
        #expect(UIFont(name: "dejavu serif", size: 12)?.familyName == "DejaVu Serif")
        #expect(UIFont(name: "DejaVuSans-Bold", size: 12) == UIFont(name: "DejaVu Sans-Bold", size: 12))
        #expect(UIFont(name: "No Such Font Family 123", size: 12) == nil)
        #expect(UIFont(name: "monospace", size: 12) != nil)
        #expect(UIFont.familyNames.contains("DejaVu Sans"))
    }
}
