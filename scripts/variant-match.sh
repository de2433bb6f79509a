#!/usr/bin/env bash
# A match in a variant defined as data under the real xboard (4.9.x, under Xvfb),
# which referees every move, the clocks and every claim: Plugboard against
# OPPONENT, each pair of games once with each colour, from the start position
# (xboard sends `random`, so Plugboard's play varies) or from OPENINGS. For issue
# 30's measurements; the tests do not run it.
#
#   scripts/variant-match.sh VARIANT OPPONENT GAMES [TC]
#   OPPONENT: fairymax | shamax | sjaakii | fairy-stockfish | hachu, for xiangqi also
#   maxqi | hoixiangqi (also plugboard)
#   TC: base+increment in seconds, default 10+0.1 (xboard -tc 0:10 -inc 0.1)
#
# Environment: PLUGBOARD (default target/release/plugboard); PLUGBOARD2, the
# Plugboard in the opponent's seat when OPPONENT is plugboard (default PLUGBOARD;
# to compare two builds, with XBOARD_ARGS="-firstNPS N -secondNPS N" so that a
# busy machine does not change the games); FIRST, the engine in Plugboard's seat
# (default plugboard); OPENINGS, a file of FENs (default none: the start
# position); OUT (default target/variants); XBOARD; XBOARD_ARGS, more xboard
# options (`-testClaims false` for losers, whose win by being mated xboard's
# claim test does not know); DRAW_MOVES, the move xboard draws a game
# still going at (default 150; 0 plays on to mate or a rule's draw: courier's
# slow pieces take longer than 150 moves to mate with); SJAAKII_VARIANTS, a
# variants file Sjaak II plays from instead of its own (for elven, whose rules
# Sjaak's file plays otherwise than xboard: scripts/sjaakii-elven.sh);
# OPPONENT_OPTIONS, engine options xboard sets for the opponent, as its
# -secondOptions takes them ("Allow repeats=1" for HaChu in chu, which
# otherwise calls a repetition xboard allows an illegal move).
#
# Resumable: pairs are OUT/NAME.d/pair-NNN/, a
# finished pair is marked done and appended to OUT/NAME.progress and OUT/NAME.pgn,
# and running the same command again plays the pairs still missing. NAME is
# VARIANT-OPPONENT-TC, or MATCH_NAME (scripts/xiangqi-match.sh keeps its own
# names so its matches go on where they stopped). Each engine gets `cores 1` and `memory 64` where it
# announces them, and no pondering; xboard tests legality, claims and flags, and
# draws after DRAW_MOVES moves.
set -euo pipefail

usage() { echo "usage: $0 VARIANT OPPONENT GAMES [TC]   (OPPONENT: fairymax | shamax | sjaakii | fairy-stockfish | hachu | maxqi | hoixiangqi)" >&2; exit 2; }
if [ $# -lt 3 ] || [ $# -gt 4 ]; then usage; fi
cd "$(dirname -- "$0")/.."
root=$(pwd)
# shellcheck source=tests/interop/lib.sh
. tests/interop/lib.sh

variant=$1
shift
[[ $variant =~ ^[A-Za-z0-9_+-]+$ ]] || usage
opponent=$1
games=$2
tc=${3:-10+0.1}
first=${FIRST:-plugboard}
XBOARD=${XBOARD:-/usr/games/xboard}
openings=${OPENINGS:-}
out=${OUT:-target/variants}

[[ $games =~ ^[1-9][0-9]*$ ]] || usage
[[ $tc =~ ^([0-9]+)(\+([0-9]*\.?[0-9]+))?$ ]] || { echo "TC must be BASE+INC in seconds (e.g. 10+0.1), BASE whole: $tc" >&2; exit 2; }
base=${BASH_REMATCH[1]}
inc=${BASH_REMATCH[3]:-0}
xboard_tc=$((base / 60)):$(printf '%02d' $((base % 60)))
[ "$base" -gt 0 ] || { echo "TC base must be at least 1 s" >&2; exit 2; }
[ -x "$XBOARD" ] || fail "xboard not found at $XBOARD (apt-get install xboard)"
command -v xvfb-run >/dev/null || fail "xvfb-run not found (apt-get install xvfb xauth)"
[ -z "$openings" ] || [ -f "$openings" ] || fail "no openings file $openings"

# engine NAME [SEAT]: sets CMD (what xboard starts, in WORK) for an engine of
# the match; SEAT second takes PLUGBOARD2 for plugboard.
engine() {
  local path=${PLUGBOARD:-$root/target/release/plugboard}
  [ "${2:-}" != second ] || path=${PLUGBOARD2:-$path}
  case $1 in
    plugboard)
      CMD=$(realpath -e -- "$path" 2>/dev/null) \
        || fail "no Plugboard at $path (cargo build --release --workspace)"
      [ -x "$CMD" ] || fail "not executable: $CMD" ;;
    fairymax | shamax | maxqi)
      [ -x "/usr/games/$1" ] || fail "/usr/games/$1 missing (apt-get install fairymax)"
      filtered_fairymax "/usr/games/$1"
      CMD=$OPPONENT ;;
    hoixiangqi)
      [ -x /usr/games/hoixiangqi ] || fail "/usr/games/hoixiangqi missing (scripts/install-ladder.sh)"
      CMD="/usr/games/hoixiangqi -x" ;;
    sjaakii | fairy-stockfish | hachu)
      [ -x "/usr/games/$1" ] || fail "/usr/games/$1 missing (scripts/install-deps.sh sjaakii fairy-stockfish hachu)"
      CMD=/usr/games/$1
      if [ "$1" = sjaakii ] && [ -n "${SJAAKII_VARIANTS:-}" ]; then
        # Its own file left out, so that a variant of the same name is the given file's.
        CMD="/usr/games/sjaakii -no_user_variants"
        SEAT_OPTIONS="Variant configuration file=$(realpath -e -- "$SJAAKII_VARIANTS")"
      fi ;;
    *) echo "unknown engine: $1 (fairymax | shamax | sjaakii | fairy-stockfish | hachu | maxqi | hoixiangqi | plugboard)" >&2; exit 2 ;;
  esac
}

