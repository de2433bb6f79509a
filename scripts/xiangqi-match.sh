#!/usr/bin/env bash
# A xiangqi match under the real xboard (4.9.x, under Xvfb), which referees every
# move, the clocks and every claim: Plugboard against OPPONENT, from the openings
# of scripts/xiangqi-openings.fen, each opening once with each colour. For issue
# 17's measurements; the tests do not run it. Needs scripts/install-ladder.sh.
#
#   scripts/xiangqi-match.sh OPPONENT GAMES [TC]
#   OPPONENT: maxqi | hoixiangqi | fairy-stockfish (also plugboard)
#   TC: base+increment in seconds, default 10+0.1 (xboard -tc 0:10 -inc 0.1)
#
# Environment: PLUGBOARD (default target/release/plugboard); FIRST, the engine in
# Plugboard's seat (default plugboard; any OPPONENT name, to try the script
# without Plugboard); OPENINGS (default scripts/xiangqi-openings.fen); OUT
# (default target/xiangqi); XBOARD (default /usr/games/xboard).
#
# Games are played in pairs: one opening (the pair's number, counted round the
# file), FIRST with Red, then with Black; every pair is its own xboard run, in
# OUT/NAME.d/pair-NNN/ with its debug log, PGN and xboard's output. When a pair
# has finished both games it is marked done, OUT/NAME.pgn is rewritten from the
# finished pairs in order and OUT/NAME.progress gains a line; a killed run loses
# the pair it was playing at most, and running the same command again plays the
# pairs still missing up to GAMES (GAMES/2 pairs, rounded up). NAME is
# OPPONENT-TC (FIRST-OPPONENT-TC when FIRST is not plugboard). A pair that
# xboard did not finish (no two results: a hang, a crash of xboard) is kept as
# pair-NNN.failed-K and tried once more; a second failure stops the match.
#
# Each engine gets one core (`cores 1`) and 64 MB of hash (`memory 64`) where it
# announces those commands, and no pondering (`easy`). The opponents: maxqi
# (Fairy-Max's xiangqi program) behind tests/interop/lib.sh's filter; hoixiangqi
# with -x (xboard mode; its rc file gives 32 MB of hash and names a book Debian
# does not ship, so it plays without one); fairy-stockfish in its own CECP mode
# (it announces memory=1 smp=1, so `cores 1` and `memory 64` set its Threads and
# Hash). xboard: -testLegality, -testClaims, -autoCallFlag, -checkMates, its own
# repetition rule (perpetual check or chase loses, other repetitions draw on the
# 6th occurrence), the 50-move rule (checks not counted) and a draw after 150
# moves (-adjudicateDrawMoves 150, i.e. 300 plies). xboard's [TimeControl] tag
# drops the increment's fraction (10+0 for 10+0.1); the engines are sent the real
# one (`level 0 0:10 0.1`), as the debug logs show.
set -euo pipefail

usage() { echo "usage: $0 OPPONENT GAMES [TC]   (OPPONENT: maxqi | hoixiangqi | fairy-stockfish)" >&2; exit 2; }
if [ $# -lt 2 ] || [ $# -gt 3 ]; then usage; fi
cd "$(dirname -- "$0")/.."
root=$(pwd)
# shellcheck source=tests/interop/lib.sh
. tests/interop/lib.sh

opponent=$1
games=$2
tc=${3:-10+0.1}
first=${FIRST:-plugboard}
XBOARD=${XBOARD:-/usr/games/xboard}
openings=${OPENINGS:-scripts/xiangqi-openings.fen}
out=${OUT:-target/xiangqi}

[[ $games =~ ^[1-9][0-9]*$ ]] || usage
[[ $tc =~ ^([0-9]+)(\+([0-9]*\.?[0-9]+))?$ ]] || { echo "TC must be BASE+INC in seconds (e.g. 10+0.1), BASE whole: $tc" >&2; exit 2; }
base=${BASH_REMATCH[1]}
inc=${BASH_REMATCH[3]:-0}
xboard_tc=$((base / 60)):$(printf '%02d' $((base % 60)))
[ "$base" -gt 0 ] || { echo "TC base must be at least 1 s" >&2; exit 2; }
[ -x "$XBOARD" ] || fail "xboard not found at $XBOARD (apt-get install xboard)"
command -v xvfb-run >/dev/null || fail "xvfb-run not found (apt-get install xvfb xauth)"
[ -f "$openings" ] || fail "no openings file $openings"

# engine NAME: sets CMD (what xboard starts, in WORK) for an engine of the match.
engine() {
  case $1 in
    plugboard)
      CMD=$(realpath -e -- "${PLUGBOARD:-$root/target/release/plugboard}" 2>/dev/null) \
        || fail "no Plugboard at ${PLUGBOARD:-target/release/plugboard} (cargo build --release --workspace)"
      [ -x "$CMD" ] || fail "not executable: $CMD" ;;
    maxqi)
      [ -x /usr/games/maxqi ] || fail "/usr/games/maxqi missing (apt-get install fairymax)"
      filtered_fairymax /usr/games/maxqi
      CMD=$OPPONENT ;;
    hoixiangqi)
      [ -x /usr/games/hoixiangqi ] || fail "/usr/games/hoixiangqi missing (scripts/install-ladder.sh)"
      CMD="/usr/games/hoixiangqi -x" ;;
    fairy-stockfish)
      [ -x /usr/games/fairy-stockfish ] || fail "/usr/games/fairy-stockfish missing (scripts/install-ladder.sh)"
      CMD=/usr/games/fairy-stockfish ;;
    *) echo "unknown engine: $1 (maxqi | hoixiangqi | fairy-stockfish | plugboard)" >&2; exit 2 ;;
  esac
}

