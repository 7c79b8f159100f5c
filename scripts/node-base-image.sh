#!/usr/bin/env bash
# Builds the Dockerfile's base image, node:VERSION-bookworm-slim, on this machine, for when Docker
# Hub cannot be reached (npm run test:image runs it when the image is missing). It is made the way
# Docker's official images are, from packages this machine can reach:
#   - Debian bookworm from Debian's mirror: `debootstrap --variant=minbase`, brought up to date from
#     bookworm-updates and bookworm-security, and slimmed as debian:bookworm-slim is (no manuals,
#     no documentation but the copyright files, no translations);
#   - Node.js in /usr/local from the npm registry's node-linux-<arch> package (what
#     scripts/with-node.sh fetches and checks), which holds bin/node only, and the npm release that
#     Node.js release bundles (the newest "upgrade npm to" in its CHANGELOG.md), from the registry's
#     npm package, both fetched by `npm pack`, which checks the registry's integrity hash;
#   - the `node` user and group (uid and gid 1000), the official docker-entrypoint.sh, CMD ["node"].
# It differs from the official image in having no Yarn and no Corepack.
#   scripts/node-base-image.sh node:24.21.0-bookworm-slim
# Root only (debootstrap, chroot). Caches Debian's packages and npm in $IMAGE_CACHE_DIR, else
# ${XDG_CACHE_HOME:-~/.cache}/case-intake-image; DEBIAN_MIRROR and DEBIAN_SECURITY_MIRROR name
# other mirrors; NPM_VERSION overrides the npm release.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tag="${1:?usage: scripts/node-base-image.sh node:VERSION-bookworm-slim}"
fail() { echo "node-base-image: $*" >&2; exit 1; }

[[ "$tag" =~ ^node:([0-9]+\.[0-9]+\.[0-9]+)-bookworm-slim$ ]] || fail "only node:X.Y.Z-bookworm-slim can be built here, not $tag"
version="${BASH_REMATCH[1]}"
# The Node.js binary is scripts/with-node.sh's, which fetches the release in .node-version.
[ "$version" = "$(tr -d '[:space:]' < "$root/.node-version")" ] || fail "$tag is not the Node.js release in .node-version"
[ "$(id -u)" -eq 0 ] || fail "debootstrap and chroot need root"
command -v debootstrap >/dev/null || fail "debootstrap is missing: apt-get install -y debootstrap"

suite=bookworm
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
security_mirror="${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
cache="${IMAGE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/case-intake-image}"
mkdir -p "$cache/debs"

node_dir="$("$root/scripts/with-node.sh" sh -c 'cd "$(dirname "$(command -v node)")/.." && pwd')"
npm_version="${NPM_VERSION:-$(grep -m1 -oE 'upgrade npm to [0-9]+\.[0-9]+\.[0-9]+' "$node_dir/CHANGELOG.md" | grep -oE '[0-9.]+$' || true)}"
[ -n "$npm_version" ] || fail "Node.js $version's CHANGELOG.md names no npm release: set NPM_VERSION"
npm_dir="$cache/npm-$npm_version"
if [ ! -f "$npm_dir/bin/npm-cli.js" ]; then
  scratch="$(mktemp -d "$cache/.npm-XXXXXX")"
  (cd "$scratch" && npm pack "npm@$npm_version" --silent >/dev/null)
  tar -xzf "$scratch"/npm-*.tgz -C "$scratch"
  [ "$("$node_dir/bin/node" "$scratch/package/bin/npm-cli.js" --version)" = "$npm_version" ] || fail "the fetched npm is not $npm_version"
  mv -T "$scratch/package" "$npm_dir" 2>/dev/null || [ -f "$npm_dir/bin/npm-cli.js" ]
  rm -rf "$scratch"
fi

rootfs="$(mktemp -d "$cache/rootfs-XXXXXX")"
chmod 0755 "$rootfs"   # it becomes the image's /, which apt's _apt user must be able to enter
cleanup() {
  mountpoint -q "$rootfs/proc" && umount "$rootfs/proc"
  rm -rf --one-file-system "$rootfs"
}
trap cleanup EXIT
in_root() { chroot "$rootfs" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root DEBIAN_FRONTEND=noninteractive "$@"; }

