#!/usr/bin/env bash
# docs-images.sh: regenerates the images of docs/ that come from a text
# source (Graphviz .dot files in docs/img/). Needs `dot` (Debian's graphviz:
# apt-get install graphviz); the build and the test suite do not.
#
#   scripts/docs-images.sh

set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../docs/img"
if ! command -v dot >/dev/null; then
  echo "docs-images.sh: error: dot not found (apt-get install graphviz)" >&2
  exit 1
fi
for src in *.dot; do
  dot -Tsvg "$src" -o "${src%.dot}.svg"
  echo "docs/img/${src%.dot}.svg"
done
