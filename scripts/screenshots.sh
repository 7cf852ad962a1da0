#!/usr/bin/env bash
# Renders every page of the console (state graph, orders, cancel queue, reconciliation, metrics, rules) to PNG,
# with 120 sample orders, into docs/screenshots/ (or the directory given as $1).
#
# It runs the real views on the JavaFX headless platform (Monocle, software rendering), the same way the
# TestFX tests do, so no display, Xvfb or OS package is needed; embedded Redis and MariaDB start on
# loopback as in the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mkdir -p "${1:-docs/screenshots}" && cd "${1:-docs/screenshots}" && pwd)"
mvn -B test -Dtest=ViewScreenshots -Dsurefire.failIfNoSpecifiedTests=false -Dscreenshots.dir="$out"
ls -1 "$out"/*.png
