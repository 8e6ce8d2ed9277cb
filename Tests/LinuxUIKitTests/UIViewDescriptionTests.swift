import Foundation
import Testing
import UIKitTestSupport

@testable import LinuxUIKit

/// A subclass with state of its own: the description names it, the mirror leaves its state out.
private final class BadgeView: UIView {
    /// Stored state a mirror must not expose.
    var payload = [Int](repeating: 7, count: 10_000)
}

/// `UIView`'s description and mirror: one short line and five flat children, whatever the view holds.
@MainActor @Suite struct UIViewDescriptionTests {
    @Test func aPlainViewDescribesItsClassIdentityAndFrame() {
        _ = installManualClock()
        let view = UIView(frame: CGRect(x: 10, y: 20, width: 30.5, height: 40))
        let text = String(describing: view)
        #expect(text.hasPrefix("<UIView: 0x"))
        #expect(text.hasSuffix("; frame = (10 20; 30.5 40)>"), "\(text)")
        #expect(text.contains("\(Unmanaged.passUnretained(view).toOpaque())"))
        #expect(String(reflecting: view) == text)
        #expect(view.debugDescription == text)
        #expect("\(view)" == text)
    }

    @Test func fieldsThatDifferFromTheirDefaultsAreListed() {
        _ = installManualClock()
        let view = BadgeView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
        view.isHidden = true
        view.alpha = 0.5
        view.tag = 7
        view.clipsToBounds = true
        view.addSubview(UIView())
        view.addSubview(UIView())
        let text = view.description
        #expect(text.hasPrefix("<BadgeView: 0x"))
        #expect(
            text.hasSuffix(
                "; frame = (0 0; 400 300); hidden = YES; alpha = 0.5; tag = 7; clipsToBounds = YES; subviews = 2>"),
            "\(text)")
    }

    @Test func nonFiniteGeometryIsWrittenNotTrapped() {
        _ = installManualClock()
        let view = UIView(frame: CGRect(x: CGFloat.nan, y: 1e300, width: 10, height: 10))
        let text = view.description
        #expect(text.contains("frame = (nan "), "\(text)")
        #expect(text.contains("1e+300"), "\(text)")
    }

    @Test func theMirrorIsFlatAndShowsOnlyUIViewsOwnFields() throws {
        _ = installManualClock()
        let view = BadgeView(frame: CGRect(x: 1, y: 2, width: 3, height: 4))
        for _ in 0..<3 { view.addSubview(BadgeView()) }
        let mirror = Mirror(reflecting: view)
        #expect(ObjectIdentifier(mirror.subjectType) == ObjectIdentifier(UIView.self))
        #expect(mirror.displayStyle == .class)
        #expect(mirror.superclassMirror == nil)
        #expect(mirror.children.map(\.label) == ["frame", "isHidden", "alpha", "tag", "subviewCount"])
        let frame = try #require(mirror.descendant("frame") as? CGRect)
        #expect(frame == CGRect(x: 1, y: 2, width: 3, height: 4))
        #expect(mirror.descendant("subviewCount") as? Int == 3)
        // `dump` walks the mirror: the frame's four numbers and the flags, not the payload or the subviews.
        var dumped = ""
        dump(view, to: &dumped)
        #expect(dumped.split(separator: "\n").count < 16, "\(dumped)")
        #expect(!dumped.contains("payload"))
    }
}
