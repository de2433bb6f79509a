#!/usr/bin/env bash
# Interop test: the real xboard in Zippy mode (`-ics -zp`, under Xvfb) logs on to a
# scripted FICS-dialect server (tests/interop/fics_server.py, 127.0.0.1 only),
# accepts its challenge and plays one game there with Plugboard as its engine,
# against an opponent the server plays itself. Then the server's transcript and
# xboard's debug log are checked.
#
# Usage (from the repository root):
#     tests/interop/xboard_zippy.sh target/release/plugboard
#
# Passes (exit 0) when xboard and the server both finished by themselves, the
# game ended with a result line and every move xboard sent was legal; the engine
# was told `ics 127.0.0.1`, `name Hostile`, `rating 1800 1650`, `computer` (or
# not, with COMPUTER=no), the opponent's draw offer and the partner's tell; the
# server received the finger note (`set 1 Plugboard ...`), the greeting (`say
# Hello ...`) and whispered search summaries (`whisper d<depth> ... pv ...`) no
# faster than about one a second; and neither the engine's tellics lines nor
# anything else the server received carries the opponent's text. Everything is
# kept in a temporary folder whose path is printed.
#
# VARIANT=wild/0|wild/2|wild/fr|losers plays a game of that FICS category
# instead of chess (xboard maps them to wildcastle, nocastle, fischerandom and
# losers), and the engine must have been told `variant NAME`; DECLINE=KIND
# first challenges with a category the engine does not play (wild/16, xboard's
# kriegspiel), which Zippy must decline because the engine's variants= list
# lacks it. -zippyVariants names every variant the test offers, so that the
# decline is the engine's list's doing.
set -euo pipefail

usage() { echo "usage: $0 PATH/TO/plugboard" >&2; exit 2; }
[ $# -eq 1 ] || usage
here=$(dirname -- "$0")
# shellcheck source=tests/interop/lib.sh
. "$here/lib.sh"

XBOARD=${XBOARD:-/usr/games/xboard}
ENGINE_COLOUR=${ENGINE_COLOUR:-white}   # the colour the server gives xboard's account
COMPUTER=${COMPUTER:-yes}               # announce the opponent as a computer
SEED=${SEED:-1}                         # the opponent's random moves
MAX_PLIES=${MAX_PLIES:-80}              # then the server aborts the game (bounds the wall time)
SERVER_LIMIT=${SERVER_LIMIT:-130}       # seconds; the server gives up first, and its close ends xboard
WALL_LIMIT=${WALL_LIMIT:-$((SERVER_LIMIT + 15))}
OPPONENT=Hostile
OUR_HANDLE=PlugBot
OWN_RATING=1800
OPP_RATING=1650
# What the opponent says, and tells as our "bughouse partner". A say reaches
# nobody; the partner tell reaches the engine as `ptell ...`. Neither may come
# back to the server in anything the engine has xboard send.
HOSTILE_SAY='tellics quit; set 1 pwned'
HOSTILE_PTELL='tellics set 2 pwned; quit'
HOSTILE_WORDS='pwned|quit|tellics'
DRAW_OFFER_PLY=14
# The engine's throttle lets a burst through, then about a line every two seconds;
# the test allows BURST whispers at once and one a second on average.
BURST=6
VARIANT=${VARIANT:-blitz}               # the FICS category of the game
DECLINE=${DECLINE:-}                    # a category offered first, to be declined
case "$VARIANT" in
  blitz) xboard_variant="" ;;
  wild/0) xboard_variant=wildcastle ;;
  wild/2) xboard_variant=nocastle ;;
  wild/fr) xboard_variant=fischerandom ;;
  losers) xboard_variant=losers ;;
  *) echo "VARIANT must be blitz, wild/0, wild/2, wild/fr or losers" >&2; exit 2 ;;
esac

check_prerequisites "$1"
case "$ENGINE_COLOUR" in white|black) ;; *) fail "ENGINE_COLOUR must be white or black" ;; esac
case "$COMPUTER" in yes) computer_flag=--computer ;; no) computer_flag=--no-computer ;;
  *) fail "COMPUTER must be yes or no" ;; esac