echo "node-base-image: debootstrap $suite from $mirror" >&2
debootstrap --variant=minbase --cache-dir="$cache/debs" "$suite" "$rootfs" "$mirror" >"$cache/debootstrap.log" 2>&1 \
  || fail "debootstrap failed, see $cache/debootstrap.log"

# The sources and the apt and dpkg settings of debian:bookworm-slim (its debuerreotype build).
rm -f "$rootfs/etc/apt/sources.list"
cat > "$rootfs/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: $suite $suite-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security_mirror
Suites: $suite-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
slimmed=(/usr/share/doc /usr/share/groff /usr/share/info /usr/share/linda /usr/share/lintian/overrides /usr/share/locale /usr/share/man)
{
  for dir in "${slimmed[@]}"; do echo "path-exclude $dir/*"; done
  echo 'path-include /usr/share/doc/*/copyright'
} > "$rootfs/etc/dpkg/dpkg.cfg.d/docker"
cat > "$rootfs/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
echo 'Acquire::Languages "none";' > "$rootfs/etc/apt/apt.conf.d/docker-no-languages"
echo 'Apt::AutoRemove::SuggestsImportant "false";' > "$rootfs/etc/apt/apt.conf.d/docker-autoremove-suggests"
# No service starts while a package installs in a container.
printf '#!/bin/sh\nexit 101\n' > "$rootfs/usr/sbin/policy-rc.d" && chmod +x "$rootfs/usr/sbin/policy-rc.d"

echo "node-base-image: security and point-release updates" >&2
mount -t proc proc "$rootfs/proc"
cp /etc/resolv.conf "$rootfs/etc/resolv.conf"
{ in_root apt-get update && in_root apt-get upgrade -y -o Dpkg::Options::=--force-confold && in_root apt-get clean; } >"$cache/upgrade.log" 2>&1 \
  || fail "updating the packages failed, see $cache/upgrade.log"
in_root groupadd --gid 1000 node
in_root useradd --uid 1000 --gid node --shell /bin/bash --create-home node

echo "node-base-image: Node.js $version and npm $npm_version in /usr/local" >&2
cp -a "$node_dir/bin" "$node_dir/include" "$node_dir/share" "$node_dir/CHANGELOG.md" "$node_dir/LICENSE" "$node_dir/README.md" "$rootfs/usr/local/"
mkdir -p "$rootfs/usr/local/lib/node_modules"
cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
chown -R root:root "$rootfs/usr/local"
ln -s node "$rootfs/usr/local/bin/nodejs"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
install -m 0755 "$root/scripts/node-base-image/docker-entrypoint.sh" "$rootfs/usr/local/bin/docker-entrypoint.sh"
[ "$(in_root node --version)" = "v$version" ] || fail "node in the image is not v$version"
[ "$(in_root npm --version)" = "$npm_version" ] || fail "npm in the image is not $npm_version"
[ "$(in_root id -u node)" = 1000 ] || fail "the node user is not uid 1000"
umount "$rootfs/proc"

# What the image must not keep: package lists, this machine's resolver and logs, npm's checks above.
for dir in "${slimmed[@]}"; do
  [ -d "$rootfs$dir" ] && find "$rootfs$dir" -mindepth 1 ! -type d ! -path "$rootfs/usr/share/doc/*/copyright" -delete
done
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/* "$rootfs"/var/log/* "$rootfs"/tmp/* "$rootfs"/root/.npm "$rootfs"/root/.config
: > "$rootfs/etc/resolv.conf"
: > "$rootfs/etc/machine-id"
rm -f "$rootfs/var/lib/dbus/machine-id"

echo "node-base-image: importing $tag" >&2
tar --numeric-owner --xattrs -C "$rootfs" -c . | ${DOCKER:-docker} import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$version" \
  --change 'ENTRYPOINT ["docker-entrypoint.sh"]' \
  --change 'CMD ["node"]' \
  --message "debootstrap $suite (minbase, updated, slimmed), Node.js $version and npm $npm_version from the npm registry" \
  - "$tag" >/dev/null
echo "node-base-image: built $tag" >&2
