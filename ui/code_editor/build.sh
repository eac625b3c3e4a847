#!/bin/sh
# Rebuild editor.js, the one file the app serves, from src/editor.js and CodeMirror's packages
# (npm registry). Needs node and npm at build time only; the app never fetches anything.
set -e
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
cp "$here/package.json" "$work/"
cd "$work"
npm install --no-audit --no-fund
cp "$here/src/editor.js" "$work/entry.js"
node_modules/.bin/esbuild entry.js --bundle --format=esm --minify --legal-comments=none \
  --outfile="$here/editor.js"
rm -rf "$work"
