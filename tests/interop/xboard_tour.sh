#!/usr/bin/env bash
# Interop test: the real xboard (4.9.x, under Xvfb) plays one Fischer random
# game between two instances of Plugboard with pondering on, then the debug log
# and the saved PGN are checked.
#
# Usage (from the repository root):
#     tests/interop/xboard_tour.sh target/release/plugboard
#
# Passes (exit 0) when xboard finished the game by itself with a real result
# (1-0, 0-1 or 1/2-1/2) in variant fischerandom from a Chess960 position (not
# the standard one); the debug log shows `variant fischerandom` and `hard` sent
# to both engines, `Hint:` lines from them, and their moves; and nothing says
# an engine made or was told of an illegal move, answered with an error, lost
# on time or crashed. Every castling move an engine played must reach the
# other engine as `usermove O-O`/`usermove O-O-O` without an error. Ponder
# hits and misses (a `Hint:` followed by the same or another `usermove`) are
# counted and printed. Everything is kept in a temporary folder whose path is
# printed at the end.
set -euo pipefail

usage() { echo "usage: $0 PATH/TO/plugboard" >&2; exit 2; }
[ $# -eq 1 ] || usage

XBOARD=${XBOARD:-/usr/games/xboard}
TC=${TC:-0:20}               # base time per side (xboard -tc: minutes or min:sec)
INC=${INC:-0.2}              # increment per move, seconds
FRC_POSITION=${FRC_POSITION:-100}   # xboard's -defaultFrcPosition (0..959; -1 = random)
DRAW_AFTER_MOVES=${DRAW_AFTER_MOVES:-80}    # xboard adjudicates a draw after this many moves
WALL_LIMIT=${WALL_LIMIT:-150}                # seconds for the whole xboard run

fail() { echo "FAIL: $*" >&2; exit 1; }

ENGINE=$(realpath -e -- "$1" 2>/dev/null) || fail "engine binary not found: $1"
[ -x "$ENGINE" ] || fail "engine binary is not executable: $ENGINE"
ENGINE_DIR=$(dirname -- "$ENGINE")
[ -x "$XBOARD" ] || fail "xboard not found at $XBOARD (apt-get install xboard)"
command -v xvfb-run >/dev/null || fail "xvfb-run not found (apt-get install xvfb xauth)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/plugboard-xboard-tour-XXXXXX")
DEBUG_FILE="$WORK/xboard.debug"
PGN="$WORK/game.pgn"
XBOARD_OUT="$WORK/xboard.out"
mkdir -p "$WORK/home"

echo "engine:   $ENGINE (first and second engine)"
echo "files:    $WORK"
echo "game:     fischerandom, xboard position $FRC_POSITION, $TC + ${INC}s per side, pondering on," \
     "draw adjudicated after $DRAW_AFTER_MOVES moves, under xvfb-run (limit ${WALL_LIMIT}s)"

START=$(date +%s)
set +e
# A private HOME keeps xboard from reading or writing anyone's settings.
# `timeout` signals its whole process group (xvfb-run, Xvfb, xboard, engines).
HOME="$WORK/home" timeout -k 10 "$WALL_LIMIT" \
  xvfb-run -a -s "-screen 0 1280x1024x24" \
  "$XBOARD" \
    -fcp "$ENGINE" -fd "$ENGINE_DIR" \
    -scp "$ENGINE" -sd "$ENGINE_DIR" \
    -variant fischerandom -defaultFrcPosition "$FRC_POSITION" \
    -mg 1 -tc "$TC" -inc "$INC" \
    -ponder -autoCallFlag true -testClaims true \
    -adjudicateDrawMoves "$DRAW_AFTER_MOVES" \
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
  problem "xboard did not finish the game within ${WALL_LIMIT}s (timeout status $RC)"
elif [ "$RC" -ne 0 ]; then
  problem "xboard exited with status $RC (see $XBOARD_OUT)"
