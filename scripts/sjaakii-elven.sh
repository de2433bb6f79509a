#!/usr/bin/env bash
# Writes, to stdout, Sjaak II's elven chess made over to xboard's rules, from
# the definition in Sjaak's own variants file, for scripts/variant-match.sh
# (SJAAKII_VARIANTS): black gets no castling (xboard 4.9.1 gives it none), and
# knight, bishop and rook are crowned (+N moving as the lion, +B, +R) in the
# last three ranks. Sjaak still promotes pawns to no lion, and may crown a
# piece already in the zone (which xboard accepts and Plugboard does not). Its
# lions keep their flags `endangered` (no lion takes a protected lion, even
# beside it) and `no_retaliate`: stricter than xboard's rules, so that Sjaak
# never trades lions where xboard forbids it, but it calls some of
# Plugboard's legal lion trades illegal (xboard: a false claim). Without the
# flags Sjaak takes protected lions from afar and forfeits at once.
#
#   scripts/sjaakii-elven.sh > elven-sjaak.txt
set -euo pipefail
SOURCE=${SJAAKII_FILE:-/usr/share/games/sjaakii/variants.txt}
[ -f "$SOURCE" ] || { echo "no $SOURCE (scripts/install-deps.sh sjaakii)" >&2; exit 1; }
zone() { local out="" r f; for r in "$@"; do for f in a b c d e f g h i j; do out+="${out:+,}$f$r"; done; done; echo "$out"; }
awk -v white="$(zone 8 9 10)" -v black="$(zone 3 2 1)" '
  /^Variant: Elven/ { inside = 1 }
  inside && /^Variant:/ && !/^Variant: Elven/ { exit }
  !inside { next }
  /^Castle: black/ { next }
  /^FEN:/ { sub(/ w KQkq /, " w KQ ") }
  /^Piece: Warlock/ {
    print "Piece: Crowned knight"
    print "Move: leap ((0,1)|(1,1))+((0,1)|(1,1))"
    print "Flags: no_retaliate,endangered"
    print "Symbol: \"+N\", \"+N,+n\""
    print "Value: 1500"
    print ""
  }
  { print }
  /^Zone: rank3/ { print "Zone: crownw = " white; print "Zone: crownb = " black }
  /^Symbol: "[NBR]", / { print "Promotion: crownw, crownb, \"+\"" }
' "$SOURCE"
