import Foundation
import GoogleMaps

/// Snapshots a 48 × 48 pt marker icon view (a tinted template image with a count label) at scale 2, 100 times:
/// the per-frame cost of a marker with `tracksViewChanges` on.
struct UIKitIconSnapshotBenchmark: Benchmark {
    let name = "uikit-icon-snapshot"
    let unit = "snapshots"
    private var icon: UIView?

    mutating func setUp() throws {
        icon = MainActor.assumeIsolated {
            let pin = UIGraphicsImageRenderer(size: CGSize(width: 48, height: 48)).image { context in
                context.cgContext.setFillColor(UIColor.black.cgColor)
                context.cgContext.fillEllipse(in: CGRect(x: 4, y: 4, width: 40, height: 40))
            }
            let view = UIImageView(image: pin.withRenderingMode(.alwaysTemplate))
            view.tintColor = .systemRed
            let label = UILabel(frame: view.bounds)
            label.text = "12"
            label.textAlignment = .center
            label.textColor = .white
            label.font = .boldSystemFont(ofSize: 16)
            view.addSubview(label)
            return view
        }
    }

    func run() throws -> Int {
        MainActor.assumeIsolated {
            var bytes = 0
            for _ in 0..<100 {
                let image = icon?.renderImage(scale: 2)
                bytes += Int(image?.size.width ?? 0)
            }
            blackHole(bytes)
            return 100
        }
    }
}

/// Snapshots a 240 × 110 pt custom info window (rounded, bordered, shadowed, title and a wrapped snippet) at
/// scale 2, 20 times.
struct UIKitInfoWindowSnapshotBenchmark: Benchmark {
    let name = "uikit-info-window-snapshot"
    let unit = "snapshots"
    private var window: UIView?

    mutating func setUp() throws {
        window = MainActor.assumeIsolated {
            let root = UIView(frame: CGRect(x: 0, y: 0, width: 240, height: 110))
            let card = UIView(frame: root.bounds.insetBy(dx: 8, dy: 8))
            card.backgroundColor = .white
            card.layer.cornerRadius = 8
            card.layer.borderWidth = 1
            card.layer.borderColor = UIColor.lightGray.cgColor
            card.layer.shadowOpacity = 0.3
            card.layer.shadowRadius = 4
            card.layer.shadowOffset = CGSize(width: 0, height: 2)
            let title = UILabel(frame: CGRect(x: 12, y: 8, width: 200, height: 20))
            title.font = .boldSystemFont(ofSize: 15)
            title.text = "Helsinki Central Station"
            let snippet = UILabel(frame: CGRect(x: 12, y: 30, width: 200, height: 60))
            snippet.font = .systemFont(ofSize: 13)
            snippet.numberOfLines = 3
            snippet.text =
                "Kaivokatu 1, 00100 Helsinki. Trains to Tampere, Turku and the airport leave every few minutes."
            card.addSubview(title)
            card.addSubview(snippet)
            root.addSubview(card)
            return root
        }
    }

    func run() throws -> Int {
        MainActor.assumeIsolated {
            var bytes = 0
            for _ in 0..<20 {
                bytes += Int(window?.renderImage(scale: 2).size.height ?? 0)
            }
            blackHole(bytes)
            return 20
        }
    }
}

/// Decodes a 64 × 64 PNG 100 times through gdk-pixbuf into Cairo surfaces.
struct UIKitPNGDecodeBenchmark: Benchmark {
    let name = "uikit-png-decode"
    let unit = "images"
    private var png = Data()

    mutating func setUp() throws {
        png = MainActor.assumeIsolated {
            UIGraphicsImageRenderer(size: CGSize(width: 64, height: 64)).pngData { context in
                for i in 0..<8 {
                    context.cgContext.setFillColor(
                        UIColor(red: CGFloat(i) / 8, green: 0.5, blue: 1 - CGFloat(i) / 8, alpha: 0.8).cgColor)
                    context.cgContext.fillEllipse(in: CGRect(x: i * 6, y: i * 6, width: 20, height: 20))
                }
            }
        }
    }

    func run() throws -> Int {
        var width = 0.0
        for _ in 0..<100 {
            width += Double(UIImage(data: png)?.size.width ?? 0)
        }
        blackHole(width)
        return 100
    }
}

/// The solve alone of `autolayout-solve-200`'s grid screen (50 views, 200 constraints): each run activates one more
/// constraint (a 40 pt minimum width on the last view, which holds anyway), lays the screen out (the engine rebuilt
/// from 201 constraints and solved, 50 frames written) and deactivates it again. Unlike `autolayout-solve-200` it
/// leaves out deactivating and re-activating the 200 constraints, so the figure is the rebuild and the solve.
struct AutoLayoutRebuildBenchmark: Benchmark {
    let name = "autolayout-rebuild-200"
    let unit = "screens"
    let iterations = 50
    private var screen: (root: UIView, extra: NSLayoutConstraint)?

    mutating func setUp() throws {
        screen = MainActor.assumeIsolated {
            let root = UIView(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
            var grid: [[UIView]] = []
            var constraints: [NSLayoutConstraint] = []
            for row in 0..<10 {
                var line: [UIView] = []
                for column in 0..<5 {
                    let v = UIView()
                    v.translatesAutoresizingMaskIntoConstraints = false
                    root.addSubview(v)
                    let left = column == 0 ? root.leadingAnchor : line[column - 1].trailingAnchor
                    let top = row == 0 ? root.topAnchor : grid[row - 1][column].bottomAnchor
                    constraints += [
                        v.leadingAnchor.constraint(equalTo: left, constant: 8),
                        v.topAnchor.constraint(equalTo: top, constant: 8),
                        column == 0
                            ? v.widthAnchor.constraint(equalToConstant: 60)
                            : v.widthAnchor.constraint(equalTo: line[0].widthAnchor),
                        row == 0
                            ? v.heightAnchor.constraint(equalToConstant: 40)
                            : v.heightAnchor.constraint(equalTo: grid[row - 1][column].heightAnchor),
                    ]
                    line.append(v)
                }
                grid.append(line)
            }
            NSLayoutConstraint.activate(constraints)
            root.layoutIfNeeded()
            return (root, grid[9][4].widthAnchor.constraint(greaterThanOrEqualToConstant: 40))
        }
    }

    func run() throws -> Int {
        MainActor.assumeIsolated {
            guard let screen else { return 0 }
            screen.extra.isActive = true
            screen.root.layoutIfNeeded()
            blackHole(Int(screen.root.subviews[49].frame.maxY))
            screen.extra.isActive = false
            return 1
        }
    }
}
