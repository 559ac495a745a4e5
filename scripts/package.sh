#!/usr/bin/env bash
# `make package`: bootsmith_<version>_amd64.deb and bootsmith-<version>-1.x86_64.rpm, made by
# Tauri's bundler (@tauri-apps/cli from packaging/package-lock.json, the tauri crate's version)
# from the release build, with what tauri.conf.json's `bundle` and packaging/ add: bootsmith-sim,
# the manual pages, the systemd unit, the maintainer scripts. Prints where they are.
set -euo pipefail
cd "$(dirname "$0")/.."
CARGO=${CARGO:-cargo}

# The bundler reads tauri.conf.json as the tauri crate does: the same version on both sides.
crate=$(awk '$0 == "name = \"tauri\"" { getline; gsub(/"/, "", $3); print $3 }' Cargo.lock)
cli=$(node -p 'require("./packaging/package.json").devDependencies["@tauri-apps/cli"]')
if [ "$crate" != "$cli" ]; then
  echo "package: the tauri crate is $crate (Cargo.lock) but packaging/package.json pins @tauri-apps/cli $cli: pin $crate there and run npm install in packaging/" >&2
  exit 1
fi

if [ ! -f packaging/node_modules/.package-lock.json ] ||
  [ packaging/package-lock.json -nt packaging/node_modules/.package-lock.json ]; then
  echo "package: installing Tauri's bundler (npm ci in packaging/)"
  (cd packaging && npm ci --no-audit --no-fund --loglevel=error)
fi

target=$($CARGO metadata --format-version 1 --no-deps |
  node -e 'let s = ""; process.stdin.on("data", d => (s += d)).on("end", () => console.log(JSON.parse(s).target_directory))')
version=$($CARGO metadata --format-version 1 --no-deps |
  node -e 'let s = ""; process.stdin.on("data", d => (s += d)).on("end", () => console.log(JSON.parse(s).packages.find(p => p.name === "bootsmith").version))')

# The bundler looks for the web interface before building; build.rs remakes it when stale.
if [ ! -f ui/dist/index.html ]; then
  (cd ui && npm run --silent build)
fi

# The simulator ships as its own binary beside the app; the bundler builds only the app.
$CARGO build --release -p bootsmith-sim

# What the package holds that is made here: compressed manual pages (no time stamp, so the
# same sources give the same package), the Debian changelog for this version (not the
# bundler's `changelog`, which it files under the product name's directory).
gen="$target/release/package-files"
rm -rf "$gen" && mkdir -p "$gen"
gzip -9n <packaging/bootsmith.1 >"$gen/bootsmith.1.gz"
gzip -9n <packaging/bootsmith-sim.1 >"$gen/bootsmith-sim.1.gz"
date=$(git log -1 --format=%cD 2>/dev/null || date -R)
gzip -9n >"$gen/changelog.gz" <<END
bootsmith ($version) stable; urgency=medium

  * Bootsmith $version: the window, and bootsmith.service for the server.

 -- The Bootsmith authors <maintainers@users.noreply.a-seed-83a4f563.example>  $date
END
# The app, as the bundler builds it (its own features; the same command again is a no-op).
packaging/node_modules/.bin/tauri build --ci --no-bundle

# The shared libraries both binaries need, with the versions they need (libc6 (>= 2.34), …):
# Debian's own dpkg-shlibdeps reads them from the binaries.
depends=$(
  mkdir -p "$gen/shlibdeps/debian" && cd "$gen/shlibdeps" &&
    printf 'Source: bootsmith\n\nPackage: bootsmith\nArchitecture: any\n' >debian/control &&
    dpkg-shlibdeps -O "$target/release/bootsmith" "$target/release/bootsmith-sim" 2>/dev/null |
    sed -n 's/^shlibs:Depends=//p'
)
[ -n "$depends" ] || {
  echo "package: dpkg-shlibdeps found no libraries in $target/release/bootsmith" >&2
  exit 1
}

node - "$gen" "$target/release" "$depends" >"$gen/tauri.package.json" <<'END'
const [gen, release, depends] = process.argv.slice(2);
const files = {
  "/usr/bin/bootsmith-sim": `${release}/bootsmith-sim`,
  "/usr/share/man/man1/bootsmith.1.gz": `${gen}/bootsmith.1.gz`,
  "/usr/share/man/man1/bootsmith-sim.1.gz": `${gen}/bootsmith-sim.1.gz`,
};
const conf = require("./tauri.conf.json").bundle.linux;
console.log(JSON.stringify({
  bundle: {
    linux: {
      deb: {
        depends: [...depends.split(", "), ...conf.deb.depends],
        files: {
          ...conf.deb.files,
          ...files,
          "/usr/share/doc/bootsmith/changelog.gz": `${gen}/changelog.gz`,
        },
      },
      rpm: { files: { ...conf.rpm.files, ...files } },
    },
  },
}));
END

packaging/node_modules/.bin/tauri bundle --ci --bundles deb,rpm --config "$gen/tauri.package.json"

deb="$target/release/bundle/deb/bootsmith_${version}_amd64.deb"
rpm=$(ls "$target/release/bundle/rpm/bootsmith-${version}-"*.x86_64.rpm)
for f in "$deb" $rpm; do
  echo "package: $f ($(du -k "$f" | cut -f1) KiB)"
done
