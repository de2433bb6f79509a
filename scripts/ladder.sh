#!/usr/bin/env bash
# One strength match of the ladder (issue 6): plugboard (release build, bundled
# alphabeta + pesto, one thread) against a Debian engine, from balanced book
# openings, both colours, via python-chess (../shared/tools/match.py).
#
#   scripts/ladder.sh OPPONENT GAMES [TC] [extra match.py args...]
#   OPPONENT: fairymax | phalanx | sjeng | hoichess | gnuchess | stockfishN (Skill Level N)
#   TC: base+inc in seconds, default 10+0.1
# Writes target/ladder/OPPONENT-TC.pgn. Needs scripts/install-ladder.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."

opponent=$1
games=$2
tc=${3:-10+0.1}
shift $(( $# < 3 ? $# : 3 ))
match_py=${MATCH_PY:-../shared/tools/match.py}
engine=${PLUGBOARD:-target/release/plugboard}
out=target/ladder
mkdir -p "$out"

[ -x "$engine" ] || cargo build --release --workspace
openings=$out/openings.txt
python3 scripts/openings.py --count "$(( (games + 1) / 2 ))" > "$openings"

case $opponent in
  fairymax) e2=/usr/games/fairymax p2=xboard extra=() ;;
  phalanx) e2="/usr/games/phalanx -l-" p2=xboard extra=() ;;
  sjeng) e2=/usr/games/sjeng p2=xboard extra=() ;;
  hoichess) e2="/usr/games/hoichess -x" p2=xboard extra=() ;;
  gnuchess) e2="/usr/games/gnuchess --uci" p2=uci extra=() ;;
  stockfish*) e2=/usr/games/stockfish p2=uci extra=(--o2 "Skill Level=${opponent#stockfish}" --o2 "Threads=1") ;;
  *) echo "unknown opponent: $opponent" >&2; exit 2 ;;
esac

exec python3 "$match_py" --e1 "$engine" --p1 xboard --n1 plugboard \
  --e2 "$e2" --p2 "$p2" --n2 "$opponent" "${extra[@]}" \
  --games "$games" --tc "$tc" --openings "$openings" \
  --pgn "$out/$opponent-$tc.pgn" "$@"
