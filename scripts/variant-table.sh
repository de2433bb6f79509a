#!/usr/bin/env bash
# Issue 30's proof table in one command: a match under xboard for every variant
# defined as data, each against the Debian engine that plays it (Fairy-Max
# where it does), then one Markdown row per variant as scripts/score.py scores
# it. Resumable: each row is a scripts/variant-match.sh match named
# VARIANT-OPPONENT-TAG, so running the same command again plays only the games
# still missing and prints the table of what is there.
#
#   scripts/variant-table.sh TAG [GAMES] [VARIANT ...]
#   TAG: names this build's matches (e.g. the commit); GAMES: per variant, default 20
#
# Environment: PLUGBOARD (default target/release/plugboard; copy the build
# somewhere it stays while the matches run), JOBS (matches at a time, default 2:
# one engine thinks at a time in each), TABLE_ONLY=1 (print the table, play nothing).
set -euo pipefail
cd "$(dirname -- "$0")/.."

[ $# -ge 1 ] || { echo "usage: $0 TAG [GAMES] [VARIANT ...]" >&2; exit 2; }
tag=$1
games=${2:-20}
shift $(($# >= 2 ? 2 : 1))
[[ $tag =~ ^[A-Za-z0-9_.-]+$ ]] || { echo "TAG: letters, digits, . _ - only" >&2; exit 2; }
[[ $games =~ ^[1-9][0-9]*$ ]] || { echo "GAMES must be a positive number" >&2; exit 2; }
jobs=${JOBS:-2}

# variant opponent extra-environment: the opponents as ../shared/notes/variants.md
# names them; courier's slow men mate after move 150 (no cut); losers' win by
# being mated is one xboard's claim test does not know.
rows="
asean fairymax -
makruk fairymax -
courier fairymax DRAW_MOVES=0
shatranj fairymax -
nocastle fairymax -
knightmate fairymax -
capablanca fairymax -
gothic fairymax -
janus fairymax -
falcon fairymax -
cylinder fairymax -
berolina fairymax -
super fairymax -
great fairymax -
grand sjaakii -
caparandom sjaakii -
wildcastle sjaakii -
losers fairy-stockfish XBOARD_ARGS=-testClaims_false
twokings plugboard -
"
if [ $# -gt 0 ]; then
  wanted=" $* "
  rows=$(awk -v wanted="$wanted" 'NF && index(wanted, " " $1 " ")' <<<"$rows")
fi
rows=$(awk 'NF' <<<"$rows")
[ -n "$rows" ] || { echo "no such variant in the table" >&2; exit 2; }

play_row() {
  local variant=$1 opponent=$2 extra=$3
  local -a env=(MATCH_NAME="$variant-$opponent-$tag")
  # `_` stands for a space inside one environment value (not in its name).
  if [ "$extra" != - ]; then
    local value=${extra#*=}
    env+=("${extra%%=*}=${value//_/ }")
  fi
  env "${env[@]}" scripts/variant-match.sh "$variant" "$opponent" "$games" \
    >"target/variants/$variant-$opponent-$tag.log" 2>&1 \
    || echo "$variant: variant-match.sh failed, see target/variants/$variant-$opponent-$tag.log" >&2
}
export -f play_row
export tag games

mkdir -p target/variants
if [ "${TABLE_ONLY:-0}" != 1 ]; then
  xargs -P "$jobs" -L 1 bash -c 'play_row "$0" "$1" "$2"' <<<"$rows"
fi

echo "| variant | opponent | games | W / D / L | Elo [95 %] | lost on time / illegal / false claim / crash |"
echo "|---|---|---|---|---|---|"
while read -r variant opponent _; do
  pgn=target/variants/$variant-$opponent-$tag.pgn
  if [ ! -s "$pgn" ]; then
    echo "| $variant | $opponent | 0 | – | – | – |"
    continue
  fi
  python3 scripts/score.py "$pgn" | awk -v variant="$variant" -v opponent="$opponent" '
    /^Result for/ { match($0, /W=[0-9]+ D=[0-9]+ L=[0-9]+/); split(substr($0, RSTART, RLENGTH), r, /[ =]/)
                    wdl = r[2] " / " r[4] " / " r[6]; match($0, /n=[0-9]+/); n = substr($0, RSTART + 2, RLENGTH - 2) }
    /^Elo difference/ { match($0, /\[[^]]*\]/); elo = $3 " " substr($0, RSTART, RLENGTH) }
    /^plugboard lost on time/ { gsub(/[^0-9]+/, " "); split($0, f); faults = f[1] " / " f[2] " / " f[3] " / " f[4] }
    END { print "| " variant " | " opponent " | " n " | " wdl " | " elo " | " faults " |" }'
done <<<"$rows"
