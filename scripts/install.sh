#!/usr/bin/env bash
# Installs Plugboard where the engine finds its bundled plugins and where xboard
# lists it among its engines.
#
#   scripts/install.sh [--user | --system] [--prefix DIR] [--no-build]
#   scripts/install.sh --uninstall [--user | --system] [--prefix DIR]
#
# --user (the default for anyone but root): PREFIX is ~/.local.
# --system (the default for root): PREFIX is /usr/local.
#
# What goes where:
#   PREFIX/lib/plugboard/plugboard          the engine
#   PREFIX/lib/plugboard/libplugboard_*.so  the bundled plugins, beside the engine
#                                           (the engine looks there: it follows the
#                                           link below to its real folder)
#   PREFIX/bin/plugboard                    a link to the engine, the command to run
#
# How xboard learns of it (xboard 4.9 reads its engine list, -firstChessProgramNames,
# from its settings file ~/.xboardrc, and adds to it every engine registered in
# /usr/share/games/plugins/xboard or /usr/local/share/games/plugins/xboard by a
# `.eng` file newer than that settings file, as Debian's own engines register):
#   --system  /usr/local/share/games/plugins/xboard/plugboard.eng, for every user.
#   --user    the line `PREFIX/bin/plugboard` in the user's ~/.xboardrc, as
#             xboard itself would save it (a user cannot write the
#             folders xboard scans). Without a ~/.xboardrc, one is made holding the
#             engine list xboard would have had (/etc/xboard/xboard.conf's list and
#             the engines registered by `.eng` files) with Plugboard added.
# Either way xboard's engine list (Engine → Load New Engine, the match dialogs)
# names it `plugboard`, and `xboard -fe plugboard` starts it. The variants it plays
# are written in the `.eng` file; xboard's settings file has no place for them.
#
# The build is `cargo build --release`, the same as the README's run command, so
# installing after `cargo run --release` or `./scripts/test` rebuilds nothing.
set -euo pipefail

REPO=$(cd "$(dirname -- "$0")/.." && pwd)
mode=""
prefix=""
build=yes
uninstall=no
XBOARD_PLUGIN_DIR=/usr/local/share/games/plugins/xboard
XBOARD_SYSTEM_CONF=${XBOARD_SYSTEM_CONF:-/etc/xboard/xboard.conf}

usage() {
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

while [ $# -gt 0 ]; do
  case "$1" in
    --user) mode=user ;;
    --system) mode=system ;;
    --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift ;;
    --prefix=*) prefix=${1#--prefix=} ;;
    --no-build) build=no ;;
    --uninstall) uninstall=yes ;;
    -h|--help) usage ;;
    *) echo "install.sh: unknown argument: $1" >&2; usage ;;
  esac
  shift
done

if [ -z "$mode" ]; then
  if [ "$(id -u)" -eq 0 ]; then mode=system; else mode=user; fi
fi
if [ -z "$prefix" ]; then
  if [ "$mode" = system ]; then prefix=/usr/local; else prefix="$HOME/.local"; fi
fi
case "$prefix" in
  /*) ;;
  *) prefix="$PWD/$prefix" ;;
esac

LIB_DIR="$prefix/lib/plugboard"
BIN_DIR="$prefix/bin"
COMMAND="$BIN_DIR/plugboard"
# xboard reads `~/.xboardrc` with `~` taken from the password database, not from
# $HOME; XBOARDRC names another file (the tests use one of their own).
home_dir=$(getent passwd "$(id -u)" 2>/dev/null | cut -d: -f6 || true)
XBOARDRC=${XBOARDRC:-${home_dir:-$HOME}/.xboardrc}
# The engine's line in xboard's list: the full path, so that no one's PATH matters;
# xboard names the engine by the path's last part (`plugboard`), quoted if it has
# spaces, as xboard's own auto-install writes it.
case "$COMMAND" in
  *' '*) ENGINE_LINE="\"$COMMAND\"" ;;
  *) ENGINE_LINE=$COMMAND ;;
esac


# The engine's own list of variants, from its `feature variants="..."`, with
# orthodox chess named `chess` as Debian's .eng files name it.
engine_variants() {
  local features
  features=$(printf 'xboard\nprotover 2\nquit\n' | timeout 20 "$1" 2>/dev/null || true)
  printf '%s\n' "$features" | sed -n 's/.*variants="\([^"]*\)".*/\1/p' | head -1 |
    sed -E 's/(^|,)normal(,|$)/\1chess\2/'
}