for who in "$first" "$opponent"; do
  case $who in plugboard|fairymax|shamax|sjaakii|fairy-stockfish|hachu|maxqi|hoixiangqi) ;; *) echo "unknown engine: $who" >&2; usage ;; esac
done
# Both engines must announce the variant, or xboard would play chess instead.
probe=$(mktemp -d "${TMPDIR:-/tmp}/variant-probe-XXXXXX")
trap 'rm -rf "$probe"' EXIT
WORK=$probe
for who in "$first" "$opponent"; do
  SEAT_OPTIONS=""; engine "$who"
  # Sjaak II reads the given file only when xboard sends the option.
  [ -z "$SEAT_OPTIONS" ] || continue
  # shellcheck disable=SC2086 # CMD is a command line (hoixiangqi -x)
  variants=$(engine_variants $CMD)
  case ",$variants," in
    *,"$variant",*) ;;
    *) fail "$who ($CMD) does not announce variant $variant (it announces: ${variants:-none})" ;;
  esac
done
rm -rf "$probe"
trap - EXIT

name=$variant-$opponent-$tc
[ "$first" = plugboard ] || name=$variant-$first-$opponent-$tc
name=${MATCH_NAME:-$name}
mkdir -p "$out/$name.d"
out=$(realpath -- "$out")
dir=$out/$name.d
pgn_all=$out/$name.pgn
progress=$out/$name.progress

# xboard decides from a file's first line whether it holds FENs, so it gets the
# positions without the # header; the copy stays with the match.
n_openings=0
if [ -n "$openings" ]; then
  [ -s "$dir/openings.fen" ] || grep -v -E '^(#|[[:space:]]*$)' "$openings" >"$dir/openings.fen"
  n_openings=$(grep -c . "$dir/openings.fen")
  [ "$n_openings" -gt 0 ] || fail "no positions in $openings"
fi

draw_moves=${DRAW_MOVES:-150}
[[ $draw_moves =~ ^[0-9]+$ ]] || { echo "DRAW_MOVES must be a number of moves: $draw_moves" >&2; exit 2; }
pairs=$(( (games + 1) / 2 ))
[ $((games % 2)) -eq 0 ] || echo "note: games are played in pairs; playing $((pairs * 2))"
# Wall-clock limit of one pair: two games of at most DRAW_MOVES moves (500 where
# unlimited: the move rules end nearly every game sooner), each side's clock at
# most BASE plus an increment a move, plus start-up and slack.
most_moves=$(( draw_moves > 0 ? draw_moves : 500 ))
WALL_LIMIT=$(awk -v b="$base" -v i="$inc" -v m="$most_moves" 'BEGIN { printf "%d", 2 * 2 * (b + m * i) * 1.5 + 120 }')