make_work plugboard-zippy game.pgn
SERVER_LOG="$WORK/server.log"
SERVER_OUT="$WORK/server.out"
PORT_FILE="$WORK/port"

server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# `timeout` as well as the server's own limit: a hung Python never outlives the test.
timeout -k 5 $((SERVER_LIMIT + 10)) python3 "$here/fics_server.py" \
  --port-file "$PORT_FILE" --log "$SERVER_LOG" --limit "$SERVER_LIMIT" \
  --opponent "$OPPONENT" --ratings "$OWN_RATING,$OPP_RATING" --engine-colour "$ENGINE_COLOUR" \
  "$computer_flag" --seed "$SEED" --max-plies "$MAX_PLIES" --draw-offer-ply "$DRAW_OFFER_PLY" \
  --hostile-say "$HOSTILE_SAY" --partner-tell "$HOSTILE_PTELL" \
  --variant "$VARIANT" --decline-first "$DECLINE" \
  >"$SERVER_OUT" 2>&1 &
server=$!
for _ in $(seq 100); do [ -s "$PORT_FILE" ] && break; sleep 0.1; done
[ -s "$PORT_FILE" ] || fail "the scripted server did not start (see $SERVER_OUT)"
PORT=$(cat "$PORT_FILE")

# xboard sends this file verbatim at `login:`: the handle, then the password.
printf '%s\nsecret\n' "$OUR_HANDLE" >"$WORK/logon"

echo "engine: $ENGINE (plays $ENGINE_COLOUR as $OUR_HANDLE)"
echo "server: 127.0.0.1:$PORT, opponent $OPPONENT (computer: $COMPUTER, seed $SEED), limit ${SERVER_LIMIT}s"
echo "game:   $VARIANT${DECLINE:+ (after a $DECLINE challenge to decline)}"
echo "files:  $WORK"

# run_zippy OPTION...: run_xboard's counterpart for ICS mode. In ICS mode xboard
# reads its terminal as console input and quits at its end, so its stdin is a FIFO
# opened read-write: it never ends and never blocks the opener.
run_zippy() {
  local start
  mkfifo "$WORK/console"
  start=$(date +%s)
  set +e
  HOME="$WORK/home" timeout -k 10 "$WALL_LIMIT" \
    xvfb-run -a -s "-screen 0 1280x1024x24" \
    "$XBOARD" "$@" \
      -debug -nameOfDebugFile "$DEBUG_FILE" -sgf "$PGN" \
      -saveSettingsOnExit false -popupExitMessage false -soundProgram '' \
      <>"$WORK/console" >"$XBOARD_OUT" 2>&1
  RC=$?
  set -e
  ELAPSED=$(( $(date +%s) - start ))
  echo "xboard exited with status $RC after ${ELAPSED}s"
}

# -xtelnet and no -icshelper: plain TCP, no timeseal. -zippyTalk false: Zippy
# would answer says with sayings of its own. -zippyBughouse 2: Zippy accepts the
# partnership offer and passes the partner's tells to the engine.
run_zippy \
  -ics -icshost 127.0.0.1 -icsport "$PORT" -xtelnet -icshelper '' -icslogon "$WORK/logon" \
  -zp -zippyTalk false -zippyBughouse 2 \
  -zippyVariants normal,wildcastle,nocastle,fischerandom,losers,kriegspiel,bughouse \
  -fcp "$ENGINE" -fd "$ENGINE_DIR"
server_rc=0
wait "$server" || server_rc=$?
server=""

# ---- 1. the game, as the server saw it
if [ "$RC" -eq 124 ] || [ "$RC" -eq 137 ]; then
  problem "xboard did not finish within ${WALL_LIMIT}s (timeout status $RC)"
elif [ "$RC" -ne 0 ]; then
  problem "xboard exited with status $RC (see $XBOARD_OUT)"
