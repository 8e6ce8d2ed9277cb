# Waymark. `make demo` and `make test` are the two commands README.md opens with.
SWIFT ?= swift
export FONTCONFIG_FILE ?= $(CURDIR)/Tests/Fixtures/fonts/fonts.conf

.PHONY: demo test deps test-deps data lint bench build geocoder-data viewer compile-checks

deps:
	@scripts/dev/install-deps.sh build

test-deps:
	@scripts/dev/install-deps.sh test

build: deps
	$(SWIFT) build

## demo: install what is missing, build, and run the main job on the embedded default data.
demo: deps
	$(SWIFT) build -c release --product waymark
	.build/release/waymark demo
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
		$(SWIFT) build -c release --product map-viewer && .build/release/map-viewer; \
	else echo "No display: skipping map-viewer (run 'make viewer' where DISPLAY is set)."; fi

## test: install what is missing, check the repository, build, run every test, and lint.
test: test-deps checks
	$(SWIFT) build --build-tests
	SWIFT=$(SWIFT) scripts/dev/compile-checks.sh
	$(SWIFT) test --skip-build --parallel
	$(SWIFT) format lint --strict -r Sources Tests Examples Package.swift

## checks: the repository's own checks (scripts/dev): the package graph matches the imports and ARCHITECTURE.md's
## diagram, every behaviour citation, documented path and documented Swift name resolves, the bundled styles are their
## generators' output, the bundled data keeps its 64 MiB budget (the world to zoom 9), and the unit tests of these checks
## and of the data scripts.
.PHONY: checks
checks:
	python3 scripts/dev/test_dev_checks.py
	python3 scripts/dev/check_graph.py .
	python3 scripts/dev/check_docs.py .
	python3 scripts/dev/check_styles.py .
	python3 scripts/dev/check_data.py .
	scripts/data/fetch-sources.sh --venv-only --quiet >/dev/null
	.sources/venv/bin/python scripts/data/test_data_scripts.py

## docs: static DocC sites for GoogleMaps, GoogleMapsUtils and UIKit into out/docs/ (scripts/dev/make-docs.sh).
.PHONY: docs
docs: deps
	scripts/dev/make-docs.sh

## compile-checks: build Tests/CompileChecks (nonisolated calls in Swift 5 and Swift 6 mode) and check its warnings.
compile-checks:
	SWIFT=$(SWIFT) scripts/dev/compile-checks.sh

lint:
	$(SWIFT) format lint --strict -r Sources Tests Examples Package.swift

## viewer: build and open the map in a window (needs DISPLAY or WAYLAND_DISPLAY); VIEWER_ARGS are passed on.
viewer: deps
	$(SWIFT) build -c release --product map-viewer
	.build/release/map-viewer $(VIEWER_ARGS)

## bench: release-build benchmarks (see BENCHMARKS.md).
bench: deps
	$(SWIFT) run -c release map-benchmarks

## data: rebuild the committed map data under Data/ from pinned sources (see DATA.md).
data:
	@scripts/dev/install-deps.sh data
	scripts/data/build-data.sh
	scripts/data/build-geocoder.sh
	.sources/venv/bin/python scripts/data/build-indoor.py

## geocoder-data: rebuild Data/geocoder.sqlite from pinned sources (see Data/GEOCODER.md).
geocoder-data:
	@scripts/dev/install-deps.sh data
	scripts/data/build-geocoder.sh

## data-check: build the map data twice in temp folders and compare byte for byte (see DATA.md).
.PHONY: data-check
data-check:
	@scripts/dev/install-deps.sh data
	scripts/data/check-data-determinism.sh

## fuzz-mvt: libFuzzer + ASan on the vector tile decoder for FUZZ_SECONDS (default 600); see scripts/fuzz/fuzz-mvt.sh.
FUZZ_SECONDS ?= 600
.PHONY: fuzz-mvt
fuzz-mvt:
	scripts/fuzz/fuzz-mvt.sh $(FUZZ_SECONDS)

## fuzz-pmtiles: libFuzzer + ASan on the PMTiles header and directory decoders for FUZZ_SECONDS (default 600).
.PHONY: fuzz-pmtiles
fuzz-pmtiles:
	scripts/fuzz/fuzz-pmtiles.sh $(FUZZ_SECONDS)