fi
[ -s "$DEBUG_FILE" ] || { show_files; fail "no xboard debug file at $DEBUG_FILE"; }
[ -s "$PGN" ] || { problem "no PGN saved at $PGN"; : >"$PGN"; }

# ---- the debug file: xboard logs what it sends as `>first :` / `>second:` and what
# it reads as `<first :` / `<second:`. Both engines are Plugboard.
# xboard writes some commands in pieces (`usermove ` then the move), and logs each piece
# with its own prefix on the same line: `6605 >first : usermove 6605 >first : O-O`.
from_engine() { grep -aE "^[0-9]* *<$1 *:" "$DEBUG_FILE" | sed -E 's/^[0-9]* *<[a-z]+ *: ?//' || true; }
to_engine() { grep -aE "^[0-9]* *>$1 *:" "$DEBUG_FILE" | sed -E 's/[0-9]+ *>(first|second) *: ?//g' || true; }

for who in first second; do
  from_engine "$who" | grep -qE '^feature .*done=1' || problem "$who engine never sent 'feature done=1'"
  to_engine "$who" | grep -qx 'variant fischerandom' || problem "xboard never sent 'variant fischerandom' to the $who engine"
  to_engine "$who" | grep -qx 'hard' || problem "xboard never sent 'hard' (pondering on) to the $who engine"
  bad=$(from_engine "$who" | grep -aE '^(Illegal move|Error)' || true)
  [ -z "$bad" ] || problem "the $who engine answered with an error or rejected a move:"$'\n'"$bad"
  bad=$(to_engine "$who" | grep -aiE '^Illegal move' || true)
  [ -z "$bad" ] || problem "xboard told the $who engine of an illegal move:"$'\n'"$bad"
done
bad=$(grep -aiE 'Illegal move|Forfeit|exited unexpectedly|crashed|stalled|false (draw )?claim' "$DEBUG_FILE" \
      | grep -avE '^[0-9]* *>(first|second) *: *(result|usermove)' || true)
[ -z "$bad" ] || problem "debug file: xboard reports an illegal move/forfeit/crash:"$'\n'"$(printf '%s\n' "$bad" | head -20)"
bad=$(grep -aiE 'Illegal move|Forfeit|exited unexpectedly|Error (writing|reading)|crash' "$XBOARD_OUT" || true)
[ -z "$bad" ] || problem "xboard's messages ($XBOARD_OUT):"$'\n'"$bad"

setboard=$(to_engine first | grep -m1 -E '^setboard ' || true)
[ -n "$setboard" ] || problem "xboard never sent 'setboard' (the Chess960 start position) to the first engine"

# ---- pondering: a `Hint: X` from an engine followed by `usermove Y` to the same engine
# (xboard sends the opponent's move straight into the ponder search): hit if X = Y.
ponder_stats() {
  # $1 = first|second; prints "hints hits misses"
  grep -aE "^[0-9]* *(<$1 *: *Hint:|>$1 *: *usermove )" "$DEBUG_FILE" \
    | sed -E 's/[0-9]+ *[<>](first|second) *: ?//g' | awk '
    /Hint:/ { sub(/.*Hint: */, ""); hint = $1; hints++; next }
    /usermove/ { sub(/.*usermove */, ""); if (hint != "") { if ($1 == hint) hits++; else misses++ } hint = "" }
    END { printf "%d %d %d\n", hints, hits, misses }'
}
total_hints=0
for who in first second; do
  read -r hints hits misses < <(ponder_stats "$who")
  n_moves=$(from_engine "$who" | grep -cE '^move ' || true)
  echo "$who engine: $n_moves moves, $hints 'Hint:' lines, ponder hits $hits, misses $misses"
  total_hints=$((total_hints + hints))
  [ "$n_moves" -ge 1 ] || problem "no 'move' line from the $who engine"
done
[ "$total_hints" -ge 1 ] || problem "pondering on, but no 'Hint:' line from either engine"

