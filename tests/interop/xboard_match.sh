#!/usr/bin/env bash
# Interop test: the real xboard (4.9.x, under Xvfb) plays an unattended
# two-game match between Plugboard and Fairy-Max, then the debug log and the
# saved PGN are checked.
#
# Usage (from the repository root):
#     tests/interop/xboard_match.sh target/release/plugboard
#
# Passes (exit 0) when xboard finished the match by itself, the PGN holds two
# finished games with Plugboard as White in one and Black in the other, the
# debug log shows Plugboard's `feature done=1` and its moves, and nothing says
# Plugboard made or was told of an illegal move, answered with an error, lost
# on time or crashed. Everything is kept in a temporary folder whose path is
# printed at the end.
set -euo pipefail

usage() { echo "usage: $0 PATH/TO/plugboard" >&2; exit 2; }
[ $# -eq 1 ] || usage

XBOARD=${XBOARD:-/usr/games/xboard}
FAIRYMAX=${FAIRYMAX:-/usr/games/fairymax}
TC=${TC:-0:20}               # base time per side (xboard -tc: minutes or min:sec)
INC=${INC:-0.2}              # increment per move, seconds
GAMES=2
DRAW_AFTER_MOVES=${DRAW_AFTER_MOVES:-100}   # xboard adjudicates a draw after this many moves
WALL_LIMIT=${WALL_LIMIT:-300}                # seconds for the whole xboard run

fail() { echo "FAIL: $*" >&2; exit 1; }

ENGINE=$(realpath -e -- "$1" 2>/dev/null) || fail "engine binary not found: $1"
[ -x "$ENGINE" ] || fail "engine binary is not executable: $ENGINE"
ENGINE_DIR=$(dirname -- "$ENGINE")
[ -x "$XBOARD" ] || fail "xboard not found at $XBOARD (apt-get install xboard)"
[ -x "$FAIRYMAX" ] || fail "fairymax not found at $FAIRYMAX (apt-get install fairymax)"
command -v xvfb-run >/dev/null || fail "xvfb-run not found (apt-get install xvfb xauth)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/plugboard-xboard-XXXXXX")
DEBUG_FILE="$WORK/xboard.debug"
PGN="$WORK/games.pgn"
XBOARD_OUT="$WORK/xboard.out"
mkdir -p "$WORK/home"

echo "engine:   $ENGINE"
echo "opponent: $FAIRYMAX"
echo "files:    $WORK"
echo "match:    $GAMES games, $TC + ${INC}s per side, under xvfb-run (limit ${WALL_LIMIT}s)"

# Debian's Fairy-Max 5.0b often dies with SIGSEGV on a command it does not know
# (instead of answering `Error (unknown command)`), and xboard sends it two such
# commands: `computer` when a game starts and `result` when it ends. Seen here:
# `xboard: Error writing to second chess program: Broken pipe` after `computer`.
# So the opponent runs behind this filter, which drops just those two lines.
OPPONENT="$WORK/fairymax-filtered.sh"
cat >"$OPPONENT" <<EOF
#!/bin/sh
trap '' INT
grep --line-buffered -v -E '^(computer|result)( |\$)' | '$FAIRYMAX'
EOF
chmod +x "$OPPONENT"

START=$(date +%s)
set +e
# A private HOME keeps xboard from reading or writing anyone's settings.
# `timeout` signals its whole process group (xvfb-run, Xvfb, xboard, engines).
HOME="$WORK/home" timeout -k 10 "$WALL_LIMIT" \
  xvfb-run -a -s "-screen 0 1280x1024x24" \
  "$XBOARD" \
    -fcp "$ENGINE" -fd "$ENGINE_DIR" \
    -scp "$OPPONENT" -sd "$WORK" \
    -mg "$GAMES" -tc "$TC" -inc "$INC" \
    -xponder -autoCallFlag true -testClaims true \
    -adjudicateDrawMoves "$DRAW_AFTER_MOVES" -matchPause 1000 \
    -debug -nameOfDebugFile "$DEBUG_FILE" -sgf "$PGN" \
    -saveSettingsOnExit false -popupExitMessage false -soundProgram '' \
    </dev/null >"$XBOARD_OUT" 2>&1
RC=$?
set -e
ELAPSED=$(( $(date +%s) - START ))
echo "xboard exited with status $RC after ${ELAPSED}s"

show_files() {
  echo
  echo "debug log: $DEBUG_FILE"
  echo "PGN:       $PGN"
  echo "xboard stdout/stderr: $XBOARD_OUT"
  sed 's/^/  | /' "$XBOARD_OUT"
  if [ -s "$PGN" ]; then
    echo "----- $PGN"
    cat "$PGN"
    echo "-----"
  fi
}
problems=()
problem() { problems+=("$*"); }

if [ "$RC" -eq 124 ] || [ "$RC" -eq 137 ]; then
  problem "xboard did not finish the match within ${WALL_LIMIT}s (timeout status $RC)"
elif [ "$RC" -ne 0 ]; then
  problem "xboard exited with status $RC (see $XBOARD_OUT)"
