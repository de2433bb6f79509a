# shellcheck shell=bash
# What the xboard interop scripts share: the checks before a run, xboard run
# unattended under Xvfb, reading its debug log and the saved PGN, and the report.
# Sourced by xboard_match.sh and xboard_tour.sh, which set XBOARD and WALL_LIMIT.

fail() { echo "FAIL: $*" >&2; exit 1; }

problems=()
problem() { problems+=("$*"); }

# check_prerequisites PATH/TO/plugboard: sets ENGINE and ENGINE_DIR; xboard and
# xvfb-run must be there.
check_prerequisites() {
  ENGINE=$(realpath -e -- "$1" 2>/dev/null) || fail "engine binary not found: $1"
  [ -x "$ENGINE" ] || fail "engine binary is not executable: $ENGINE"
  ENGINE_DIR=$(dirname -- "$ENGINE")
  [ -x "$XBOARD" ] || fail "xboard not found at $XBOARD (apt-get install xboard)"
  command -v xvfb-run >/dev/null || fail "xvfb-run not found (apt-get install xvfb xauth)"
}

# make_work NAME PGN-FILE: a new temporary folder WORK (with a private home) for
# the debug log DEBUG_FILE, the PGN and xboard's own output XBOARD_OUT.
make_work() {
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/$1-XXXXXX")
  DEBUG_FILE="$WORK/xboard.debug"
  PGN="$WORK/$2"
  XBOARD_OUT="$WORK/xboard.out"
  mkdir -p "$WORK/home"
}

# run_xboard OPTION...: xboard with these options, unattended, keeping its debug
# log and the PGN; sets RC and ELAPSED. Settings are not saved at exit unless
# SAVE_SETTINGS=true (with a -saveSettingsFile of the caller's), so no one's
# ~/.xboardrc is written (xboard finds `~` in the password database, so the private
# HOME does not keep it from reading one); `timeout` signals its whole process group
# (xvfb-run, Xvfb, xboard, engines). `timeout` makes that group its own, so a
# signal to the caller's group (Ctrl-C) does not reach it: a caller that may be
# stopped traps the signal and calls stop_xboard. xboard runs in the background
# (XBOARD_PID, the group's leader) for that: bash runs a trap only once the
# command it waits for in the foreground has ended, but interrupts `wait`.
run_xboard() {
  local start
  start=$(date +%s)
  set +e
  HOME="$WORK/home" timeout -k 10 "$WALL_LIMIT" \
    xvfb-run -a -s "-screen 0 1280x1024x24" \
    "$XBOARD" "$@" \
      -debug -nameOfDebugFile "$DEBUG_FILE" -sgf "$PGN" \
      -saveSettingsOnExit "${SAVE_SETTINGS:-false}" -popupExitMessage false -soundProgram '' \
      </dev/null >"$XBOARD_OUT" 2>&1 &
  XBOARD_PID=$!
  wait "$XBOARD_PID"
  RC=$?
  XBOARD_PID=
  set -e
  ELAPSED=$(( $(date +%s) - start ))
  echo "xboard exited with status $RC after ${ELAPSED}s"
}

# stop_xboard: ends the xboard run_xboard started (its whole process group), if any.
stop_xboard() {
  if [ -n "${XBOARD_PID:-}" ]; then
    kill -TERM -- "-$XBOARD_PID" 2>/dev/null || kill -TERM "$XBOARD_PID" 2>/dev/null || true
    wait "$XBOARD_PID" 2>/dev/null || true
    XBOARD_PID=
  fi
}

# filtered_fairymax FAIRYMAX: sets OPPONENT to a script in WORK that runs Fairy-Max
# behind a filter. Debian's Fairy-Max 5.0b often dies with SIGSEGV on a command it
# does not know (instead of answering `Error (unknown command)`), and xboard sends
# it two such commands: `computer` when a game starts and `result` when it ends.
# Seen here: `xboard: Error writing to second chess program: Broken pipe` after
# `computer`. The filter drops just those two lines.
filtered_fairymax() {
  OPPONENT="$WORK/fairymax-filtered.sh"
  cat >"$OPPONENT" <<EOF
#!/bin/sh
trap '' INT
grep --line-buffered -v -E '^(computer|result)( |\$)' | '$1'
EOF
  chmod +x "$OPPONENT"
}

# engine_variants COMMAND [ARG...]: the variants the engine announces
# (`feature variants="..."`, comma-separated; empty when it announces none, which
# means normal chess only). xboard, given `-variant V` and a first engine that does
# not announce V, says so in a dialog and plays the engine's first variant instead,
# so a script checks the announcement before it starts xboard. Waits for `done=1`
# (10 s at most between lines), then sends `quit`.
engine_variants() {
  local line variants=""
  coproc PROBE { HOME=${WORK:-$HOME} timeout -k 2 30 "$@" 2>/dev/null; }
  printf 'xboard\nprotover 2\n' 1>&"${PROBE[1]}" 2>/dev/null || true
  while IFS= read -r -t 10 line <&"${PROBE[0]}"; do
    case $line in *variants=\"*) variants=${line#*variants=\"}; variants=${variants%%\"*} ;; esac
    case $line in *done=1*) break ;; esac
  done
  printf 'quit\n' 1>&"${PROBE[1]}" 2>/dev/null || true
  # End of input too, for an engine behind a filter (grep waits for it).
  local in_fd=${PROBE[1]}
  exec {in_fd}>&-
  wait "$PROBE_PID" 2>/dev/null || true
  printf '%s\n' "$variants"
}

