#!/usr/bin/env bash
# Renders every page of the console (state graph, orders, cancel queue, reconciliation, monitor, rules, bulk moves, audit) to PNG,
# with 120 sample orders, into docs/screenshots/ (or the directory given as $1): NAME.png at 1280x800 (the
# default window size, used by the docs) and NAME-1920x1080.png, each also in simplified Chinese (NAME-zh-CN*.png)
# and in the dark theme (NAME-dark*.png). Fails when any visible label, button,
# column header or cell shows its text cut short ("…"), naming it.
#
# MVN names the Maven command (default: mvn), e.g. MVN="flock /tmp/mvn.lock mvn -o" on a shared machine.
#
# It runs the real views on the JavaFX headless platform (Monocle, software rendering), the same way the
# TestFX tests do, so no display, Xvfb or OS package is needed; embedded Redis and MariaDB start on
# loopback as in the tests. Chinese text needs a CJK font (Debian: fonts-wqy-microhei).
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mkdir -p "${1:-docs/screenshots}" && cd "${1:-docs/screenshots}" && pwd)"
# The headless screen must hold the largest window (Monocle's default is 1280x800).
${MVN:-mvn} -B test -Dtest=ViewScreenshots -Dsurefire.failIfNoSpecifiedTests=false -Dheadless.geometry=1920x1080-32 \
    -Dscreenshots.dir="$out"
ls -1 "$out"/*.png
