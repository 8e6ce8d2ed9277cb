// Compiled in both language modes (Swift5Checks links this file): drawing images off the main
// thread, as iOS allows (UIKit's image renderer, colours, paths and string drawing are thread-safe there): a
// GMSSyncTileLayer drawing its tiles on the layer's thread, and the small UIKit and utility-library calls iOS map code
// makes. None may warn in either mode.
import CoreLocation
import Foundation
import GoogleMaps
import GoogleMapsUtils
import UIKit

/// A tile layer drawing a labelled square per tile on the thread that asks for it.
final class LabelledTileLayer: GMSSyncTileLayer {
    override func tileFor(x: UInt, y: UInt, zoom: UInt) -> UIImage? {
        let renderer = UIGraphicsImageRenderer(size: CGSize(width: 256, height: 256))
        return renderer.image { context in
            UIColor.blue.withAlphaComponent(0.25).setFill()
            context.fill(CGRect(x: 0, y: 0, width: 256, height: 256))
            UIColor.white.setStroke()
            let border = UIBezierPath(rect: CGRect(x: 0.5, y: 0.5, width: 255, height: 255))
            border.lineWidth = 1
            border.stroke()
            let label = "\(zoom)/\(x)/\(y)"
            label.draw(
                at: CGPoint(x: 8, y: 8),
                withAttributes: [.font: UIFont.systemFont(ofSize: 14), .foregroundColor: UIColor.white])
            (label as NSString).draw(at: CGPoint(x: 8, y: 28), withAttributes: [.font: UIFont.systemFont(ofSize: 10)])
        }
    }
}

/// The older image-context functions, off the main thread.
func dotImage(diameter: CGFloat) -> UIImage? {
    UIGraphicsBeginImageContext(CGSize(width: diameter, height: diameter))
    defer { UIGraphicsEndImageContext() }
    UIColor.red.setFill()
    UIBezierPath(ovalIn: CGRect(x: 0, y: 0, width: diameter, height: diameter)).fill()
    return UIGraphicsGetImageFromCurrentImageContext()
}

/// A symbol tinted for a marker icon.
func starIcon() -> UIImage? {
    UIImage(systemName: "star.fill")?.withTintColor(.systemOrange, renderingMode: .alwaysOriginal)
}

/// Cluster icon buckets typed as the Objective-C library took them, in a view controller's setup.
@MainActor func clusterIconGenerator() -> GMUDefaultClusterIconGenerator {
    let buckets: [NSNumber] = [10, 50, 100, 200, 1000]
    let colors: [UIColor] = [.systemBlue, .systemGreen, .systemYellow, .systemOrange, .systemRed]
    return GMUDefaultClusterIconGenerator(buckets: buckets, backgroundColors: colors)
}

/// A style error shown as an app shows it.
func styleErrorText(_ json: String) -> String? {
    do {
        _ = try GMSMapStyle(jsonString: json)
        return nil
    } catch {
        return error.localizedDescription
    }
}

/// An advanced marker with a customised pin, made off the main actor as the other model objects are.
func advancedMarker(at position: CLLocationCoordinate2D, label: String) -> GMSAdvancedMarker {
    let options = GMSPinImageOptions()
    options.backgroundColor = .systemBlue
    options.borderColor = .white
    options.glyph = GMSPinImageGlyph(text: label, textColor: .white)
    let marker = GMSAdvancedMarker(position: position)
    marker.icon = GMSPinImage(options: options)
    marker.collisionBehavior = .optionalAndHidesLowerPriority
    return marker
}
