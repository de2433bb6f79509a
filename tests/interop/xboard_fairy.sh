#!/usr/bin/env bash
# Interop test: the real xboard (4.9.1, under Xvfb, legality testing on) referees
# one short game of each variant Plugboard plays as data, against a Debian engine
# that plays it (Fairy-Max, ShaMax, Sjaak II, Fairy-Stockfish; see
# shared/notes/variants.md), or against itself where none does (twokings), plus
# the shogi family (shogi against Sjaak II; minishogi, tori and sho shogi, which
# xboard learns from `setup` and `piece` lines, promoted forms as `piece +S& …`),
# chu shogi against HaChu (told to allow repetitions, as xboard does), Mighty
# Lion chess and elven chess against themselves (HaChu 0.21 forfeits about
# half its lion games by moves xboard calls invalid; Sjaak II's lion rules
# refuse lion trades xboard allows; scripts/variant-match.sh plays both), and
# the two example definitions of examples/variants, which xboard has never
# heard of and learns from Plugboard's `setup` and `piece` lines.
# Two games at a time.
#
# Usage (from the repository root):
#     tests/interop/xboard_fairy.sh target/release/plugboard [VARIANT...]
#
# Passes (exit 0) when every game finished with a result, the PGN's Variant tag
# names the variant (xboard plays normal chess, silently, for a variant the engine
# does not announce), xboard never told Plugboard of an illegal move and Plugboard
# never answered with `Illegal move` or `Error`, and no game Plugboard did not win
# ended by a time forfeit, an illegal move, a false claim or a crash. A rules
# disagreement between xboard and Plugboard shows up as an illegal move or a
# false claim. Each game's files are kept in a temporary folder.
set -euo pipefail

