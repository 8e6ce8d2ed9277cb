import Foundation

/// Manages a view, loading it on first use, as UIKit's `UIViewController`.
///
/// Reading ``view`` the first time calls ``loadView()`` (which subclasses override to install their own root view,
/// as the Maps samples do with a map view) and then ``viewDidLoad()``. As a window's `rootViewController` its view
/// fills the window and the window calls the appearance, layout and size-transition methods (see ``UIWindow``).
@preconcurrency @MainActor open class UIViewController {
    private var loadedView: UIView?
    private var loading = false

    /// A title for navigation UI: setting it also sets `navigationItem.title`, which a navigation bar shows.
    /// Defaults to nil.
    open var title: String? {
        didSet { links.navigationItem?.title = title }
    }

    /// The items a navigation controller's toolbar shows while this controller is on top, as UIKit's property.
    /// Defaults to nil (an empty toolbar). The toolbar shows only when the navigation controller's
    /// `isToolbarHidden` is false.
    open var toolbarItems: [UIBarButtonItem]? {
        didSet { navigationController?.toolbarItemsChanged(by: self) }
    }

    /// Sets ``toolbarItems``, as UIKit's method; `animated` is accepted for source compatibility (the change is
    /// immediate).
    open func setToolbarItems(_ toolbarItems: [UIBarButtonItem]?, animated: Bool) {
        self.toolbarItems = toolbarItems
    }

    /// Whether a `.currentContext` (or `.overCurrentContext`) presentation from this controller or one it contains
    /// covers this controller's view, as UIKit's property: presenting with that style from a child looks up the
    /// parent chain for the nearest controller that defines the context and covers only its view. Defaults to
    /// false (no such controller: the presentation covers the window, as `.fullScreen`).
    open var definesPresentationContext = false

    /// Creates a controller; nib names and bundles are ignored on Linux.
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {}

    /// Creates a controller, as UIKit's `init()`: a convenience initialiser, so subclasses may declare a designated
    /// `init()` of their own without `override`, as on iOS.
    ///
    /// Not on Linux: calling it through a metatype value (`let type: UIViewController.Type = …; type.init()`). On iOS
    /// the Objective-C runtime allows that for any initialiser; Swift allows it only for `required` ones, and making
    /// `init()` required would break the far commoner subclass that declares `init(place:)` and `init?(coder:)`
    /// only. Code that keeps screens as types can keep factories instead (`() -> UIViewController`).
    public convenience init() { self.init(nibName: nil, bundle: nil) }

    /// Creates a controller (archives are not supported on Linux; `coder` is ignored).
    public required init?(coder: NSCoder) {}

    /// The root view, loaded on first access through ``loadView()`` and ``viewDidLoad()``. Setting it replaces the
    /// root view without calling either.
    open var view: UIView! {
        get {
            loadViewIfNeeded()
            return loadedView
        }
        set {
            loadedView?.owningViewController = nil
            loadedView = newValue
            newValue?.owningViewController = self
        }
    }

    /// The root view if loaded, else nil (never loads it).
    public var viewIfLoaded: UIView? { loadedView }

    /// True once the root view exists.
    public var isViewLoaded: Bool { loadedView != nil }

    /// Loads the root view now if it is not loaded (``loadView()`` then ``viewDidLoad()``).
    open func loadViewIfNeeded() {
        guard loadedView == nil, !loading else { return }
        loading = true
        loadView()
        if loadedView == nil { loadedView = UIView(frame: UIScreen.main.bounds) }
        loadedView?.owningViewController = self
        loading = false
        viewDidLoad()
    }

    /// Creates the root view. The default makes a plain view the size of ``UIScreen/bounds``; overrides assign
    /// ``view`` and must not call super.
    open func loadView() {
        loadedView = UIView(frame: UIScreen.main.bounds)
    }

    /// Called once after the root view is loaded. The default does nothing.
    open func viewDidLoad() {}
    /// Called by the window before the view is first shown (`makeKeyAndVisible()`). The default does nothing.
    open func viewWillAppear(_ animated: Bool) {}
    /// Called by the window host after the first frame with the view was shown. The default does nothing.
    open func viewDidAppear(_ animated: Bool) {}
    /// Hook for hosts before hiding the view. The default does nothing.
    open func viewWillDisappear(_ animated: Bool) {}
    /// Hook for hosts after hiding the view. The default does nothing.
    open func viewDidDisappear(_ animated: Bool) {}
    /// Called before the root view lays out its subviews (each layout pass that lays it out). The default does
    /// nothing.
    open func viewWillLayoutSubviews() {}
    /// Called after the root view laid out its subviews. The default does nothing.
    open func viewDidLayoutSubviews() {}
    /// Called in the update-constraints pass when the root view asked for it (`setNeedsUpdateConstraints()`),
    /// after the view's own `updateConstraints()`. Override to add or change constraints; UIKit asks overrides to
    /// call super last. The default does nothing.
    open func updateViewConstraints() {}

    /// Called after the controller's `traitCollection` changed (its own or an inherited `overrideUserInterfaceStyle`,
    /// the app's style), before its root view hears of it, with `UITraitCollection.current` set to the new traits;
    /// `previousTraitCollection` is the traits before. The default does nothing.
    open func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {}

    /// Called when the system is short of memory, as UIKit's method. Waymark's window hosts never are, so it is
    /// called only by code that calls it (tests); the default does nothing.
    open func didReceiveMemoryWarning() {}

    /// Called just before the controller is added to or removed from a container (`parent` nil), as UIKit's method:
    /// `addChild(_:)` calls it, a container calls it with nil before `removeFromParent()`. The default does nothing.
    open func willMove(toParent parent: UIViewController?) {}

    /// Called after the controller was added to or removed from a container, as UIKit's method: a container calls
    /// it once its transition is done, `removeFromParent()` calls it with nil. The default does nothing.
    open func didMove(toParent parent: UIViewController?) {}

    /// The status bar style the controller would like, as UIKit's property. Linux windows have no status bar, so it
    /// is read only by code that asks. Defaults to `.default`.
    open var preferredStatusBarStyle: UIStatusBarStyle { .default }

    /// Whether the controller would hide the status bar, as UIKit's property; read only by code that asks. Defaults
    /// to false.
    open var prefersStatusBarHidden: Bool { false }

    /// The style override and the traits last reported (UIView+Appearance.swift).
    var appearance = ControllerAppearance()
    /// Parent, children and presentation links (UIViewController+Containment.swift).
    var links = ControllerLinks()

    /// Called by the window before its size changes to `size` (points); `coordinator` runs blocks once the new size
    /// is in place. The default does nothing.
    open func viewWillTransition(to size: CGSize, with coordinator: any UIViewControllerTransitionCoordinator) {}
}
