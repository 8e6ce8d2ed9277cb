// `import GoogleMapsUtils` brings in what `import GoogleMaps` does (the map SDK, the UIKit subset, CoreLocation and
// Foundation), as on iOS, where the library's umbrella header imports <GoogleMaps/GoogleMaps.h> and Google's samples
// import GoogleMapsUtils alone.
@_exported import GoogleMaps
