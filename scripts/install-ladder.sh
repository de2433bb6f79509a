#!/usr/bin/env bash
# Installs the opponents of the strength ladder (issue 6) from Debian, for the
# measurements in scripts/ladder.sh, and of the xiangqi matches (issue 17) in
# scripts/xiangqi-match.sh: fairy-stockfish (also xboard's xiangqi opponent and the
# perft and opening reference of scripts/xiangqi-openings.py) and hoichess (which
# ships hoixiangqi); maxqi comes with fairymax, which scripts/install-deps.sh
# installs for the tests. The tests do not need them. Idempotent.
set -euo pipefail
exec "$(dirname "$0")/install-deps.sh" phalanx sjeng hoichess gnuchess stockfish toga2 glaurung fairy-stockfish