usage() { echo "usage: $0 PATH/TO/plugboard [VARIANT...]" >&2; exit 2; }
[ $# -ge 1 ] || usage
# shellcheck shell=bash source=tests/interop/lib.sh
. "$(dirname -- "$0")/lib.sh"

XBOARD=${XBOARD:-/usr/games/xboard}
TC=${TC:-0:10}
INC=${INC:-0.1}
WALL_LIMIT=${WALL_LIMIT:-150}   # seconds for one game
EXAMPLES=$(realpath -e -- "$(dirname -- "$0")/../../examples/variants")

# VARIANT OPPONENT [xboard options]: the opponent is a /usr/games engine, "self",
# or "gui:WxH", the variant on a board of W files and H ranks (see sized_game).
# Losers: xboard's claim test scores a mate the FIDE way (the note's §2.3).
GAMES='capablanca fairymax
berolina fairymax
gothic fairymax
janus fairymax
falcon fairymax
knightmate fairymax
shatranj shamax
courier fairymax
makruk fairymax
asean fairymax
cylinder fairymax
nocastle fairymax
wildcastle sjaakii
caparandom sjaakii
grand sjaakii
super fairymax
great fairymax
losers fairy-stockfish -testClaims false
twokings self
shogi sjaakii
minishogi self
torishogi self
lion self
elven self
chu hachu
shoshogi self
amazonchess self
bigchess self
normal gui:10x8
makruk gui:8x10'

# sized_game VARIANT WxH: the variant on another board than its own, as xboard
# asks for it from an engine that lists `boardsize` (`variant WxH+0_VARIANT`),
# Plugboard answering with `setup` and the start position for that board.
# xboard 4.9.1, having accepted `boardsize`, still looks for the exact name in
# the engine's list (backend.c, SupportedVariant), so -firstFeatures adds it;
# and it checks a second engine's list before that can apply, so there is no
# second engine: Plugboard plays White against a side that never moves, and
# wins on time once its first moves were found legal by xboard.
sized_game() {
  local variant=$1 size=$2
  local name="${size}+0_$variant"
  make_work "plugboard-$variant-$size" game.pgn
  # xboard stays open after a game it did not play as a match: the wall limit ends it.
  local WALL_LIMIT=30
  echo "== $variant on $size: Plugboard as White against the GUI's side, files in $WORK"
  run_xboard -variant "$variant" -boardWidth "${size%x*}" -boardHeight "${size#*x}" \
    -fcp "$ENGINE" -fd "$ENGINE_DIR" -fn plugboard -firstFeatures "variants=\"$variant,$name\"" \
    -initialMode MachineWhite -tc 0:05 -inc 0 -xponder -smpCores 1 \
    -autoCallFlag true -testClaims true -testLegality true
  sent_to first | grep -qF "variant $name" || problem "$variant: xboard did not ask for $name"
  said_by first | grep -F 'setup (' | grep -qF ") $name " || problem "$variant: Plugboard sent no setup for $name"
  bad=$(read_from first | grep -aE ':[[:space:]]*(Illegal move|Error)' || true)
  [ -z "$bad" ] || problem "$variant: Plugboard answered with an error:"$'\n'"$bad"
  read_from first | grep -qE ':[[:space:]]*move ' || problem "$variant: Plugboard never moved"
  grep -q 'White wins on time' "$DEBUG_FILE" || problem "$variant: the game did not end with the GUI's side out of time"
  check_xboard_messages
  # The PGN names the variant (xboard names none for normal chess, whatever
  # the board) and starts from Plugboard's position on the board of that size.
  read_games 1
  local n white black result pgn_variant fen reason board ranks files
  IFS=$PGN_SEP read -r n white black result pgn_variant fen reason <<< "$summary"
  check_finished "$n" "$result"
  [ "$pgn_variant" = "${variant#normal}" ] || problem "$variant: the PGN says the variant is '$pgn_variant'"
  board=${fen%% *}
  ranks=$(printf '%s' "$board" | awk -F/ '{ print NF }')
  files=$(printf '%s' "${board%%/*}" | awk '{ n = 0; s = $0
    while (match(s, /[0-9]+|[A-Za-z]/)) { t = substr(s, RSTART, RLENGTH); n += (t ~ /^[0-9]/) ? t : 1; s = substr(s, RSTART + RLENGTH) }
    print n }')
  [ "${files}x$ranks" = "$size" ] || problem "$variant: the PGN's start position '$board' is not $size"
  echo "$variant on $size: $board"
}

# verdict LABEL: the game's problems with its files, or PASS.
verdict() {
  if [ "${#problems[@]}" -gt 0 ]; then
    show_files
    for p in "${problems[@]}"; do echo "FAIL: $p" >&2; done
    return 1
  fi
  echo "PASS: $1"
}

one_game() {
  local variant=$1 opponent=$2
  shift 2
  problems=()
  if [[ $opponent == gui:* ]]; then
    sized_game "$variant" "${opponent#gui:}"
    verdict "$variant on ${opponent#gui:}"
    return
  fi
  make_work "plugboard-$variant" game.pgn
  local second second_name
  if [ "$opponent" = self ]; then
    second=$ENGINE second_name=plugboard2
  else
    second=/usr/games/$opponent second_name=$opponent
    [ -x "$second" ] || fail "$second not found (scripts/install-deps.sh installs it)"
  fi
  # Fairy-Max dies on commands it does not know; lib.sh's filter drops them.
  case "$opponent" in fairymax | shamax) filtered_fairymax "$second"; second=$OPPONENT ;; esac
  # HaChu calls a repetition, which xboard allows, an illegal move unless told not to.
  local opponent_options=()
  [ "$opponent" != hachu ] || opponent_options=(-secondOptions "Allow repeats=1")
  announced=$(PLUGBOARD_VARIANT_PATH=$EXAMPLES engine_variants "$ENGINE")
  case ",$announced," in
    *,"$variant",*) ;;
    *) problem "$variant: Plugboard does not announce it (it announces: $announced)" ;;
  esac
  echo "== $variant: Plugboard against $second_name, $TC + ${INC}s, files in $WORK"
  PLUGBOARD_VARIANT_PATH=$EXAMPLES run_xboard \
    -variant "$variant" \
    -fcp "$ENGINE" -fd "$ENGINE_DIR" -fn plugboard \
    -scp "$second" -sd "$WORK" -sn "$second_name" \
    -mg 1 -tc "$TC" -inc "$INC" -xponder -smpCores 1 \
    -autoCallFlag true -testClaims true -testLegality true -adjudicateDrawMoves 60 "${opponent_options[@]}" "$@"
  check_run "the $variant game"
  bad=$(read_from first | grep -aE ':[[:space:]]*(Illegal move|Error)' || true)
  [ -z "$bad" ] || problem "$variant: Plugboard answered with an error:"$'\n'"$bad"
  bad=$(sent_to first | grep -aiE ':[[:space:]]*Illegal move' || true)
  [ -z "$bad" ] || problem "$variant: xboard told Plugboard of an illegal move:"$'\n'"$bad"
  moves=$(read_from first | grep -cE ':[[:space:]]*move ' || true)
  [ "$moves" -ge 1 ] || problem "$variant: Plugboard never moved"
  # An opponent's illegal move is its own forfeit (the result is checked below);
  # Plugboard, the first machine, may make none, nor may it as the second.
  if [ "$opponent" = self ]; then
    check_xboard_messages
  else
    check_xboard_messages 'Illegal move "[^"]*" from second machine'
  fi
  read_games 1
  while IFS=$PGN_SEP read -r n white black result pgn_variant _ reason; do
    [ -n "$n" ] || continue
    echo "$variant: $white - $black  $result  {$reason}  [Variant \"$pgn_variant\"]"
    check_finished "$n" "$result"
    [ "$pgn_variant" = "$variant" ] || problem "$variant: the PGN says the variant is '$pgn_variant'"
    # Plugboard plays White; a failure that hands it the win is the opponent's.
    if printf '%s' "$reason" | grep -qiE "$FAILURE_REASONS" && [ "$result" != 1-0 ]; then
      problem "$variant: '{$reason}' is a failure of Plugboard"
    fi
  done <<< "$summary"
  verdict "$variant"
}

check_prerequisites "$1"
shift
if [ "${1:-}" = --one ]; then
  shift
  one_game "$@"
  exit
fi
selected=("$@")
table=$(printf '%s\n' "$GAMES" | while read -r variant rest; do
  if [ ${#selected[@]} -eq 0 ] || printf '%s\n' "${selected[@]}" | grep -qx "$variant"; then
    echo "$variant $rest"
  fi
done)
logs=$(mktemp -d "${TMPDIR:-/tmp}/plugboard-fairy-logs-XXXXXX")
# Two games at a time, each into its own log, shown whole when it failed.
status=0
printf '%s\n' "$table" | grep . > "$logs/table"
failed=()
run_one() {
  local variant=$1
  shift
  if "$0" "$ENGINE" --one "$variant" "$@" >"$logs/$variant.log" 2>&1; then
    echo "ok   $variant"
  else
    echo "FAIL $variant"
  fi
}
export -f run_one
export ENGINE logs
results=$(xargs -P 2 -L 1 bash -c 'run_one "$@"' "$0" < "$logs/table")
printf '%s\n' "$results"
while read -r verdict variant; do
  if [ "$verdict" = FAIL ]; then
    status=1
    echo "----- $variant"
    cat "$logs/$variant.log"
  fi
done <<< "$results"
[ "$status" -eq 0 ] && echo "PASS: every variant ($(printf '%s\n' "$results" | grep -c .) games)"
exit "$status"