fi
[ -s "$SERVER_LOG" ] || fail "no server transcript at $SERVER_LOG (see $SERVER_OUT)"
[ -s "$DEBUG_FILE" ] || { show_files; fail "no xboard debug file at $DEBUG_FILE"; }
case "$server_rc" in
  0) ;;
  124|137) problem "the server had to be killed by its timeout" ;;
  *) problem "the server ended with status $server_rc (see $SERVER_OUT)" ;;
esac
while read -r line; do
  problem "server: $line"
done < <(sed -nE 's/^ *[0-9.]+ !!! //p' "$SERVER_LOG")

# Lines the server received, without their time stamps; and with them (seconds first).
received() { sed -nE 's/^ *[0-9.]+ <<< //p' "$SERVER_LOG"; }
received_at() { sed -nE 's/^ *([0-9.]+) <<< /\1 /p' "$SERVER_LOG"; }
noted() { sed -nE 's/^ *[0-9.]+ === //p' "$SERVER_LOG"; }

result_line=$(sed -nE 's/^ *[0-9.]+ >>> (\{Game [0-9]+ \(.* vs\. .*\) .*\} (1-0|0-1|1\/2-1\/2|\*))$/\1/p' "$SERVER_LOG" | tail -1)
[ -n "$result_line" ] || problem "the server never sent a result line: the game did not end"
server_result=${result_line##* }
engine_moves_at_server=$(noted | grep -c '^engine move ' || true)
engine_moves_in_log=$(said_by first | grep -cE '^move ' || true)
[ "$engine_moves_at_server" -ge 1 ] || problem "no move of the engine reached the server"
# Each `move` the engine made must have reached the server (the server judged each
# one); at most the last may be lost, to a game that ended while the engine thought.
[ "$engine_moves_at_server" -ge $((engine_moves_in_log - 1)) ] \
  || problem "the engine made $engine_moves_in_log moves, only $engine_moves_at_server reached the server"
bad=$(said_by first | grep -aE '^(Illegal move|Error)' || true)
[ -z "$bad" ] || problem "the engine answered with an error or rejected a move:"$'\n'"$bad"
bad=$(told first | grep -aiE '^Illegal move' || true)
[ -z "$bad" ] || problem "xboard told the engine of an illegal move:"$'\n'"$bad"
check_xboard_messages
# xboard's own record of the game must agree with the server's.
if [ -n "$result_line" ]; then
  told first | grep -F "result $server_result " | grep -q '^result ' \
    || problem "xboard never passed the result ($server_result) to the engine"
  if [ "$server_result" != "*" ]; then
    [ -s "$PGN" ] || { problem "xboard saved no PGN at $PGN"; : >"$PGN"; }
    read_games 1
    pgn_result=$(printf '%s\n' "$summary" | head -1 | cut -d"$PGN_SEP" -f4)
    [ "$pgn_result" = "$server_result" ] || problem "xboard's PGN says '$pgn_result', the server '$server_result'"
  fi
fi

# ---- 2. what the engine was told (xboard's debug log, `>first :` lines)
told_engine=$(told first)
expect_told() {
  grep -qxF -- "$1" <<<"$told_engine" || problem "the engine was never told '$1'"
}
expect_told "ics 127.0.0.1"
expect_told "name $OPPONENT"
expect_told "rating $OWN_RATING $OPP_RATING"
if [ -n "$xboard_variant" ]; then
  expect_told "variant $xboard_variant"
elif grep -q '^variant ' <<<"$told_engine"; then
  problem "the engine was told a variant in a game of chess: $(grep '^variant ' <<<"$told_engine" | head -1)"
fi
if [ -n "$DECLINE" ]; then
  noted | grep -qF "xboard declined the $DECLINE challenge" || problem "xboard did not decline the $DECLINE challenge"
  received | grep -qE "^\\\$?tell $OPPONENT This computer can't play $DECLINE " \
    || problem "xboard did not tell the challenger why it declined"
fi
if [ "$COMPUTER" = yes ]; then
  expect_told computer
elif grep -qx computer <<<"$told_engine"; then
  problem "the engine was told 'computer' though the opponent was not announced as one"
fi
# The opponent's text reached the engine this way, which makes the checks below mean something.
if noted | grep -q '^the opponent tells, as our partner'; then
  expect_told "partner $OPPONENT"
  expect_told "ptell $HOSTILE_PTELL"
else
  problem "the partner's tell was never sent: xboard did not answer the partnership offer with 'partner $OPPONENT'"
fi
if noted | grep -q '^the opponent offers a draw'; then
  expect_told draw
fi

# ---- 3. what the server received from the engine
received | grep -qE '^\$?set 1 Plugboard' || problem "no finger note ('set 1 Plugboard ...') reached the server"
received | grep -qE '^\$?say Hello ' || problem "no greeting ('say Hello ...') reached the server"
whispers=$(received | grep -cE '^\$?whisper ' || true)
summaries=$(received | grep -cE '^\$?whisper d[0-9]+ .*\bpv\b' || true)
[ "$summaries" -ge 1 ] || problem "no search summary ('whisper d<depth> ... pv ...') reached the server"
# No more than BURST whispers at once, and about one a second after that: for any
# two whispers, the number from the one to the other is at most BURST plus the
# seconds between them.
too_fast=$(received_at | awk -v burst="$BURST" '
  $2 ~ /^\$?whisper$/ { t[n++] = $1 }
  END {
    for (i = 0; i < n; i++) for (j = i; j < n; j++)
      if (j - i + 1 > burst + (t[j] - t[i])) { printf "%d whispers in %.1f s (from %.1f s)\n", j - i + 1, t[j] - t[i], t[i]; exit }
  }')
[ -z "$too_fast" ] || problem "whispers faster than the engine's throttle should allow: $too_fast"
mates=$(received | grep -E '^\$?kibitz ' || true)

# ---- the opponent's text. The engine's own server commands, as it wrote them:
engine_tellics=$(said_by first | grep -E '^tellics(noalias)? ' || true)
bad=$(sed -E 's/^tellics(noalias)? //' <<<"$engine_tellics" | grep -aiE "$OPPONENT|$HOSTILE_WORDS" || true)
[ -z "$bad" ] || problem "opponent-controlled text in the engine's tellics lines:"$'\n'"$bad"
# ...and everything the server received: the hostile words nowhere, the opponent's
# handle only where xboard or the greeting puts it.
bad=$(received | grep -aiE "$HOSTILE_WORDS" || true)
[ -z "$bad" ] || problem "the opponent's words reached the server:"$'\n'"$bad"
bad=$(received | grep -ai "$OPPONENT" \
  | grep -avE "^\\\$?(accept|decline|partner) $OPPONENT\$|^\\\$?say Hello $OPPONENT\\b|^\\\$?tell $OPPONENT This computer can't play " || true)
[ -z "$bad" ] || problem "the opponent's handle in an unexpected line the server received:"$'\n'"$bad"

# ---- 4. the report
echo
echo "server result: ${result_line:-none}"
echo "engine moves: $engine_moves_in_log made, $engine_moves_at_server judged legal by the server;" \
     "whispers: $whispers ($summaries summaries)"
noted | grep -E '^(the engine|the opponent (offers|says|tells)|move cap)' | sed 's/^/  server: /' || true
[ -z "$mates" ] || { echo "mate announcements:"; sed 's/^/  | /' <<<"$mates"; }
echo "the engine's server commands (tellics/tellicsnoalias):"
sed 's/^/  | /' <<<"${engine_tellics:-(none)}"
echo "what the engine was told of the opponent:"
grep -E '^(ics|name|rating|computer|partner|ptell|draw|result) ?' <<<"$told_engine" | sed 's/^/  > /' || true
echo
echo "server transcript: $SERVER_LOG (the first 40 lines it received, with seconds since it started):"
# sed reads to the end (head would close the pipe early: a SIGPIPE under pipefail).
received_at | sed -n '1,40s/^/  | /p'
n_received=$(received | wc -l)
[ "$n_received" -le 40 ] || echo "  | ... ($n_received lines in all)"
finish
