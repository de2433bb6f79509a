#!/usr/bin/env bash
# Interop test: scripts/install.sh, then the real xboard (4.9.x, under Xvfb) finds
# the installed engine in its own engine list and plays with it.
#
# Usage (from the repository root, after the release build):
#     tests/interop/xboard_install.sh target/release/plugboard
#
# User install (always): into a temporary prefix, with a settings file of its own. Passes when
# the installed command lists the bundled plugins from its own folder, ~/.xboardrc
# lists the engine beside the engines xboard would have listed anyway, and
# `xboard -fe plugboard` (the engine chosen from that list by name) plays a game
# against Fairy-Max to its end with the installed engine, the first-run list kept by
# xboard when it saves its settings.
#
# System install (when /usr/local/share/games/plugins/xboard/plugboard.eng can be
# written and does not exist yet, as on CI): the `.eng` file names the engine and its
# variants; xboard started without settings adds the engine to its list by itself
# (seen in the settings it saves), and the next start plays with `-fe plugboard`.
# Everything installed is removed afterwards.
set -euo pipefail

usage() { echo "usage: $0 PATH/TO/plugboard" >&2; exit 2; }
[ $# -eq 1 ] || usage
# shellcheck source=tests/interop/lib.sh
. "$(dirname -- "$0")/lib.sh"

XBOARD=${XBOARD:-/usr/games/xboard}
FAIRYMAX=${FAIRYMAX:-/usr/games/fairymax}
WALL_LIMIT=${WALL_LIMIT:-120}
REPO=$(cd "$(dirname -- "$0")/../.." && pwd)
INSTALL="$REPO/scripts/install.sh"
ENG_FILE=/usr/local/share/games/plugins/xboard/plugboard.eng

check_prerequisites "$1"
[ "$ENGINE" = "$REPO/target/release/plugboard" ] ||
  fail "install.sh installs the build in $REPO/target/release; give that engine, not $ENGINE"
[ -x "$FAIRYMAX" ] || fail "fairymax not found at $FAIRYMAX (apt-get install fairymax)"
make_work plugboard-install games.pgn
USER_PREFIX="$WORK/user-prefix"
SYSTEM_PREFIX="$WORK/system-prefix"
system_installed=no
cleanup() {
  if [ "$system_installed" = yes ]; then
    "$INSTALL" --uninstall --system --prefix "$SYSTEM_PREFIX" >/dev/null || true
  fi
}
trap cleanup EXIT

filtered_fairymax "$FAIRYMAX"

# xboard takes `~` in `~/.xboardrc` from the password database, whatever HOME says,
# so each run names its own settings file, read at start and written at exit.
# play_installed SETTINGS: xboard with those settings plays one short game between
# the engine it finds as `plugboard` in its list and Fairy-Max (a draw is
# adjudicated after 12 moves, so the game ends in seconds).
play_installed() {
  SAVE_SETTINGS=true run_xboard -settingsFile "$1" -saveSettingsFile "$1" -fe plugboard \
    -scp "$OPPONENT" -sd "$WORK" -mg 1 -tc 0:10 -inc 0.1 -adjudicateDrawMoves 12
}

# check_game WHAT COMMAND: the game was played to its end by COMMAND (the first
# engine in the debug log), which announced itself as Plugboard and moved.
check_game() {
  check_run "$1"
  grep -aqF "$2" "$DEBUG_FILE" || problem "$1: xboard never started $2"
  said_by first | grep -qE 'myname="Plugboard' || problem "$1: the first engine is not Plugboard"
  said_by first | grep -qE '^move [a-h][1-8][a-h][1-8]' || problem "$1: no move from the installed engine"
  check_xboard_messages
  read_games 1
  local n white black result
  while IFS=$PGN_SEP read -r n white black result _ _ _; do
    [ -n "$n" ] || continue
    echo "$1: $white - $black  $result"
    check_finished "$n" "$result"
    [[ "$white $black" == *Plugboard* ]] || problem "$1: Plugboard did not play ('$white' - '$black')"
  done <<< "$summary"
}

# ---- user install
rc="$WORK/home/.xboardrc"
echo "== user install into $USER_PREFIX (settings $rc)"
XBOARDRC=$rc "$INSTALL" --user --prefix "$USER_PREFIX" --no-build
installed="$USER_PREFIX/bin/plugboard"
[ -L "$installed" ] || fail "no link at $installed"
listing=$("$installed" --list-plugins 2>&1) || fail "the installed engine failed --list-plugins: $listing"
echo "$listing" | sed 's/^/  | /'
for plugin in alphabeta pesto material; do
  echo "$listing" | grep -qE "$plugin.*$USER_PREFIX/lib/plugboard/" ||
    problem "the installed engine does not list '$plugin' from $USER_PREFIX/lib/plugboard"
done
echo "$listing" | grep -qF "$REPO/target" && problem "the installed engine finds plugins in the build folder"
[ -f "$rc" ] || fail "no $rc"
grep -qxF "$installed" "$rc" || problem "$rc does not list $installed"
grep -qE '^-firstChessProgramNames \{fairymax' "$rc" || problem "$rc lost xboard's own engines (fairymax first)"
grep -qF '"GNU Chess" -fcp gnuchess' "$rc" || problem "$rc lost the engines of /etc/xboard/xboard.conf"
XBOARDRC=$rc "$INSTALL" --user --prefix "$USER_PREFIX" --no-build >/dev/null
[ "$(grep -cxF "$installed" "$rc")" -eq 1 ] || problem "a second install listed the engine twice in $rc"

play_installed "$rc"
check_game "user install" "$installed"
grep -qxF "$installed" "$rc" || problem "xboard's saved settings dropped the engine"

XBOARDRC=$rc "$INSTALL" --uninstall --user --prefix "$USER_PREFIX" >/dev/null
[ ! -e "$installed" ] && [ ! -e "$USER_PREFIX/lib/plugboard" ] || problem "--uninstall left files in $USER_PREFIX"
grep -qxF "$installed" "$rc" && problem "--uninstall left the engine in $rc"
grep -qE '^-firstChessProgramNames \{' "$rc" || problem "--uninstall broke the engine list in $rc"

# ---- system install
if [ -e "$ENG_FILE" ]; then
  echo "== system install: SKIPPED, $ENG_FILE exists (a real install is not touched)"
elif ! mkdir -p "$(dirname -- "$ENG_FILE")" 2>/dev/null || [ ! -w "$(dirname -- "$ENG_FILE")" ]; then
  echo "== system install: SKIPPED, $(dirname -- "$ENG_FILE") cannot be written by $(id -un)"
else
  echo "== system install into $SYSTEM_PREFIX"
  system_installed=yes
  "$INSTALL" --system --prefix "$SYSTEM_PREFIX" --no-build
  installed="$SYSTEM_PREFIX/bin/plugboard"
  [ -f "$ENG_FILE" ] || fail "no $ENG_FILE"
  sed 's/^/  | /' "$ENG_FILE"
  [ "$(sed -n 1p "$ENG_FILE")" = "plugin spec 0.0" ] || problem "$ENG_FILE: first line is not 'plugin spec 0.0'"
  [ "$(sed -n 2p "$ENG_FILE")" = "$installed" ] || problem "$ENG_FILE: second line is not $installed"
  for variant in chess fischerandom crazyhouse; do
    sed -n 3p "$ENG_FILE" | tr ',' '\n' | grep -qx "$variant" || problem "$ENG_FILE: variant '$variant' missing"
  done

  # A first start without settings: xboard adds the engine by itself; SIGTERM makes
  # it save its settings and leave.
  fresh="$WORK/fresh.xboardrc"
  set +e
  HOME="$WORK/home" timeout -k 10 60 xvfb-run -a -s "-screen 0 1280x1024x24" sh -c '
    "$1" -ncp -saveSettingsFile "$2" -saveSettingsOnExit true -popupExitMessage false \
      -soundProgram "" </dev/null &
    sleep 5; kill -TERM $!; wait $!' sh "$XBOARD" "$fresh" >"$WORK/first-start.out" 2>&1
  set -e
  [ -f "$fresh" ] || fail "xboard saved no settings at its first start ($WORK/first-start.out)"
  grep -qxF "$installed" "$fresh" || problem "xboard did not add $installed to its engine list"

  DEBUG_FILE="$WORK/system.debug"
  PGN="$WORK/system.pgn"
  XBOARD_OUT="$WORK/system.out"
  play_installed "$fresh"
  check_game "system install" "$installed"

  "$INSTALL" --uninstall --system --prefix "$SYSTEM_PREFIX" >/dev/null
  system_installed=no
  [ ! -e "$ENG_FILE" ] || problem "--uninstall left $ENG_FILE"
fi

finish
