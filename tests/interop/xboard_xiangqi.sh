#!/usr/bin/env bash
# Interop test: the real xboard (4.9.x, under Xvfb), which knows the rules of
# xiangqi and tests every move, claim and clock, referees two games of
# `-variant xiangqi` between Plugboard and MaxQi (Fairy-Max's xiangqi program,
# behind lib.sh's filter), Plugboard playing Red once and Black once.
#
# Usage (from the repository root):
#     tests/interop/xboard_xiangqi.sh target/release/plugboard
#
# Passes (exit 0) when both games finished by themselves with a result, the PGN
# says [Variant "xiangqi"], Plugboard moved in each game and played each colour
# once, xboard never told Plugboard of an illegal move and Plugboard never
# answered with `Illegal move` or `Error`, no game Plugboard did not win ended by
# a time forfeit, an illegal move, a false claim or a crash, and every game
# Plugboard lost was lost by checkmate, stalemate, xboard's perpetual check or
# chase rule or resignation. A rules disagreement between xboard and the engine
# (a flying general, a horse's leg, an elephant's eye, the river, xboard's
# repetition rule) shows up as an illegal move or a false claim. An engine that
# does not announce variant xiangqi fails at once: xboard would otherwise say so
# in a dialog and play chess. Everything is kept in a temporary folder.
set -euo pipefail

usage() { echo "usage: $0 PATH/TO/plugboard" >&2; exit 2; }
[ $# -eq 1 ] || usage
# shellcheck source=tests/interop/lib.sh
. "$(dirname -- "$0")/lib.sh"

XBOARD=${XBOARD:-/usr/games/xboard}
MAXQI=${MAXQI:-/usr/games/maxqi}
TC=${TC:-0:10}
INC=${INC:-0.1}
WALL_LIMIT=${WALL_LIMIT:-300}   # seconds for both games (each about 30-60 s at 10 s + 0.1 s)

check_prerequisites "$1"
[ -x "$MAXQI" ] || fail "MaxQi not found at $MAXQI (apt-get install fairymax)"
make_work plugboard-xiangqi games.pgn
trap 'stop_xboard; exit 130' INT
trap 'stop_xboard; exit 143' TERM

announced=$(engine_variants "$ENGINE")
case ",$announced," in
  *,xiangqi,*) ;;
  *) fail "$ENGINE does not announce variant xiangqi (it announces: ${announced:-none}); xboard would play chess instead" ;;
esac
filtered_fairymax "$MAXQI"

echo "== xiangqi: $ENGINE against MaxQi, 2 games at $TC + ${INC}s, files in $WORK"
run_xboard \
  -variant xiangqi \
  -fcp "$ENGINE" -fd "$ENGINE_DIR" -fn plugboard \
  -scp "$OPPONENT" -sd "$WORK" -sn maxqi \
  -mg 2 -tc "$TC" -inc "$INC" \
  -xponder -smpCores 1 -autoCallFlag true -testClaims true -testLegality true -checkMates true \
  -adjudicateDrawMoves 150
check_run "the two games"

# Plugboard is the first engine.
bad=$(read_from first | grep -aE ':[[:space:]]*(Illegal move|Error)' || true)
[ -z "$bad" ] || problem "Plugboard answered with an error:"$'\n'"$bad"
bad=$(sent_to first | grep -aiE ':[[:space:]]*Illegal move' || true)
[ -z "$bad" ] || problem "xboard told Plugboard of an illegal move:"$'\n'"$bad"
told first | grep -qx 'variant xiangqi' || problem "xboard never sent Plugboard 'variant xiangqi'"
bad=$(told first | grep -aE '^variant ' | grep -vx 'variant xiangqi' || true)
[ -z "$bad" ] || problem "xboard sent Plugboard another variant:"$'\n'"$bad"
check_xboard_messages

# Plugboard's moves in each game: the debug log between the ends of games
# (xboard logs `GameEnds(RESULT, REASON, WHO)`, with `(null)` for a reset).
moves_per_game=$(awk '
  /^[0-9]* *<first *: *move / { n++ }
  /^GameEnds\([0-9]+, / && !/\(null\)/ { print n + 0; n = 0 }
' "$DEBUG_FILE" | head -2 | tr '\n' ' ')
echo "Plugboard's moves in each game: $moves_per_game"

read_games 2
red=0
black=0
game=0
while IFS=$PGN_SEP read -r n white black_name result variant _ reason; do
  [ -n "$n" ] || continue
  game=$((game + 1))
  echo "game $n: $white - $black_name  $result  {$reason}  [Variant \"$variant\"]"
  check_finished "$n" "$result"
  [ "$variant" = xiangqi ] || problem "game $n: the PGN says the variant is '$variant'"
  case "$white/$black_name" in
    plugboard/maxqi) red=$((red + 1)); lost=0-1; won=1-0 ;;
    maxqi/plugboard) black=$((black + 1)); lost=1-0; won=0-1 ;;
    *) problem "game $n: players '$white' and '$black_name', expected plugboard and maxqi"; lost=; won= ;;
  esac
  moves=$(printf '%s\n' "$moves_per_game" | awk -v g="$game" '{ print $g + 0 }')
  [ "$moves" -ge 1 ] || problem "game $n: Plugboard never moved"
  if printf '%s' "$reason" | grep -qiE "$FAILURE_REASONS"; then
    # The side that fails loses, so a win this way is MaxQi's failure (it claims
    # fifty-move draws that xboard, counting by its xiangqi rules, rejects).
    if [ "$result" = "$won" ]; then
      echo "game $n: MaxQi lost by its own failure '{$reason}'; not Plugboard's"
    else
      problem "game $n: '{$reason}' is a failure of Plugboard"
    fi
  elif [ "$result" = "$lost" ] && ! printf '%s' "$reason" | grep -qiE 'checkmate|mates|stalemate|perpetual|resign'; then
    problem "game $n: Plugboard lost by '{$reason}', not by checkmate, stalemate, perpetual check or chase, or resignation"
  fi
done <<< "$summary"
if [ "$red" -ne 1 ] || [ "$black" -ne 1 ]; then problem "Plugboard played Red in $red games and Black in $black, expected one each"; fi

finish
