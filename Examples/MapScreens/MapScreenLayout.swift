import GoogleMaps
import UIKit

extension UIStackView {
    /// A horizontal row of controls for the panel under a map: centred vertically, with 16-point side margins.
    static func controlRow(_ views: [UIView], spacing: CGFloat) -> UIStackView {
        let row = UIStackView(arrangedSubviews: views)
        row.axis = .horizontal
        row.spacing = spacing
        row.alignment = .center
        row.isLayoutMarginsRelativeArrangement = true
        row.layoutMargins = UIEdgeInsets(top: 8, left: 16, bottom: 8, right: 16)
        return row
    }
}

extension UIViewController {
    /// Lays out a map screen: `mapView` from under the navigation bar to the top of `panel`, and `panel` along the
    /// bottom of the safe area, full width. The caller adds the panel's height.
    func layOut(_ mapView: GMSMapView, above panel: UIView) {
        for subview in [mapView, panel] as [UIView] {
            subview.translatesAutoresizingMaskIntoConstraints = false
            view.addSubview(subview)
        }
        let safeArea = view.safeAreaLayoutGuide
        NSLayoutConstraint.activate([
            mapView.topAnchor.constraint(equalTo: safeArea.topAnchor),
            mapView.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            mapView.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            mapView.bottomAnchor.constraint(equalTo: panel.topAnchor),
            panel.leadingAnchor.constraint(equalTo: safeArea.leadingAnchor),
            panel.trailingAnchor.constraint(equalTo: safeArea.trailingAnchor),
            panel.bottomAnchor.constraint(equalTo: safeArea.bottomAnchor),
        ])
    }
}
