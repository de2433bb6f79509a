#!/usr/bin/env bash
# Interop test: the real xboard (4.9.x, under Xvfb), which knows the rules of
# crazyhouse, three-check and suicide itself and tests every move for legality,
# runs one game of each between two Plugboards. Not atomic: xboard 4.9.1's claim
# test called a mate false that shakmaty and python-chess both see
# (r5k1/pp6/7p/3P4/8/2P5/P5q1/6K1 w: the queen beside the king cannot be taken,
# the explosion would take White's king too); python_chess_variants.py covers atomic.
#
# Usage (from the repository root):
#     tests/interop/xboard_variants.sh target/release/plugboard
#
# Passes (exit 0) when every game finished by itself with a result, xboard never
# saw an illegal move or an error from either engine, nobody lost on time or
# crashed, and the PGN names the variant. A rules disagreement between xboard and
# the engine (a drop, an explosion, a check count, a forced capture) shows up as
# an illegal move or a false claim. Everything is kept in a temporary folder.
set -euo pipefail

usage() { echo "usage: $0 PATH/TO/plugboard" >&2; exit 2; }
[ $# -eq 1 ] || usage
# shellcheck source=tests/interop/lib.sh
. "$(dirname -- "$0")/lib.sh"

XBOARD=${XBOARD:-/usr/games/xboard}
VARIANTS=${VARIANTS:-crazyhouse 3check suicide}
TC=${TC:-0:10}
INC=${INC:-0.1}
WALL_LIMIT=${WALL_LIMIT:-120}   # seconds for each game

check_prerequisites "$1"
all_problems=()
for variant in $VARIANTS; do
  problems=()
  make_work "plugboard-$variant" game.pgn
  echo "== $variant: $ENGINE against itself, $TC + ${INC}s, files in $WORK"
  run_xboard \
    -variant "$variant" \
    -fcp "$ENGINE" -fd "$ENGINE_DIR" \
    -scp "$ENGINE" -sd "$ENGINE_DIR" \
    -mg 1 -tc "$TC" -inc "$INC" \
    -xponder -autoCallFlag true -testClaims true -testLegality true \
    -adjudicateDrawMoves 100
  check_run "the $variant game"
  for who in first second; do
    bad=$(read_from "$who" | grep -aE ':[[:space:]]*(Illegal move|Error)' || true)
    [ -z "$bad" ] || problem "$variant: the $who engine answered with an error:"$'\n'"$bad"
    bad=$(sent_to "$who" | grep -aiE ':[[:space:]]*Illegal move' || true)
    [ -z "$bad" ] || problem "$variant: xboard told the $who engine of an illegal move:"$'\n'"$bad"
    moves=$(read_from "$who" | grep -cE ':[[:space:]]*move ' || true)
    [ "$moves" -ge 1 ] || problem "$variant: the $who engine never moved"
  done
  check_xboard_messages
  read_games 1
  while IFS=$PGN_SEP read -r n white black result pgn_variant _ reason; do
    [ -n "$n" ] || continue
    echo "$variant: $white - $black  $result  {$reason}  [Variant \"$pgn_variant\"]"
    check_finished "$n" "$result"
    [ "$pgn_variant" = "$variant" ] || problem "$variant: the PGN says the variant is '$pgn_variant'"
    if printf '%s' "$reason" | grep -qiE "$FAILURE_REASONS"; then
      problem "$variant: '{$reason}' is a failure of an engine"
    fi
  done <<< "$summary"
  if [ "${#problems[@]}" -gt 0 ]; then
    show_files
    all_problems+=("${problems[@]}")
  fi
done
problems=("${all_problems[@]}")
if [ "${#problems[@]}" -gt 0 ]; then
  for p in "${problems[@]}"; do echo "FAIL: $p" >&2; done
  exit 1
fi
echo "PASS: $VARIANTS"
