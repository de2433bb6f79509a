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
#
# The match itself is scripts/variant-match.sh's; this keeps the xiangqi
# defaults (the openings file, target/xiangqi, names without the variant) so
# matches begun before go on where they stopped.
set -euo pipefail

usage() { echo "usage: $0 OPPONENT GAMES [TC]   (OPPONENT: maxqi | hoixiangqi | fairy-stockfish)" >&2; exit 2; }
if [ $# -lt 2 ] || [ $# -gt 3 ]; then usage; fi
cd "$(dirname -- "$0")/.."
tc=${3:-10+0.1}
name=$1-$tc
[ "${FIRST:-plugboard}" = plugboard ] || name=$FIRST-$1-$tc
OPENINGS=${OPENINGS:-scripts/xiangqi-openings.fen} OUT=${OUT:-target/xiangqi} MATCH_NAME=$name \
  exec scripts/variant-match.sh xiangqi "$@"
