#!/bin/sh
# The entrypoint of Docker's official Node.js images: arguments that are not a command (`-e ...`,
# `app.js`) are given to node; a command (`node ...`, `sh`) runs as it is.
set -e

if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi

exec "$@"
