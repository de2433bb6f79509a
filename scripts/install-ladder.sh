#!/usr/bin/env bash
# Installs the opponents of the strength ladder (issue 6) from Debian, for the
# measurements in scripts/ladder.sh; the tests do not need them. Idempotent.
set -euo pipefail
exec "$(dirname "$0")/install-deps.sh" phalanx sjeng hoichess gnuchess stockfish toga2 glaurung fairy-stockfish