# ---- castling: every `move O-O[-O]` of one engine must reach the other as `usermove O-O[-O]`,
# and the line after it (from that engine) must not be an error.
castles=0
for pair in "first second" "second first"; do
  read -r mover other <<<"$pair"
  while read -r castle; do
    [ -n "$castle" ] || continue
    castles=$((castles + 1))
    echo "castling: the $mover engine played 'move $castle'"
    to_engine "$other" | grep -qx "usermove $castle" \
      || problem "the $mover engine castled ('move $castle') but xboard never sent 'usermove $castle' to the $other engine"
  done < <(from_engine "$mover" | sed -nE 's/^move (O-O(-O)?)$/\1/p')
done
for who in first second; do
  odd=$(from_engine "$who" | grep -aE '^move ' | grep -vE '^move ([a-h][1-8][a-h][1-8][qrbn]?|O-O|O-O-O)$' || true)
  [ -z "$odd" ] || problem "unexpected move notation from the $who engine:"$'\n'"$odd"
done

# ---- the PGN: one finished game, variant fischerandom, from a set-up position.
summary=$(awk '
  function flush() { if (n > 0) print n "\t" white "\t" black "\t" result "\t" variant "\t" fen "\t" reason }
  /^\[Event / { flush(); n++; white = black = result = variant = fen = reason = ""; next }
  /^\[White "/ { sub(/^\[White "/, ""); sub(/"\]\r?$/, ""); white = $0; next }
  /^\[Black "/ { sub(/^\[Black "/, ""); sub(/"\]\r?$/, ""); black = $0; next }
  /^\[Result "/ { sub(/^\[Result "/, ""); sub(/"\]\r?$/, ""); result = $0; next }
  /^\[Variant "/ { sub(/^\[Variant "/, ""); sub(/"\]\r?$/, ""); variant = $0; next }
  /^\[FEN "/ { sub(/^\[FEN "/, ""); sub(/"\]\r?$/, ""); fen = $0; next }
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
[ "$n_games" -eq 1 ] || problem "PGN holds $n_games games, expected 1"
pgn_castles=$(grep -v '^\[' "$PGN" | grep -oE 'O-O(-O)?' | wc -l || true)
while IFS=$'\t' read -r n white black result variant fen reason; do
  [ -n "$n" ] || continue
  echo "game $n: $white - $black  $result  {$reason}"
  echo "  variant '$variant', start FEN '$fen'"
  case "$result" in
    1-0|0-1|1/2-1/2) ;;
    *) problem "game $n: result '$result' is not a finished game" ;;
  esac
  [[ "$white" == *Plugboard* && "$black" == *Plugboard* ]] || problem "game $n: players are '$white' / '$black'"
  [ "$variant" = fischerandom ] || problem "game $n: variant '$variant', expected fischerandom"
  [ -n "$fen" ] || problem "game $n: no FEN tag (not a Chess960 start position?)"
  [ "${fen%% *}" != rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR ] || problem "game $n: started from the standard position"
  if printf '%s' "$reason" | grep -qiE 'time|forfeit|illegal|crash|exit|stall|disconnect|false'; then
    problem "game $n: '{$reason}' is a failure of an engine"
  fi
done <<< "$summary"
echo "castling moves by the engines (debug log): $castles; O-O/O-O-O in the PGN: $pgn_castles"
# For information: features/options this xboard does not support (4.9.1 rejects setscore and -reset).
rejected=$(to_engine first | sed -n 's/^rejected //p' | paste -sd ';' - || true)
echo "xboard rejected (first engine): ${rejected:-nothing}"
echo "start position sent to the engines: $setboard"

show_files
if [ "${#problems[@]}" -gt 0 ]; then
  for p in "${problems[@]}"; do echo "FAIL: $p" >&2; done
  exit 1
fi
echo "PASS (${ELAPSED}s)"
