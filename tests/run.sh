#!/bin/sh
# npm test: the typecheck and the SPA's build side by side (each keeps one core busy), then the unit, component and
# server tests, then the browser tests on the build. Stops at the first part that fails.
set -e
npm run -s typecheck &
typecheck=$!
if ! vite build --logLevel warn; then
  wait "$typecheck" || true
  exit 1
fi
wait "$typecheck"
vitest run
vitest run --config vitest.e2e.config.ts