fi
[ -s "$DEBUG_FILE" ] || { show_files; fail "no xboard debug file at $DEBUG_FILE"; }
[ -s "$PGN" ] || { problem "no PGN saved at $PGN"; : >"$PGN"; }

# ---- the debug file: xboard logs what it sends as `>first :` / `>second:` and what
# it reads as `<first :` / `<second:`; the first engine (-fcp) is Plugboard.
from_us() { grep -aE '^[0-9]* *<first *:' "$DEBUG_FILE" || true; }
to_us() { grep -aE '^[0-9]* *>first *:' "$DEBUG_FILE" || true; }

if ! from_us | grep -qE ':[[:space:]]*feature .*done=1'; then
  problem "debug file: Plugboard never sent 'feature done=1'"
fi
n_moves=$(from_us | grep -cE ':[[:space:]]*move [a-h][1-8][a-h][1-8]' || true)
if [ "$n_moves" -lt 1 ]; then
  problem "debug file: no 'move' line from Plugboard"
fi
bad=$(from_us | grep -aE ':[[:space:]]*(Illegal move|Error)' || true)
[ -z "$bad" ] || problem "debug file: Plugboard answered with an error or rejected a move:"$'\n'"$bad"
bad=$(to_us | grep -aiE ':[[:space:]]*Illegal move' || true)
[ -z "$bad" ] || problem "debug file: xboard told Plugboard of an illegal move:"$'\n'"$bad"
bad=$(grep -aiE 'Illegal move.*(first|plugboard)|Forfeit|exited unexpectedly|crashed|stalled' "$DEBUG_FILE" | grep -avE '^[0-9]* *[<>]second' || true)
[ -z "$bad" ] || problem "debug file: xboard reports a forfeit/illegal move/crash:"$'\n'"$bad"
bad=$(grep -aiE 'Illegal move|Forfeit|exited unexpectedly|Error (writing|reading)|crash' "$XBOARD_OUT" || true)
[ -z "$bad" ] || problem "xboard's messages ($XBOARD_OUT):"$'\n'"$bad"

# ---- the PGN: one record per game with its tags and the comment before the result.
summary=$(awk '
  function flush() {
    if (n > 0) print n "\t" white "\t" black "\t" result "\t" reason
  }
  /^\[Event / { flush(); n++; white = black = result = reason = ""; next }
  /^\[White "/ { sub(/^\[White "/, ""); sub(/"\]\r?$/, ""); white = $0; next }
  /^\[Black "/ { sub(/^\[Black "/, ""); sub(/"\]\r?$/, ""); black = $0; next }
  /^\[Result "/ { sub(/^\[Result "/, ""); sub(/"\]\r?$/, ""); result = $0; next }
  /^\[/ { next }
  {
    line = $0
    while (match(line, /\{[^}]*\}/)) { reason = substr(line, RSTART + 1, RLENGTH - 2); line = substr(line, RSTART + RLENGTH) }
  }
  END { flush() }
' "$PGN")
n_games=$(printf '%s\n' "$summary" | grep -c . || true)
echo
echo "games in the PGN: $n_games"
[ "$n_games" -eq "$GAMES" ] || problem "PGN holds $n_games games, expected $GAMES"

plugboard_white=0
plugboard_black=0
while IFS=$'\t' read -r n white black result reason; do
  [ -n "$n" ] || continue
  echo "game $n: $white - $black  $result  {$reason}"
  case "$result" in
    1-0|0-1|1/2-1/2) ;;
    *) problem "game $n: result '$result' is not a finished game" ;;
  esac
  us=""
  if [[ "$white" == *Plugboard* && "$black" != *Plugboard* ]]; then
    us=white; plugboard_white=$((plugboard_white + 1))
  elif [[ "$black" == *Plugboard* && "$white" != *Plugboard* ]]; then
    us=black; plugboard_black=$((plugboard_black + 1))
  else
    problem "game $n: Plugboard is not exactly one of White '$white' / Black '$black'"
  fi
  lost=no
  { [ "$us" = white ] && [ "$result" = 0-1 ]; } && lost=yes
  { [ "$us" = black ] && [ "$result" = 1-0 ]; } && lost=yes
  if [ "$lost" = yes ]; then
    # A loss is fine when it is a loss over the board; anything else is a failure.
    if ! printf '%s' "$reason" | grep -qiE 'mates|checkmate|resigns'; then
      problem "game $n: Plugboard ($us) lost by '{$reason}'"
    fi
  fi
  if printf '%s' "$reason" | grep -qiE 'time|forfeit|illegal|crash|exit|stall|disconnect|false'; then
    if [ "$lost" = yes ] || printf '%s' "$reason" | grep -qi plugboard; then
      problem "game $n: '{$reason}' is a failure of Plugboard"
    fi
  fi
done <<< "$summary"
[ "$plugboard_white" -ge 1 ] || problem "Plugboard never played White"
[ "$plugboard_black" -ge 1 ] || problem "Plugboard never played Black"
echo "Plugboard moves seen in the debug log: $n_moves"

show_files
if [ "${#problems[@]}" -gt 0 ]; then
  for p in "${problems[@]}"; do echo "FAIL: $p" >&2; done
  exit 1
fi
echo "PASS (${ELAPSED}s)"
