// Styles are JSON documents: `import MapStyle` brings the shared JSON value and parser (`MapJSON`) with it.
@_exported import MapJSON