# The lines of -firstChessProgramNames {…} in an xboard settings file.
engine_list() {
  awk '
    /^-firstChessProgramNames \{/ { inside = 1; sub(/^-firstChessProgramNames \{/, ""); if ($0 != "") print; next }
    inside && /^\}/ { inside = 0; next }
    inside { print }
  ' "$1"
}

# The engines xboard itself would add from `.eng` files when it has no settings
# file yet: the command line of each (its second line), `cd DIR;` turned into -fd.
registered_engines() {
  local dir file command
  for dir in /usr/local/share/games/plugins/xboard /usr/share/games/plugins/xboard; do
    [ -d "$dir" ] || continue
    for file in "$dir"/*.eng; do
      [ -f "$file" ] || continue
      [ "$(basename -- "$file")" = plugboard.eng ] && continue
      head -1 "$file" | grep -q '^plugin spec ' || continue
      command=$(sed -n 2p "$file")
      [ -n "$command" ] || continue
      if [[ "$command" =~ ^cd\ ([^;]*)\;\ ?(.*)$ ]]; then
        command="${BASH_REMATCH[2]} -fd ${BASH_REMATCH[1]}"
      fi
      case "$command" in
        *' '*) printf '"%s"\n' "$command" ;;
        *) printf '%s\n' "$command" ;;
      esac
    done
  done
}

# Rewrites ~/.xboardrc through a private temporary file in the same folder, so
# that xboard never reads half a file.
replace_xboardrc() {
  local staged
  staged=$(mktemp "$XBOARDRC.plugboard-XXXXXX")
  cat >"$staged"
  chmod 644 "$staged"
  mv -f -- "$staged" "$XBOARDRC"
}

register_for_user() {
  if [ -f "$XBOARDRC" ] && grep -q '^-firstChessProgramNames {' "$XBOARDRC"; then
    if engine_list "$XBOARDRC" | grep -qxF "$ENGINE_LINE"; then
      echo "xboard: $XBOARDRC already lists Plugboard"
      return
    fi
    awk -v line="$ENGINE_LINE" '
      /^-firstChessProgramNames \{/ { inside = 1 }
      inside && /^\}/ { print line; inside = 0 }
      { print }
    ' "$XBOARDRC" | replace_xboardrc
  elif [ -f "$XBOARDRC" ]; then
    { cat "$XBOARDRC"; printf '%s\n' "-firstChessProgramNames {$ENGINE_LINE" "}"; } | replace_xboardrc
  else
    {
      printf '%s' '-firstChessProgramNames {'
      { [ -f "$XBOARD_SYSTEM_CONF" ] && engine_list "$XBOARD_SYSTEM_CONF"; registered_engines; } |
        awk '!seen[$0]++'
      printf '%s\n' "$ENGINE_LINE" "}"
    } | replace_xboardrc
  fi
  echo "xboard: Plugboard added to the engine list in $XBOARDRC"
}

unregister_for_user() {
  [ -f "$XBOARDRC" ] || return 0
  engine_list "$XBOARDRC" | grep -qxF "$ENGINE_LINE" || return 0
  awk -v line="$ENGINE_LINE" '
    /^-firstChessProgramNames \{/ { inside = 1 }
    inside && /^\}/ { inside = 0 }
    inside && $0 == line { next }
    inside && $0 == "-firstChessProgramNames {" line { print "-firstChessProgramNames {"; next }
    { print }
  ' "$XBOARDRC" | replace_xboardrc
  echo "xboard: Plugboard removed from the engine list in $XBOARDRC"
}

if [ "$uninstall" = yes ]; then
  rm -f -- "$COMMAND"
  rm -rf -- "$LIB_DIR"
  if [ "$mode" = system ]; then
    rm -f -- "$XBOARD_PLUGIN_DIR/plugboard.eng"
  else
    unregister_for_user
  fi
  echo "Plugboard removed from $prefix"
  exit 0
fi

if [ "$build" = yes ]; then
  (cd "$REPO" && cargo build --release)
fi
ENGINE="$REPO/target/release/plugboard"
[ -x "$ENGINE" ] || { echo "install.sh: no engine at $ENGINE (build it first)" >&2; exit 1; }
shopt -s nullglob
plugins=("$REPO"/target/release/libplugboard_*.so "$REPO"/target/release/libplugboard_*.dylib)
shopt -u nullglob
[ ${#plugins[@]} -gt 0 ] || { echo "install.sh: no bundled plugins in $REPO/target/release" >&2; exit 1; }

# A fresh folder each time, so that a plugin dropped from the project does not
# linger beside the new engine.
mkdir -p -- "$prefix/lib" "$BIN_DIR"
rm -rf -- "$LIB_DIR"
mkdir -p -- "$LIB_DIR"
install -m 755 -- "$ENGINE" "$LIB_DIR/plugboard"
for plugin in "${plugins[@]}"; do
  install -m 755 -- "$plugin" "$LIB_DIR/"
done
ln -sfn -- ../lib/plugboard/plugboard "$COMMAND"
echo "engine:  $COMMAND -> $LIB_DIR/plugboard"
echo "plugins: ${plugins[*]##*/}"

variants=$(engine_variants "$COMMAND")
[ -n "$variants" ] || { echo "install.sh: the installed engine did not announce its variants" >&2; exit 1; }

if [ "$mode" = system ]; then
  mkdir -p -- "$XBOARD_PLUGIN_DIR"
  printf 'plugin spec 0.0\n%s\n%s\n' "$ENGINE_LINE" "$variants" >"$XBOARD_PLUGIN_DIR/plugboard.eng"
  chmod 644 "$XBOARD_PLUGIN_DIR/plugboard.eng"
  echo "xboard: registered in $XBOARD_PLUGIN_DIR/plugboard.eng (variants $variants)"
else
  register_for_user
fi
