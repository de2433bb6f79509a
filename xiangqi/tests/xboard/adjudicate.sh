#!/usr/bin/env bash
# Has xboard 4.9 judge scripted repetitions: for each `FEN; RED_MOVES; BLACK_MOVES`
# line on stdin (as examples/cycles.rs prints them), runs one game between two
# fake_engine.py under xvfb-run from that position and prints the line with the
# plies played and xboard's adjudication appended, in the form of
# tests/data/xboard_repetitions.txt. Needs xboard (/usr/games/xboard), xvfb-run, python3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
xboard=${XBOARD:-/usr/games/xboard}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
while IFS=';' read -r fen red black; do
  fen=$(echo "$fen" | xargs); red=$(echo "$red" | xargs); black=$(echo "$black" | xargs)
  rm -rf "$work/game" && mkdir -p "$work/game/home"
  echo "$fen" >"$work/game/position.fen"
  HOME="$work/game/home" timeout -k 5 120 xvfb-run -a -s "-screen 0 1280x1024x24" "$xboard" \
    -variant xiangqi -fcp "$here/fake_engine.py $red" -scp "$here/fake_engine.py $black" \
    -lpf "$work/game/position.fen" -mg 1 -tc 5 -inc 0 -xponder -testLegality true -testClaims true \
    -sgf "$work/game/game.pgn" -saveSettingsOnExit false -popupExitMessage false -soundProgram '' \
    </dev/null >"$work/game/out" 2>&1 || true
  # Plies: the PGN's move tokens, without headers, comments, numbers and the result.
  plies=$(python3 -c '
import re, sys
text = open(sys.argv[1], encoding="latin-1").read()
moves = re.sub(r"\{[^}]*\}|\[[^]]*\]", " ", text).split()
print(sum(1 for t in moves if not re.fullmatch(r"\d+\.+|1-0|0-1|1/2-1/2|\*", t)))
' "$work/game/game.pgn")
  verdict=$(grep -aoE 'adjudication: [^}]*\} [-0-9/]+' "$work/game/game.pgn" | head -1 \
    | sed -E 's/adjudication: ([^}]*)\} /\1 /')
  echo "$fen; $red; $black; $plies; ${verdict:-none}"
done
