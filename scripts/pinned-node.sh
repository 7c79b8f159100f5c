# Sourced first by every npm script that runs Node (`. scripts/pinned-node.sh && ...`), so the
# README's commands work whatever Node started npm (18 on): when that Node does not satisfy
# `engines`, the release in .node-version (fetched once by scripts/with-node.sh) goes first on PATH
# for the rest of the script, and node, npm, tsc and vite all run on it. POSIX sh: npm runs
# scripts with /bin/sh.
if ! node -e '
  const range = require("./package.json").engines.node;
  const want = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(range);
  if (!want) throw new Error(`engines.node is not a caret range: ${range}`);
  const [major, minor, patch] = want.slice(1).map(Number);
  const [a, b, c] = process.versions.node.split(".").map(Number);
  process.exit(a === major && (b > minor || (b === minor && c >= patch)) ? 0 : 1);
'; then
  PATH="$(scripts/with-node.sh sh -c 'dirname "$(command -v node)"')":"$PATH" || exit 1
  export PATH
fi
