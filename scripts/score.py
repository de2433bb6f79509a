#!/usr/bin/env python3
"""Scores a PGN of games for one engine: xboard-refereed xiangqi games
(scripts/xiangqi-match.sh) or chess games of ../shared/tools/match.py
(scripts/ladder.sh).

    scripts/score.py PGN [NAME]      (NAME: default plugboard)

Prints NAME's wins, draws and losses (NAME found in the [White]/[Black] tags:
an exact match, else a case-insensitive part of the name), the score, an Elo
difference with its 95 % margin (the formula of ../shared/tools/match.py), the
games NAME lost on time, by an illegal move, by a false claim or by a crash, as
xboard's result comments tell them, and how every game ended (checkmate,
stalemate, perpetual check or chase, repetition, the move rule, resignation,
adjudication, ...), one line a game with --games. Games still unfinished (`*`)
are listed and not scored. Python 3 standard library only.
"""
import argparse
import math
import re
import sys
from collections import Counter

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")

# How a game ended, from xboard's result comment (backend.c of xboard 4.9.1 writes
# these; an engine's own claim keeps the engine's words, e.g. `{Red mates}`). The
# first pattern that matches decides; the faults come first, so that
# "False draw claim: 'repetition'" is a false claim, not a repetition.
ENDINGS = [
    ("false claim", r"\bfalse\b.*\bclaim\b"),
    ("time", r"on time|ran out of time|flag.*fell|time forfeit|lost on time"),
    ("illegal move", r"illegal|invalid move"),
    ("crash", r"exited unexpectedly|program exits|engine aborts|crash|disconnect|stall"),
    ("perpetual check", r"perpetual check"),
    ("perpetual chase", r"perpetual chas"),
    ("checkmate", r"checkmate|\bmates\b|\bmated\b"),
    ("stalemate", r"stalemate"),
    ("repetition", r"repetition"),
    ("move rule", r"\d+-move rule|move rule"),
    ("insufficient material", r"insufficient|trivial draw|bare king"),
    ("adjudication: long game", r"long game"),
    ("resignation", r"resign"),
    ("draw agreed", r"agreed"),
    ("other adjudication", r"adjudicat"),
]
FAULTS = ("time", "illegal move", "false claim", "crash")


def ending(reason):
    for label, pattern in ENDINGS:
        if re.search(pattern, reason, re.IGNORECASE):
            return label
    return f"other: {reason}" if reason else "no reason given"