show_files() {
  echo
  echo "debug log: $DEBUG_FILE"
  echo "PGN:       $PGN"
  echo "xboard stdout/stderr: $XBOARD_OUT"
  sed 's/^/  | /' "$XBOARD_OUT"
  if [ -s "$PGN" ]; then
    echo "----- $PGN"
    cat "$PGN"
    echo "-----"
  fi
}

# check_run WHAT: xboard finished WHAT (e.g. "the match") by itself, and left a
# debug log (or the script fails here) and a PGN.
check_run() {
  if [ "$RC" -eq 124 ] || [ "$RC" -eq 137 ]; then
    problem "xboard did not finish $1 within ${WALL_LIMIT}s (timeout status $RC)"
  elif [ "$RC" -ne 0 ]; then
    problem "xboard exited with status $RC (see $XBOARD_OUT)"
  fi
  [ -s "$DEBUG_FILE" ] || { show_files; fail "no xboard debug file at $DEBUG_FILE"; }
  [ -s "$PGN" ] || { problem "no PGN saved at $PGN"; : >"$PGN"; }
}

# ---- the debug log: xboard logs what it sends as `>first :` / `>second:` and what
# it reads as `<first :` / `<second:`; the first engine is -fcp, the second -scp.
# read_from WHO / sent_to WHO: those log lines as they are.
read_from() { grep -aE "^[0-9]* *<$1 *:" "$DEBUG_FILE" || true; }
sent_to() { grep -aE "^[0-9]* *>$1 *:" "$DEBUG_FILE" || true; }
# said_by WHO / told WHO: the protocol text alone. xboard writes some commands in
# pieces (`usermove ` then the move), and logs each piece with its own prefix on
# the same line: `6605 >first : usermove 6605 >first : O-O`.
# Every one of these succeeds: a reader that stops early (`grep -q`) must not make
# the writer's broken pipe fail the caller's pipeline under `pipefail`.
said_by() { read_from "$1" | sed -E 's/^[0-9]* *<[a-z]+ *: ?//' || true; }
told() { sent_to "$1" | sed -E 's/[0-9]+ *>(first|second) *: ?//g' || true; }

# xboard's own messages must not speak of an illegal move, a forfeit or a crash.
check_xboard_messages() {
  local bad excused=${1:-}
  bad=$(grep -aiE 'Illegal move|Forfeit|exited unexpectedly|Error (writing|reading)|crash' "$XBOARD_OUT" || true)
  [ -z "$excused" ] || bad=$(printf '%s\n' "$bad" | grep -avE "$excused" || true)
  [ -z "$bad" ] || problem "xboard's messages ($XBOARD_OUT):"$'\n'"$bad"
}

# ---- the PGN. pgn_games: one line a game, its fields separated by $PGN_SEP (not a
# tab: `read` would merge empty fields): number, White, Black, Result, Variant,
# FEN (both empty when the tag is absent) and the last {comment} of the game.
PGN_SEP=$'\037'
pgn_games() {
  awk -v sep="$PGN_SEP" '
    function flush() {
      if (n > 0) print n sep white sep black sep result sep variant sep fen sep reason
    }
    /^\[Event / { flush(); n++; white = black = result = variant = fen = reason = ""; next }
    /^\[White "/ { sub(/^\[White "/, ""); sub(/"\]\r?$/, ""); white = $0; next }
    /^\[Black "/ { sub(/^\[Black "/, ""); sub(/"\]\r?$/, ""); black = $0; next }
    /^\[Result "/ { sub(/^\[Result "/, ""); sub(/"\]\r?$/, ""); result = $0; next }
    /^\[Variant "/ { sub(/^\[Variant "/, ""); sub(/"\]\r?$/, ""); variant = $0; next }
    /^\[FEN "/ { sub(/^\[FEN "/, ""); sub(/"\]\r?$/, ""); fen = $0; next }
    /^\[/ { next }
    {
      line = $0
      while (match(line, /\{[^}]*\}/)) { reason = substr(line, RSTART + 1, RLENGTH - 2); line = substr(line, RSTART + RLENGTH) }
    }
    END { flush() }
  ' "$PGN"
}

# read_games EXPECTED: sets summary (pgn_games) and n_games, and says whether the
# PGN holds the EXPECTED number of games.
read_games() {
  summary=$(pgn_games)
  n_games=$(printf '%s\n' "$summary" | grep -c . || true)
  echo
  echo "games in the PGN: $n_games"
  [ "$n_games" -eq "$1" ] || problem "PGN holds $n_games games, expected $1"
}

# check_finished N RESULT: a game result of 1-0, 0-1 or 1/2-1/2, not `*`.
check_finished() {
  case "$2" in
    1-0|0-1|1/2-1/2) ;;
    *) problem "game $1: result '$2' is not a finished game" ;;
  esac
}

# A result comment that speaks of one of these is a failure of an engine, not chess.
FAILURE_REASONS='time|forfeit|illegal|crash|exit|stall|disconnect|false'

# finish: the files, every problem found, and the exit status.
finish() {
  show_files
  if [ "${#problems[@]}" -gt 0 ]; then
    for p in "${problems[@]}"; do echo "FAIL: $p" >&2; done
    exit 1
  fi
  echo "PASS (${ELAPSED}s)"
}
