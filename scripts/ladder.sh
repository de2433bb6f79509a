#!/usr/bin/env bash
# One strength match of the ladder: plugboard (release build, bundled alphabeta,
# one thread, evaluation EVAL) against an engine, from balanced book openings,
# both colours, via python-chess (../shared/tools/match.py).
#
#   scripts/ladder.sh OPPONENT GAMES [TC] [extra match.py args...]
#   OPPONENT: fairymax | phalanx | sjeng | hoichess | gnuchess | toga2 | glaurung
#             | stockfishN (Skill Level N) | pesto | nnue (plugboard with that evaluation)
#   TC: base+inc in seconds, default 10+0.1
#
# Environment: EVAL, plugboard's evaluation (default nnue); EVALFILE, the network
# `nnue` loads instead of its embedded one; PLUGBOARD, the binary; MATCH_PY;
# JOBS, how many blocks are played side by side (default 1). Engines do not
# ponder, so a game keeps one core busy: JOBS up to the number of free cores
# keeps every engine on a core of its own.
# Every engine plays with one thread, 64 MB of hash where it has the option, and
# its own book off (Toga II and Glaurung have one; plugboard has none unless told).
#
# Resumable: games are played in blocks of 10 (5 openings, each with both
# colours), each written to OUT/NAME.d/block-NNN.pgn when it ends; running the
# same command again plays the blocks still missing. At the end the blocks are
# joined into OUT/NAME.pgn and scored (W/D/L, Elo with its 95 % margin, time
# losses). NAME is EVAL-OPPONENT-TC; OUT is target/ladder.
set -euo pipefail
cd "$(dirname "$0")/.."

opponent=$1
games=$2
tc=${3:-10+0.1}
shift $(( $# < 3 ? $# : 3 ))
match_py=${MATCH_PY:-../shared/tools/match.py}
engine=${PLUGBOARD:-target/release/plugboard}
eval_name=${EVAL:-nnue}
side_by_side=${JOBS:-1}
if ! [[ $side_by_side =~ ^[1-9][0-9]*$ ]]; then
  echo "JOBS must be a whole number from 1 up, not '$side_by_side'" >&2
  exit 2
fi
out=target/ladder
name=$eval_name-$opponent-$tc
blocks=$out/$name.d
mkdir -p "$blocks"

[ -x "$engine" ] || cargo build --release --workspace
openings=$blocks/openings.txt
[ -s "$openings" ] || python3 scripts/openings.py --count "$(( (games + 1) / 2 ))" > "$openings"

plugboard_with() {
  local evaluation=$1
  local command="$engine --eval $evaluation"
  if [ "$evaluation" = nnue ] && [ -n "${EVALFILE:-}" ]; then
    command="$command --option EvalFile=$EVALFILE"
  fi
  echo "$command"
}

case $opponent in
  fairymax) e2=/usr/games/fairymax p2=xboard extra=() ;;
  phalanx) e2="/usr/games/phalanx -l-" p2=xboard extra=() ;;
  sjeng) e2=/usr/games/sjeng p2=xboard extra=() ;;
  hoichess) e2="/usr/games/hoichess -x" p2=xboard extra=() ;;
  gnuchess) e2="/usr/games/gnuchess --uci" p2=uci extra=() ;;
  toga2) e2=/usr/games/toga2 p2=uci extra=(--o2 "OwnBook=false" --o2 "Hash=64") ;;
  glaurung) e2=/usr/games/glaurung p2=uci extra=(--o2 "OwnBook=false" --o2 "Threads=1" --o2 "Hash=64") ;;
  stockfish*) e2=/usr/games/stockfish p2=uci extra=(--o2 "Skill Level=${opponent#stockfish}" --o2 "Threads=1" --o2 "Hash=64") ;;
  pesto|nnue) e2=$(plugboard_with "$opponent") p2=xboard extra=() ;;
  *) echo "unknown opponent: $opponent" >&2; exit 2 ;;
esac

# Plays block BLOCK's games into PGN, named by who played White.
play_block() {
  local block=$1 pgn=$2 block_openings=$3 block_games=$4
  shift 4
  echo "== $name: block $(( block + 1 ))/$total_blocks ($block_games games)"
  python3 "$match_py" --e1 "$(plugboard_with "$eval_name")" --p1 xboard --n1 "plugboard-$eval_name" \
    --e2 "$e2" --p2 "$p2" --n2 "$opponent" "${extra[@]}" \
    --games "$block_games" --tc "$tc" --openings "$block_openings" \
    --pgn "$pgn.part" "$@" | tail -3
  # The PGN names players by their engines' own names, the same for two
  # plugboards; match.py gives engine 1 White in odd rounds, so name them by that.
  python3 - "$pgn.part" "plugboard-$eval_name" "$opponent" <<'PY'
import re, sys
path, first, second = sys.argv[1:]
games = open(path).read().split("\n\n[Event ")
named = []
for index, game in enumerate(games):
    text = game if index == 0 else "[Event " + game
    odd = int(re.search(r'\[Round "(\d+)"\]', text).group(1)) % 2 == 1
    white, black = (first, second) if odd else (second, first)
    text = re.sub(r'\[White "[^"]*"\]', f'[White "{white}"]', text, count=1)
    text = re.sub(r'\[Black "[^"]*"\]', f'[Black "{black}"]', text, count=1)
    named.append(text)
open(path, "w").write("\n\n".join(named))
PY
  mv "$pgn.part" "$pgn"
}

per_block=10
failed=0
total_blocks=$(( (games + per_block - 1) / per_block ))
mapfile -t lines < <(grep -v '^#' "$openings" | grep -v '^$')
for (( block = 0; block < total_blocks; block++ )); do
  pgn=$(printf '%s/block-%03d.pgn' "$blocks" "$block")
  [ -s "$pgn" ] && continue
  block_openings=$(printf '%s/block-%03d.openings' "$blocks" "$block")
  : > "$block_openings"
  for (( k = 0; k < per_block / 2; k++ )); do
    echo "${lines[$(( (block * per_block / 2 + k) % ${#lines[@]} ))]}" >> "$block_openings"
  done
  block_games=$(( games - block * per_block < per_block ? games - block * per_block : per_block ))
  while (( $(jobs -rp | wc -l) >= side_by_side )); do wait -n || failed=$(( failed + 1 )); done
  play_block "$block" "$pgn" "$block_openings" "$block_games" "$@" &
done
for pid in $(jobs -p); do wait "$pid" || failed=$(( failed + 1 )); done
if (( failed > 0 )); then
  echo "$failed block(s) failed; run the same command again to replay them" >&2
  exit 1
fi
cat "$blocks"/block-*.pgn > "$out/$name.pgn"
python3 scripts/score.py "$out/$name.pgn" "plugboard-$eval_name"