rebuild_pgn() {
  local done_pairs=()
  for d in "$dir"/pair-[0-9][0-9][0-9]; do
    [ -e "$d/done" ] && done_pairs+=("$d/games.pgn")
  done
  if [ ${#done_pairs[@]} -gt 0 ]; then cat "${done_pairs[@]}" >"$pgn_all.tmp"; else : >"$pgn_all.tmp"; fi
  mv -f "$pgn_all.tmp" "$pgn_all"
}

# play_pair P: one xboard run of two games from opening P; status 0 when both
# games finished with a result.
play_pair() {
  local p=$1 pair_dir index first_cmd second_cmd
  pair_dir=$dir/$(printf 'pair-%03d' "$p")
  index=0
  local start=()
  if [ "$n_openings" -gt 0 ]; then
    index=$(( (p - 1) % n_openings + 1 ))
    start=(-lpf "$dir/openings.fen" -lpi "$index")
  fi
  rm -rf "$pair_dir"
  mkdir -p "$pair_dir/home"
  WORK=$pair_dir
  DEBUG_FILE=$pair_dir/xboard.debug
  PGN=$pair_dir/games.pgn
  XBOARD_OUT=$pair_dir/xboard.out
  local seat_options=()
  SEAT_OPTIONS=""; engine "$first"; first_cmd=$CMD
  [ -z "$SEAT_OPTIONS" ] || seat_options+=(-firstOptions "$SEAT_OPTIONS")
  SEAT_OPTIONS=""; engine "$opponent" second; second_cmd=$CMD
  local second_options=${OPPONENT_OPTIONS:-}
  [ -z "$SEAT_OPTIONS" ] || second_options+=${second_options:+,}$SEAT_OPTIONS
  [ -z "$second_options" ] || seat_options+=(-secondOptions "$second_options")
  # Two Plugboards are told apart in the PGN (scripts/score.py scores the first).
  local second_name=$opponent
  [ "$opponent" != "$first" ] || second_name=${opponent}2
  echo "== pair $p/$pairs, opening $index: $first - $opponent, $variant, $tc, in $pair_dir"
  # shellcheck disable=SC2086 # XBOARD_ARGS is a list of options
  run_xboard \
    -variant "$variant" "${start[@]}" "${seat_options[@]}" \
    -fcp "$first_cmd" -fd "$pair_dir" -fn "$first" \
    -scp "$second_cmd" -sd "$pair_dir" -sn "$second_name" \
    -mg 2 \
    -tc "$xboard_tc" -inc "$inc" -xponder -smpCores 1 -defaultHashSize 64 -defaultCacheSizeEGTB 0 \
    -autoCallFlag true -testLegality true -testClaims true -checkMates true \
    -adjudicateDrawMoves "$draw_moves" ${XBOARD_ARGS:-}
  local summary n line=""
  summary=$(pgn_games)
  n=0
  while IFS=$PGN_SEP read -r _ white black result _ _ reason; do
    [ -n "$white" ] || continue
    case $result in 1-0|0-1|1/2-1/2) n=$((n + 1)) ;; esac
    line+="${line:+, }$white-$black $result {$reason}"
  done <<<"$summary"
  local illegal errors
  illegal=$( (read_from first; read_from second; sent_to first; sent_to second) | grep -ciE ':[[:space:]]*Illegal move' || true)
  errors=$( (read_from first; read_from second) | grep -cE ':[[:space:]]*Error' || true)
  line="pair $p opening $index: ${line:-no games}; ${ELAPSED}s, xboard status $RC, illegal-move lines $illegal, engine Error lines $errors"
  echo "$line"
  if [ "$n" -eq 2 ] && [ "$RC" -eq 0 ]; then
    touch "$pair_dir/done"
    rebuild_pgn
    echo "$line" >>"$progress"
    return 0
  fi
  return 1
}

# One run at a time on a match: the lock is held by this script and by the xboard
# it starts (they inherit the descriptor), so a rerun also waits for an xboard left
# running by a run killed with SIGKILL. Ctrl-C or SIGTERM ends the pair's xboard too.
exec 9>"$dir/lock"
flock -n 9 || fail "another run is playing this match (or its xboard still runs): $dir/lock is held"
trap 'stop_xboard; echo "stopped during a pair; run the same command again to go on" >&2; exit 130' INT
trap 'stop_xboard; exit 143' TERM HUP

rebuild_pgn
for ((p = 1; p <= pairs; p++)); do
  pair_dir=$dir/$(printf 'pair-%03d' "$p")
  [ -e "$pair_dir/done" ] && continue
  tries=0
  until play_pair "$p"; do
    tries=$((tries + 1))
    mv "$pair_dir" "$pair_dir.failed-$(date +%Y%m%d-%H%M%S)"
    echo "pair $p failed (kept as $pair_dir.failed-*)" | tee -a "$progress"
    [ "$tries" -lt 2 ] || fail "pair $p failed twice; see $dir"
  done
done

echo
echo "PGN: $pgn_all   progress: $progress   logs: $dir/pair-NNN/"
python3 scripts/score.py "$pgn_all" "$first"
