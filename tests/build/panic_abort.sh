#!/usr/bin/env bash
# A plugin built with panic = "abort" would end the engine at its first panic:
# the export macros must make such a build fail, saying why. Checks the example
# evaluation plugin with the abort strategy (in a target folder of its own, so
# the main build is not disturbed) and expects that failure.
set -euo pipefail
cd "$(dirname "$0")/../.."

log=$(mktemp)
trap 'rm -f "$log"' EXIT
if cargo check --quiet -p plugboard-eval-material --target-dir target/panic-abort-check \
    --config 'profile.dev.panic="abort"' >"$log" 2>&1; then
    echo "FAIL: a plugin built with panic = \"abort\" compiled" >&2
    exit 1
fi
if ! grep -q 'Plugboard plugins must be built with panic = "unwind"' "$log"; then
    echo "FAIL: the abort build failed for another reason:" >&2
    cat "$log" >&2
    exit 1
fi
# The same crate with the default strategy must build: the failure is the macro's.
cargo check --quiet -p plugboard-eval-material --target-dir target/panic-abort-check
echo "ok: a plugin built with panic = \"abort\" is refused at compile time"