def read_games(path):
    """Yields (tags, result-comment) for every game of the PGN file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    tags, movetext = {}, []

    def flush():
        if tags:
            body = " ".join(movetext)
            result = tags.get("Result", "*")
            # The comment just before the closing result token is xboard's reason.
            m = re.search(r"\{([^{}]*)\}\s*(?:1-0|0-1|1/2-1/2|\*)\s*$", body)
            reason = m.group(1).strip() if m else ""
            if not reason:
                # match.py gives the reason as the game's first comment.
                first = re.match(r"\s*\{([^{}]*)\}", body)
                reason = first.group(1).strip() if first else ""
            # Not a reason but the last move's score, depth and time (-pgnExtendedInfo).
            if re.fullmatch(r"[+-]?(\d+(\.\d+)?|#-?\d+)/\d+(\s+[\d.:]+)?", reason):
                reason = ""
            return dict(tags), reason, result
        return None

    for line in text.splitlines():
        line = line.strip()
        m = re.match(r'^\[(\w+)\s+"(.*)"\]$', line)
        if m:
            if m.group(1) == "Event" and tags:
                game = flush()
                if game:
                    yield game
                tags, movetext = {}, []
            tags[m.group(1)] = m.group(2)
        elif line:
            movetext.append(line)
    game = flush()
    if game:
        yield game


# ---- statistics: the same formula as ../shared/tools/match.py (elo_estimate),
# copied because match.py needs python-chess.
def elo_from_score(s):
    if s <= 0:
        return -math.inf
    if s >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0)


def elo_estimate(w, d, l):
    """Returns (elo, margin95, lo, hi) using the normal approximation on per-game scores."""
    n = w + d + l
    if n == 0:
        return 0.0, math.inf, -math.inf, math.inf
    s = (w + 0.5 * d) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * (0 - s) ** 2) / n
    se = math.sqrt(var / n)
    lo, hi = s - 1.959964 * se, s + 1.959964 * se
    elo_lo, elo_hi = elo_from_score(lo), elo_from_score(hi)
    margin = (elo_hi - elo_lo) / 2 if math.isfinite(elo_lo) and math.isfinite(elo_hi) else math.inf
    return elo_from_score(s), margin, elo_lo, elo_hi


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn")
    ap.add_argument("name", nargs="?", default="plugboard", help="the engine scored (default plugboard)")
    ap.add_argument("--games", action="store_true", help="one line for every game")
    args = ap.parse_args()

    games = list(read_games(args.pgn))
    names = Counter()
    for tags, _, _ in games:
        names[tags.get("White", "?")] += 1
        names[tags.get("Black", "?")] += 1
    if args.name in names:
        is_us = lambda player: player == args.name  # noqa: E731
    else:
        is_us = lambda player: args.name.lower() in player.lower()  # noqa: E731

    w = d = l = 0
    red = black = 0
    unfinished = []
    opponents = Counter()
    lost_by = Counter()
    opponent_lost_by = Counter()
    endings = Counter()
    endings_won = Counter()
    endings_lost = Counter()
    lines = []
    for number, (tags, reason, result) in enumerate(games, 1):
        white, blk = tags.get("White", "?"), tags.get("Black", "?")
        if is_us(white) == is_us(blk):
            lines.append(f"{number:3d}. {white} - {blk} {result}: {args.name} plays {'both' if is_us(white) else 'neither'} side, not scored")
            continue
        us_red = is_us(white)
        opponents[blk if us_red else white] += 1
        red += us_red
        black += not us_red
        how = ending(reason)
        lines.append(f"{number:3d}. {white} - {blk} {result} {{{reason}}} ({how})")
        if result not in ("1-0", "0-1", "1/2-1/2"):
            unfinished.append(number)
            continue
        endings[how] += 1
        if result == "1/2-1/2":
            d += 1
        elif (result == "1-0") == us_red:
            w += 1
            endings_won[how] += 1
            if how in FAULTS:
                opponent_lost_by[how] += 1
        else:
            l += 1
            endings_lost[how] += 1
            if how in FAULTS:
                lost_by[how] += 1

    n = w + d + l
    if not n and not unfinished:
        print(f"{args.pgn}: no games of {args.name} (players: {', '.join(sorted(names)) or 'none'})")
        return 1
    opp = ", ".join(sorted(opponents)) or "?"
    print(f"{args.pgn}: {len(games)} games; {args.name} played the first move (White, or Red) in {red}, the second in {black}")
    if args.games:
        print("\n".join(lines))
    elo, margin, lo, hi = elo_estimate(w, d, l)
    print(f"Result for {args.name} vs {opp}: W={w} D={d} L={l} (n={n}, score {((w + 0.5 * d) / n if n else 0):.3f})")
    print(f"Elo difference: {elo:+.1f} +/- {margin:.1f} (95%: [{lo:+.1f}, {hi:+.1f}])")
    print(f"{args.name} lost on time: {lost_by['time']}, by an illegal move: {lost_by['illegal move']}, "
          f"by a false claim: {lost_by['false claim']}, by a crash: {lost_by['crash']}")
    print(f"{opp} lost on time: {opponent_lost_by['time']}, by an illegal move: {opponent_lost_by['illegal move']}, "
          f"by a false claim: {opponent_lost_by['false claim']}, by a crash: {opponent_lost_by['crash']}")
    print("How the games ended:")
    for how, count in sorted(endings.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {how:26s} {count:3d}  ({args.name} won {endings_won[how]}, lost {endings_lost[how]})")
    if unfinished:
        print(f"unfinished games (not scored): {', '.join(map(str, unfinished))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
