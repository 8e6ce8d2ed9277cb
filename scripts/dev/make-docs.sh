#!/usr/bin/env bash
# `make docs`: static DocC sites for the public modules, into out/docs/<Module>/ with out/docs/index.html over them.
# Symbol graphs come from the debug build (`swift package dump-symbol-graph`), then the toolchain's `docc convert`
# joins them with each module's catalog (Sources/<Module>/<Module>.docc); no plugin is needed. Modules: GoogleMaps,
# GoogleMapsUtils (when the target exists) and LinuxUIKit, which is what `import UIKit` brings.
# Serve the result with any static server, e.g. `python3 -m http.server -d out/docs`.
set -euo pipefail
cd "$(dirname "$0")/../.."
docc=$(command -v docc || echo "$(dirname "$(readlink -f "$(command -v swift)")")/docc")
[ -x "$docc" ] || { echo "make docs: the toolchain's docc was not found beside swift" >&2; exit 1; }
swift package dump-symbol-graph --minimum-access-level public >/dev/null
graphs=$(find .build -type d -name symbolgraph -newer Package.swift | head -n 1)
[ -n "$graphs" ] || graphs=$(find .build -type d -name symbolgraph | head -n 1)
[ -n "$graphs" ] || { echo "make docs: no symbol graphs under .build" >&2; exit 1; }
out=out/docs
rm -rf "$out.partial" && mkdir -p "$out.partial"
index="<!doctype html><meta charset=utf-8><title>Waymark documentation</title><h1>Waymark documentation</h1><ul>"
for module in GoogleMaps GoogleMapsUtils LinuxUIKit; do
  [ -d "Sources/$module" ] || continue
  catalog="Sources/$module/$module.docc"
  lower=$(echo "$module" | tr '[:upper:]' '[:lower:]')
  input=$(mktemp -d)
  cp "$graphs/$module".symbols.json "$graphs/$module"@*.symbols.json "$input"/ 2>/dev/null || true
  ls "$input"/"$module".symbols.json >/dev/null
  args=(--additional-symbol-graph-dir "$input" --fallback-display-name "$module"
        --fallback-bundle-identifier "org.waymark.$module" --output-path "$out.partial/$module"
        --transform-for-static-hosting --hosting-base-path "$module")
  if [ -d "$catalog" ]; then "$docc" convert "$catalog" "${args[@]}"; else "$docc" convert "${args[@]}"; fi
  rm -rf "$input"
  index+="<li><a href=\"$module/documentation/$lower/\">$module</a></li>"
done
echo "$index</ul>" > "$out.partial/index.html"
rm -rf "$out" && mv "$out.partial" "$out"
echo "make docs: wrote $out/index.html"
