#!/usr/bin/env bash
# Interop test: the real xboard (4.9.x, under Xvfb) plays an unattended
# two-game match between Plugboard and Fairy-Max, then the debug log and the
# saved PGN are checked.
#
# Usage (from the repository root):
#     tests/interop/xboard_match.sh target/release/plugboard
#
# Plugboard plays with the opening book tests/data/books/gm2001.bin (set through
# xboard's -firstOptions) and the Syzygy tables of tests/data/syzygy (through
# -egtFormats, which makes xboard send `egtpath syzygy`).
#
# Passes (exit 0) when xboard finished the match by itself, the PGN holds two
# finished games with Plugboard as White in one and Black in the other, the
# debug log shows Plugboard's `feature done=1` and its moves, book moves among
# them (thinking lines starting with `(book`; how long each took after the move or
# `go` before it is printed, a figure, not a check), and nothing says
# Plugboard made or was told of an illegal move, answered with an error, lost
# on time or crashed. Everything is kept in a temporary folder whose path is
# printed at the end.
set -euo pipefail

usage() { echo "usage: $0 PATH/TO/plugboard" >&2; exit 2; }
[ $# -eq 1 ] || usage
# shellcheck source=tests/interop/lib.sh
. "$(dirname -- "$0")/lib.sh"

XBOARD=${XBOARD:-/usr/games/xboard}
FAIRYMAX=${FAIRYMAX:-/usr/games/fairymax}
TC=${TC:-0:20}               # base time per side (xboard -tc: minutes or min:sec)
INC=${INC:-0.2}              # increment per move, seconds
GAMES=2
DRAW_AFTER_MOVES=${DRAW_AFTER_MOVES:-100}   # xboard adjudicates a draw after this many moves
WALL_LIMIT=${WALL_LIMIT:-300}                # seconds for the whole xboard run
REPO=$(cd "$(dirname -- "$0")/../.." && pwd)
BOOK=${BOOK:-$REPO/tests/data/books/gm2001.bin}
TABLES=${TABLES:-$REPO/tests/data/syzygy}

check_prerequisites "$1"
[ -x "$FAIRYMAX" ] || fail "fairymax not found at $FAIRYMAX (apt-get install fairymax)"
make_work plugboard-xboard games.pgn

echo "engine:   $ENGINE"
echo "opponent: $FAIRYMAX"
echo "files:    $WORK"
echo "match:    $GAMES games, $TC + ${INC}s per side, under xvfb-run (limit ${WALL_LIMIT}s)"

filtered_fairymax "$FAIRYMAX"

run_xboard \
  -fcp "$ENGINE" -fd "$ENGINE_DIR" \
  -scp "$OPPONENT" -sd "$WORK" \
  -mg "$GAMES" -tc "$TC" -inc "$INC" \
  -xponder -autoCallFlag true -testClaims true -showThinking true \
  -firstOptions "Book file=$BOOK" -egtFormats "syzygy:$TABLES" \
  -adjudicateDrawMoves "$DRAW_AFTER_MOVES" -matchPause 1000
check_run "the match"

# ---- the debug file: the first engine (-fcp) is Plugboard.
from_us() { read_from first; }
to_us() { sent_to first; }

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
told first | grep -qF "option Book file=$BOOK" || problem "debug file: xboard never set Plugboard's book"
told first | grep -qF "egtpath syzygy $TABLES" || problem "debug file: xboard never sent 'egtpath syzygy'"
# Book moves: the time from the last line sent to Plugboard to its book move.
book_delays=$(awk '
  / >first *:/ { split($0, f, " "); sent = f[1] }
  / <first *:.*\t\(book / { book = 1 }
  / <first *: *move / { if (book) { split($0, f, " "); print f[1] - sent }; book = 0 }
' "$DEBUG_FILE")
n_book=$(printf '%s' "$book_delays" | grep -c . || true)
slowest_book=$(printf '%s\n' "$book_delays" | sort -n | tail -1)
# As White, Plugboard's first move is always from the book; how many follow
# depends on Fairy-Max's random replies (1. d3 left the book at once in one CI
# run), so only that one is required.
[ "$n_book" -ge 1 ] || problem "debug file: no book move from Plugboard"
echo "book moves: $n_book, the slowest ${slowest_book:-?} ms after xboard's last line to Plugboard"
check_xboard_messages

# ---- the PGN
read_games "$GAMES"

plugboard_white=0
plugboard_black=0
while IFS=$PGN_SEP read -r n white black result _ _ reason; do
  [ -n "$n" ] || continue
  echo "game $n: $white - $black  $result  {$reason}"
  check_finished "$n" "$result"
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
  if printf '%s' "$reason" | grep -qiE "$FAILURE_REASONS"; then
    if [ "$lost" = yes ] || printf '%s' "$reason" | grep -qi plugboard; then
      problem "game $n: '{$reason}' is a failure of Plugboard"
    fi
  fi
done <<< "$summary"
[ "$plugboard_white" -ge 1 ] || problem "Plugboard never played White"
[ "$plugboard_black" -ge 1 ] || problem "Plugboard never played Black"
echo "Plugboard moves seen in the debug log: $n_moves"

finish
