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
# shellcheck source=tests/interop/lib.sh
. "$(dirname -- "$0")/lib.sh"

XBOARD=${XBOARD:-/usr/games/xboard}
TC=${TC:-0:20}               # base time per side (xboard -tc: minutes or min:sec)
INC=${INC:-0.2}              # increment per move, seconds
FRC_POSITION=${FRC_POSITION:-100}   # xboard's -defaultFrcPosition (0..959; -1 = random)
DRAW_AFTER_MOVES=${DRAW_AFTER_MOVES:-80}    # xboard adjudicates a draw after this many moves
WALL_LIMIT=${WALL_LIMIT:-150}                # seconds for the whole xboard run

check_prerequisites "$1"
make_work plugboard-xboard-tour game.pgn

echo "engine:   $ENGINE (first and second engine)"
echo "files:    $WORK"
echo "game:     fischerandom, xboard position $FRC_POSITION, $TC + ${INC}s per side, pondering on," \
     "draw adjudicated after $DRAW_AFTER_MOVES moves, under xvfb-run (limit ${WALL_LIMIT}s)"

run_xboard \
  -fcp "$ENGINE" -fd "$ENGINE_DIR" \
  -scp "$ENGINE" -sd "$ENGINE_DIR" \
  -variant fischerandom -defaultFrcPosition "$FRC_POSITION" \
  -mg 1 -tc "$TC" -inc "$INC" \
  -ponder -autoCallFlag true -testClaims true \
  -adjudicateDrawMoves "$DRAW_AFTER_MOVES"
check_run "the game"

# ---- the debug file: both engines are Plugboard.
for who in first second; do
  said_by "$who" | grep -qE '^feature .*done=1' || problem "$who engine never sent 'feature done=1'"
  told "$who" | grep -qx 'variant fischerandom' || problem "xboard never sent 'variant fischerandom' to the $who engine"
  told "$who" | grep -qx 'hard' || problem "xboard never sent 'hard' (pondering on) to the $who engine"
  bad=$(said_by "$who" | grep -aE '^(Illegal move|Error)' || true)
  [ -z "$bad" ] || problem "the $who engine answered with an error or rejected a move:"$'\n'"$bad"
  bad=$(told "$who" | grep -aiE '^Illegal move' || true)
  [ -z "$bad" ] || problem "xboard told the $who engine of an illegal move:"$'\n'"$bad"
done
bad=$(grep -aiE 'Illegal move|Forfeit|exited unexpectedly|crashed|stalled|false (draw )?claim' "$DEBUG_FILE" \
      | grep -avE '^[0-9]* *>(first|second) *: *(result|usermove)' || true)
[ -z "$bad" ] || problem "debug file: xboard reports an illegal move/forfeit/crash:"$'\n'"$(printf '%s\n' "$bad" | head -20)"
check_xboard_messages

setboard=$(told first | grep -m1 -E '^setboard ' || true)
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
  n_moves=$(said_by "$who" | grep -cE '^move ' || true)
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
    told "$other" | grep -qx "usermove $castle" \
      || problem "the $mover engine castled ('move $castle') but xboard never sent 'usermove $castle' to the $other engine"
  done < <(said_by "$mover" | sed -nE 's/^move (O-O(-O)?)$/\1/p')
done
for who in first second; do
  odd=$(said_by "$who" | grep -aE '^move ' | grep -vE '^move ([a-h][1-8][a-h][1-8][qrbn]?|O-O|O-O-O)$' || true)
  [ -z "$odd" ] || problem "unexpected move notation from the $who engine:"$'\n'"$odd"
done

# ---- the PGN: one finished game, variant fischerandom, from a set-up position.
read_games 1
pgn_castles=$(grep -v '^\[' "$PGN" | grep -oE 'O-O(-O)?' | wc -l || true)
while IFS=$PGN_SEP read -r n white black result variant fen reason; do
  [ -n "$n" ] || continue
  echo "game $n: $white - $black  $result  {$reason}"
  echo "  variant '$variant', start FEN '$fen'"
  check_finished "$n" "$result"
  [[ "$white" == *Plugboard* && "$black" == *Plugboard* ]] || problem "game $n: players are '$white' / '$black'"
  [ "$variant" = fischerandom ] || problem "game $n: variant '$variant', expected fischerandom"
  [ -n "$fen" ] || problem "game $n: no FEN tag (not a Chess960 start position?)"
  [ "${fen%% *}" != rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR ] || problem "game $n: started from the standard position"
  if printf '%s' "$reason" | grep -qiE "$FAILURE_REASONS"; then
    problem "game $n: '{$reason}' is a failure of an engine"
  fi
done <<< "$summary"
echo "castling moves by the engines (debug log): $castles; O-O/O-O-O in the PGN: $pgn_castles"
# For information: features/options this xboard does not support (4.9.1 rejects setscore).
rejected=$(told first | sed -n 's/^rejected //p' | paste -sd ';' - || true)
echo "xboard rejected (first engine): ${rejected:-nothing}"
echo "start position sent to the engines: $setboard"

finish
