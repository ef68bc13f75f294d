#!/usr/bin/env bash
# Builds the Russian lemmatiser asset www/assets/ru-lemmas.bin (about 12 MB, 5.5 MB gzipped) from the pinned
# pymorphy3 dictionary package: pip install (tools/lemmas/requirements.txt), convert.py, dropscore lemma-build.
# Skips everything when the asset's stamp matches the inputs (requirements, converter, packer).
# Usage: tools/lemmas/build.sh [--force|--check]   (run by scripts/ensure-tools, and by scripts/start in the
#        background; --check exits 0 when the asset is up to date, 1 when it would be built)
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$HOME/.cargo/bin:$PATH"

asset=www/assets/ru-lemmas.bin
stamp=www/assets/ru-lemmas.stamp
want=$(cat tools/lemmas/requirements.txt tools/lemmas/convert.py src/lemma/build.rs src/lemma/asset.rs \
  | sha256sum | awk '{print $1}')
up_to_date() { [ -f "$asset" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; }
if [ "${1:-}" != --force ] && up_to_date; then
  echo "present"
  exit 0
fi
[ "${1:-}" = --check ] && exit 1

# One build at a time: scripts/start (in the background) and scripts/test may both get here. The second waits for
# the first's lock (flock(1), util-linux) and then finds the asset built.
mkdir -p www/assets
exec 9>www/assets/.ru-lemmas.lock
flock 9
if [ "${1:-}" != --force ] && up_to_date; then
  echo "present (built by a concurrent run)"
  exit 0
fi

# A copy per input hash in the user's cache, so that a fresh clone on the same machine (CI's) takes the asset
# instead of building it again (about 3 minutes): the asset depends on the hashed inputs only.
cache="${XDG_CACHE_HOME:-$HOME/.cache}/dropscore/ru-lemmas-$want.bin"
if [ "${1:-}" != --force ] && [ -f "$cache" ]; then
  cp "$cache" "$asset.tmp.$$"
  mv "$asset.tmp.$$" "$asset"
  echo "$want" > "$stamp"
  echo "present (copied from $cache)"
  exit 0
fi

t0=$(date +%s)
python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
  -r tools/lemmas/requirements.txt >&2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dropscore-lemmas.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
python3 tools/lemmas/convert.py "$tmp/src" >&2
cargo build --release --quiet --bin dropscore >&2
"${CARGO_TARGET_DIR:-target}/release/dropscore" lemma-build "$tmp/src" "$tmp/ru-lemmas.bin" >&2
mv "$tmp/ru-lemmas.bin" "$asset.tmp.$$"
mv "$asset.tmp.$$" "$asset"
echo "$want" > "$stamp"
mkdir -p "$(dirname "$cache")" && cp "$asset" "$cache.tmp.$$" && mv "$cache.tmp.$$" "$cache" || true
gz=$(gzip -6 -c "$asset" | wc -c)
echo "built ($(stat -c %s "$asset") bytes, gzipped $gz, $(( $(date +%s) - t0 )) s)"
