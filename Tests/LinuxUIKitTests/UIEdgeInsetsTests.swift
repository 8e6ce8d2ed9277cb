import Foundation
import LinuxUIKit
import Testing

@Suite struct UIEdgeInsetsTests {
    @Test func insetShrinksRect() {
        let r = CGRect(x: 0, y: 0, width: 100, height: 50).inset(by: UIEdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
        #expect(r == CGRect(x: 2, y: 1, width: 94, height: 46))
    }
}
