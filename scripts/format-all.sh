#!/bin/sh
# Formats the whole repository with the repo's own Prettier config, applies ESLint's
# automatic fixes, then checks that lint passes. Run once after merging branches
# (`npm run format`); it rewrites many files, so commit the result on its own.
set -eu
cd "$(dirname "$0")/.."
npx tsc -b # the type-aware lint rules read the built packages' declarations
npx prettier --write --log-level warn .
# Findings it cannot fix make it exit 1; carry on, the final lint lists them.
npx eslint --fix . || true
# eslint --fix may leave lines Prettier would wrap differently.
npx prettier --write --log-level warn .
npm run lint
