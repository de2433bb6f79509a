#!/usr/bin/env bash
# Installs what the tests need and a fresh machine lacks: xboard under Xvfb,
# the fairymax opponent, and python-chess. Idempotent: does nothing when all is present.
# Engines named as arguments (Debian packages that install /usr/games/NAME) come too.
set -euo pipefail

need_apt=()
for engine in "$@"; do
  [ -x "/usr/games/$engine" ] || command -v "$engine" >/dev/null 2>&1 || need_apt+=("$engine")
done
command -v xboard >/dev/null 2>&1 || need_apt+=(xboard)
command -v xvfb-run >/dev/null 2>&1 || need_apt+=(xvfb xauth)
[ -x /usr/games/fairymax ] || command -v fairymax >/dev/null 2>&1 || need_apt+=(fairymax)
[ -d /usr/lib/python3/dist-packages/pychess ] || need_apt+=(pychess)

if [ ${#need_apt[@]} -gt 0 ]; then
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
fi

python3 -c 'import chess.engine' 2>/dev/null || python3 -m pip install --quiet 'chess>=1.10'
