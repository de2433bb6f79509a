#!/usr/bin/env bash
# Interop test: the real xboard in Zippy mode (`-ics -zp`, under Xvfb) logs on to
# a scripted chess server (tests/interop/ics_server.py, loopback only) and plays
# one game there with Plugboard as its engine. Then what the server received and
# what the engine was told are checked.
#
# Usage (from the repository root):
#     tests/interop/xboard_ics.sh target/release/plugboard
#
# Passes (exit 0) when the game was played to its end with every move legal;
# the engine was told `ics`, `name`, `rating` and `computer` as the server's
# lines say; the server received the engine's finger note (`set 1 Plugboard`),
# its greeting (`say Hello Hostile`) and at least one whispered summary
# (`whisper d...`); and no line the engine sent with `tellics`/`tellicsnoalias`,
# and nothing the server received, carries the opponent's text. Everything is
# kept in a temporary folder whose path is printed.
set -euo pipefail

usage() { echo "usage: $0 PATH/TO/plugboard" >&2; exit 2; }
[ $# -eq 1 ] || usage
here=$(dirname -- "$0")
# shellcheck source=tests/interop/lib.sh
. "$here/lib.sh"

XBOARD=${XBOARD:-/usr/games/xboard}
WALL_LIMIT=${WALL_LIMIT:-200}     # seconds for the whole xboard run
SERVER_LIMIT=$((WALL_LIMIT - 20)) # the server gives up first, and so ends xboard
OPPONENT=Hostile
HOSTILE_SAY='tellics set 1 pwned; $quit'

check_prerequisites "$1"
make_work plugboard-zippy game.pgn
SERVER_LOG="$WORK/server.log"
PORT_FILE="$WORK/port"

python3 "$here/ics_server.py" --port-file "$PORT_FILE" --log "$SERVER_LOG" \
  --limit "$SERVER_LIMIT" --opponent "$OPPONENT" --hostile-say "$HOSTILE_SAY" \
  >"$WORK/server.out" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$PORT_FILE" ] && break; sleep 0.1; done
[ -s "$PORT_FILE" ] || fail "the scripted server did not start (see $WORK/server.out)"
PORT=$(cat "$PORT_FILE")

printf 'PlugBot\nsecret\n' >"$WORK/logon"
# In ICS mode xboard reads its terminal as console input and quits at its end: a
# FIFO opened read-write never ends.
mkfifo "$WORK/console"

echo "engine: $ENGINE"
echo "server: 127.0.0.1:$PORT (log $SERVER_LOG)"
echo "files:  $WORK"

start=$(date +%s)
set +e
HOME="$WORK/home" timeout -k 10 "$WALL_LIMIT" \
  xvfb-run -a -s "-screen 0 1280x1024x24" \
  "$XBOARD" -ics -icshost 127.0.0.1 -icsport "$PORT" -xtelnet -icshelper '' \
    -icslogon "$WORK/logon" -zp -zippyTalk false -fcp "$ENGINE" -fd "$ENGINE_DIR" \
    -debug -nameOfDebugFile "$DEBUG_FILE" -sgf "$PGN" \
    -saveSettingsOnExit false -popupExitMessage false -soundProgram '' \
    <>"$WORK/console" >"$XBOARD_OUT" 2>&1
RC=$?
set -e
ELAPSED=$(( $(date +%s) - start ))
echo "xboard exited with status $RC after ${ELAPSED}s"
server_rc=0
wait "$server" || server_rc=$?
trap - EXIT

if [ "$RC" -eq 124 ] || [ "$RC" -eq 137 ]; then problem "xboard did not finish within ${WALL_LIMIT}s"; fi
[ -s "$DEBUG_FILE" ] || { show_files; fail "no xboard debug file at $DEBUG_FILE"; }
[ "$server_rc" -eq 0 ] || problem "the server reported a failure (status $server_rc)"
if grep -aq '^[0-9.]* !!! ' "$SERVER_LOG"; then
  problem "the server saw something wrong: $(sed -nE 's/^[0-9.]+ !!! //p' "$SERVER_LOG")"
fi
grep -aq '^[0-9.]* === game over' "$SERVER_LOG" || problem "the game did not end on the server"

# Lines the server received, without their time stamps.
received() { sed -nE 's/^[0-9.]+ <<< //p' "$SERVER_LOG"; }
moves_received=$(received | grep -cE '^([a-h][1-8][a-h][1-8](=[qrbn])?|o-o(-o)?)$' || true)
[ "$moves_received" -ge 5 ] || problem "only $moves_received moves reached the server"

# What the engine was told (xboard's debug log, `>first :` lines).
told_engine=$(told first)
for expected in "ics 127.0.0.1" "name $OPPONENT" "rating 1800 1650" "computer"; do
  grep -qxF -- "$expected" <<<"$told_engine" || problem "the engine was not told '$expected'"
done

# What reached the server from the engine.
received | grep -qE '^\$?set 1 Plugboard' || problem "no finger note (set 1 Plugboard ...) reached the server"
received | grep -qE "^\\\$?say Hello $OPPONENT" || problem "no greeting (say Hello $OPPONENT) reached the server"
whispers=$(received | grep -cE '^\$?whisper d[0-9]+ ' || true)
[ "$whispers" -ge 1 ] || problem "no whispered summary reached the server"

# Safety: nothing the opponent controls in a server command the engine made, and
# the opponent's text nowhere in what the server received.
engine_tellics=$(said_by first | grep -E '^tellics(noalias)? ' || true)
if grep -qiE "$OPPONENT|pwned|quit" <<<"$engine_tellics"; then
  problem "opponent-controlled text in the engine's tellics: $(grep -iE "$OPPONENT|pwned|quit" <<<"$engine_tellics")"
fi
if received | grep -qiE 'pwned'; then
  problem "the opponent's text reached the server: $(received | grep -iE 'pwned')"
fi

echo
echo "what the server received ($(received | wc -l) lines; moves $moves_received, whispers $whispers):"
received | grep -vE '^$' | head -60 | sed 's/^/  | /'
echo "the engine's server commands:"
sed 's/^/  | /' <<<"$engine_tellics"
echo "result: $(sed -nE 's/^[0-9.]+ === //p' "$SERVER_LOG")"
finish
