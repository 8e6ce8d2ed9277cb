import Foundation

/// A ``UIMenu`` shown as a list under the view that opened it (a bar button, a button), over a window-sized
/// transparent layer: tapping a row closes the menu and chooses the action; tapping anywhere else closes it.
/// Submenus are shown flattened, in order; hidden and disabled actions are left out.
@MainActor final class MenuOverlayView: UIView, UITouchResponder {
    let menu: UIMenu
    private let sender: Any?
    private let panel = UIView()
    private(set) var rows: [(action: UIAction, view: UILabel)] = []

    static let rowHeight: CGFloat = 44
    static let width: CGFloat = 250

    /// The menu open in a window, if any (one at a time).
    static weak var current: MenuOverlayView?

    /// Opens `menu` under `sourceView` in its window; nothing happens when the view is not in a window or the menu
    /// has nothing to choose. A menu already open is closed first.
    static func show(_ menu: UIMenu, from sourceView: UIView, sender: Any?) {
        current?.removeFromSuperview()
        guard let window = sourceView.window, !menu.choosableActions.isEmpty else { return }
        let overlay = MenuOverlayView(menu: menu, sender: sender, frame: window.bounds)
        let anchor = sourceView.convert(sourceView.bounds, to: window)
        let height = CGFloat(overlay.rows.count) * rowHeight
        var x = anchor.midX - width / 2
        x = min(max(8, x), max(8, window.bounds.width - width - 8))
        var y = anchor.maxY + 4
        if y + height > window.bounds.height - 8 { y = max(8, anchor.minY - 4 - height) }
        overlay.panel.frame = CGRect(x: x, y: y, width: width, height: height)
        window.addSubview(overlay)
        current = overlay
    }

    private init(menu: UIMenu, sender: Any?, frame: CGRect) {
        self.menu = menu
        self.sender = sender
        super.init(frame: frame)
        isOpaque = false
        panel.backgroundColor = AlertView.boxColor
        panel.layer.cornerRadius = 13
        panel.layer.shadowOpacity = 0.2
        panel.layer.shadowRadius = 12
        panel.clipsToBounds = false
        addSubview(panel)
        for (i, action) in menu.choosableActions.enumerated() {
            let label = UILabel(
                frame: CGRect(x: 16, y: CGFloat(i) * Self.rowHeight, width: Self.width - 32, height: Self.rowHeight))
            label.text = (action.state == .on ? "✓ " : "") + action.title
            label.textColor = action.attributes.contains(.destructive) ? .systemRed : .label
            panel.addSubview(label)
            if i > 0 {
                let line = UIView(frame: CGRect(x: 0, y: CGFloat(i) * Self.rowHeight, width: Self.width, height: 0.5))
                line.backgroundColor = .separator
                panel.addSubview(line)
            }
            rows.append((action, label))
        }
    }

    required init?(coder: NSCoder) { nil }

    /// The frame of `action`'s row in window coordinates, for scripted taps.
    func rowFrame(for action: UIAction) -> CGRect? {
        guard let row = rows.first(where: { $0.action === action }) else { return nil }
        return CGRect(
            x: panel.frame.minX, y: panel.frame.minY + row.view.frame.minY, width: panel.frame.width,
            height: Self.rowHeight)
    }

    func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = touches.first else { return }
        let p = touch.location(in: self)
        removeFromSuperview()
        guard panel.frame.contains(p) else { return }
        let index = Int((p.y - panel.frame.minY) / Self.rowHeight)
        guard rows.indices.contains(index) else { return }
        menu.choose(rows[index].action, sender: sender)
    }
}