for who in "$first" "$opponent"; do
  case $who in plugboard|maxqi|hoixiangqi|fairy-stockfish) ;; *) echo "unknown engine: $who" >&2; usage ;; esac
done
# Both engines must announce xiangqi, or xboard would play chess instead.
probe=$(mktemp -d "${TMPDIR:-/tmp}/xiangqi-probe-XXXXXX")
trap 'rm -rf "$probe"' EXIT
WORK=$probe
for who in "$first" "$opponent"; do
  engine "$who"
  # shellcheck disable=SC2086 # CMD is a command line (hoixiangqi -x)
  variants=$(engine_variants $CMD)
  case ",$variants," in
    *,xiangqi,*) ;;
    *) fail "$who ($CMD) does not announce variant xiangqi (it announces: ${variants:-none})" ;;
  esac
done
rm -rf "$probe"
trap - EXIT

name=$opponent-$tc
[ "$first" = plugboard ] || name=$first-$opponent-$tc
mkdir -p "$out/$name.d"
out=$(realpath -- "$out")
dir=$out/$name.d
pgn_all=$out/$name.pgn
progress=$out/$name.progress

# xboard decides from a file's first line whether it holds FENs, so it gets the
# positions without the # header; the copy stays with the match, so a rerun plays
# the same openings even if the file has changed since.
[ -s "$dir/openings.fen" ] || grep -v -E '^(#|[[:space:]]*$)' "$openings" >"$dir/openings.fen"
n_openings=$(grep -c . "$dir/openings.fen")
[ "$n_openings" -gt 0 ] || fail "no positions in $openings"

pairs=$(( (games + 1) / 2 ))
[ $((games % 2)) -eq 0 ] || echo "note: games are played in pairs; playing $((pairs * 2))"
# Wall-clock limit of one pair: two games of at most 300 plies, each side's clock
# at most BASE + 150 increments, plus start-up and slack.
WALL_LIMIT=$(awk -v b="$base" -v i="$inc" 'BEGIN { printf "%d", 2 * 2 * (b + 150 * i) * 1.5 + 120 }')

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
  index=$(( (p - 1) % n_openings + 1 ))
  rm -rf "$pair_dir"
  mkdir -p "$pair_dir/home"
  WORK=$pair_dir
  DEBUG_FILE=$pair_dir/xboard.debug
  PGN=$pair_dir/games.pgn
  XBOARD_OUT=$pair_dir/xboard.out
  engine "$first"; first_cmd=$CMD
  engine "$opponent"; second_cmd=$CMD
  echo "== pair $p/$pairs, opening $index: $first - $opponent, $tc, in $pair_dir"
  run_xboard \
    -variant xiangqi \
    -fcp "$first_cmd" -fd "$pair_dir" -fn "$first" \
    -scp "$second_cmd" -sd "$pair_dir" -sn "$opponent" \
    -lpf "$dir/openings.fen" -lpi "$index" -mg 2 \
    -tc "$xboard_tc" -inc "$inc" -xponder -smpCores 1 -defaultHashSize 64 -defaultCacheSizeEGTB 0 \
    -autoCallFlag true -testLegality true -testClaims true -checkMates true \
    -adjudicateDrawMoves 150
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
