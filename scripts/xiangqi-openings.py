#!/usr/bin/env python3
"""Writes scripts/xiangqi-openings.fen: balanced xiangqi opening positions for
scripts/xiangqi-match.sh, each the position after a few plies of a well-known
opening, in xboard's lettering (R H E A K C P; `w`/`b`; no castling or e.p. field).

    scripts/xiangqi-openings.py [--engine /usr/games/fairy-stockfish] [--depth 14] > scripts/xiangqi-openings.fen

The moves below are in CECP coordinates (files a-i from Red's left, ranks 0-9 from
Red's side, as xboard and Plugboard write them). Fairy-Stockfish (UCI, UCI_Variant
xiangqi) checks every move against its legal moves (`go perft 1`; its UCI ranks are
1-10), gives the FEN (`d`; its letters n and b become xboard's h and e) and scores
the position (`go depth N`, from Red's side): the file records the score so that an
unbalanced opening shows. Python 3 standard library only.
"""
import argparse
import re
import subprocess
import sys

# (name, WXF notation, moves in CECP coordinates)
OPENINGS = [
    ("Central cannon vs screen horses (zhongpao dui pingfengma)",
     "1. C2=5 H8+7 2. H2+3 H2+3", "h2e2 h9g7 h0g2 b9c7"),
    ("Central cannon, straight rook vs screen horses",
     "1. C2=5 H8+7 2. H2+3 R9=8 3. R1=2 H2+3", "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7"),
    ("Central cannon, third pawn vs screen horses",
     "1. C2=5 H8+7 2. H2+3 R9=8 3. P7+1 P7+1", "h2e2 h9g7 h0g2 i9h9 c3c4 g6g5"),
    ("Five-seven cannons vs screen horses (wuqipao)",
     "1. C2=5 H8+7 2. H2+3 H2+3 3. C8=7 R1=2", "h2e2 h9g7 h0g2 b9c7 b2c2 a9b9"),
    ("Central cannon vs single-lifted horse (dantima)",
     "1. C2=5 H8+7 2. H2+3 H2+1", "h2e2 h9g7 h0g2 b9a7"),
    ("Central cannon vs three-step tiger (sanbuhu)",
     "1. C2=5 H8+7 2. H2+3 C8=9", "h2e2 h9g7 h0g2 h7i7"),
    ("Central cannon vs palcorner horses (fangongma)",
     "1. C2=5 H2+3 2. H2+3 C8=6 3. R1=2 H8+7", "h2e2 b9c7 h0g2 h7f7 i0h0 h9g7"),
    ("Same-direction cannons (shunpao)",
     "1. C2=5 C8=5 2. H2+3 H8+7", "h2e2 h7e7 h0g2 h9g7"),
    ("Same-direction cannons, straight rook vs horizontal rook",
     "1. C2=5 C8=5 2. H2+3 H8+7 3. R1=2 R9+1", "h2e2 h7e7 h0g2 h9g7 i0h0 i9i8"),
    ("Opposite-direction cannons (liepao)",
     "1. C2=5 C2=5 2. H2+3 H2+3", "h2e2 b7e7 h0g2 b9c7"),
    ("Elephant opening vs left central cannon (feixiang dui zuozhongpao)",
     "1. E3+5 C2=5 2. H8+7 H2+3", "g0e2 b7e7 b0c2 b9c7"),
    ("Elephant opening vs pawn",
     "1. E3+5 P7+1 2. P7+1 H8+7", "g0e2 g6g5 c3c4 h9g7"),
    ("Elephant opening vs cross-palace cannon",
     "1. E3+5 C8=4 2. H2+3 H8+7", "g0e2 h7d7 h0g2 h9g7"),
    ("Horse opening vs pawn (qima dui tingzu)",
     "1. H2+3 P7+1 2. P7+1 H8+7", "h0g2 g6g5 c3c4 h9g7"),
    ("Horse opening vs horse",
     "1. H2+3 H8+7 2. P3+1 P3+1", "h0g2 h9g7 g3g4 c6c5"),
    ("Pawn opening vs pawn-bottom cannon (xianren zhilu dui zudipao)",
     "1. P7+1 C2=3 2. C2=5 E3+5", "c3c4 b7c7 h2e2 c9e7"),
    ("Pawn opening vs elephant",
     "1. P7+1 E3+5 2. C2=5 H8+7", "c3c4 c9e7 h2e2 h9g7"),
    ("Pawn opening vs counter pawn (duibing)",
     "1. P7+1 P7+1 2. H8+7 H8+7", "c3c4 g6g5 b0c2 h9g7"),
    ("Cross-palace cannon vs central cannon (guogongpao)",
     "1. C2=6 C8=5 2. H2+3 H8+7", "h2d2 h7e7 h0g2 h9g7"),
    ("Palace-corner cannon (shijiaopao)",
     "1. C2=4 H8+7 2. H2+3 R9=8", "h2f2 h9g7 h0g2 i9h9"),
    ("Left central cannon vs screen horses",
     "1. C8=5 H2+3 2. H8+7 H8+7", "b2e2 b9c7 b0c2 h9g7"),
    ("Edge horse opening (bianma)",
     "1. H8+9 P7+1 2. P7+1 H8+7", "b0a2 g6g5 c3c4 h9g7"),
]


def to_uci(move):
    """CECP h2e2 -> Fairy-Stockfish UCI h3e3 (ranks 0-9 -> 1-10)."""
    m = re.fullmatch(r"([a-i])(\d)([a-i])(\d)", move)
    if not m:
        raise ValueError(f"not a CECP xiangqi move: {move}")
    return f"{m[1]}{int(m[2]) + 1}{m[3]}{int(m[4]) + 1}"


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.until(lambda line: line == "uciok")
        self.send("setoption name UCI_Variant value xiangqi")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 64")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, done):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("the engine exited")
            line = line.rstrip("\n")
            lines.append(line)
            if done(line):
                return lines

    def position(self, uci_moves):
        self.send("position startpos" + (" moves " + " ".join(uci_moves) if uci_moves else ""))

    def legal_moves(self):
        self.send("go perft 1")
        lines = self.until(lambda line: line.startswith("Nodes searched"))
        return {line.split(":")[0] for line in lines if re.fullmatch(r"[a-i]\d+[a-i]\d+: \d+", line)}

    def fen(self):
        self.send("d")
        lines = self.until(lambda line: line.startswith("Fen: "))
        return lines[-1][len("Fen: "):]

    def score(self, depth):
        self.send("ucinewgame")
        self.send(f"go depth {depth}")
        lines = self.until(lambda line: line.startswith("bestmove"))
        cp = None
        for line in lines:
            m = re.search(r" score (cp|mate) (-?\d+)", line)
            if m:
                cp = int(m[2]) if m[1] == "cp" else (100000 if int(m[2]) > 0 else -100000)
        return cp

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def xboard_fen(fs_fen):
    """Fairy-Stockfish's `rnbakabnr/... w - - 0 1` -> xboard's `rheakaehr/... w 0 1`."""
    board, side, _castling, _ep, half, full = fs_fen.split()
    board = board.translate(str.maketrans("nbNB", "heHE"))
    return f"{board} {side} {half} {full}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    ap.add_argument("--depth", type=int, default=16, help="search depth of the balance check")
    ap.add_argument("--max-score", type=int, default=100,
                    help="refuse an opening scored beyond this many centipawns from the start position's score")
    args = ap.parse_args()

    eng = Engine(args.engine)
    eng.position([])
    start_score = eng.score(args.depth)
    out = []
    for name, wxf, moves in OPENINGS:
        cecp = moves.split()
        uci = []
        for move in cecp:
            eng.position(uci)
            if to_uci(move) not in eng.legal_moves():
                sys.exit(f"{name}: {move} is not legal after {' '.join(uci) or 'the start'}")
            uci.append(to_uci(move))
        eng.position(uci)
        fen = xboard_fen(eng.fen())
        cp = eng.score(args.depth)
        red_cp = cp if len(cecp) % 2 == 0 else -cp
        if abs(red_cp - start_score) > args.max_score:
            sys.exit(f"{name}: scored {red_cp:+d} for Red (start {start_score:+d}): not balanced")
        out.append((name, wxf, moves, red_cp, fen))
    eng.quit()

    print("# Xiangqi openings for scripts/xiangqi-match.sh: one FEN a line, in xboard's")
    print("# lettering (R H E A K C P, upper case Red, `w` = Red to move). Written by")
    print("# scripts/xiangqi-openings.py: the moves were checked legal and the FENs")
    print("# written by Fairy-Stockfish 11.1 (UCI_Variant xiangqi, its n/b letters made")
    print("# h/e), the score is Fairy-Stockfish's at depth %d from Red's side (the start" % args.depth)
    print("# position: %+d). xboard takes the first line to decide whether a position file" % start_score)
    print("# holds FENs, so give it the file without these # lines:")
    print("#     grep -v '^#' scripts/xiangqi-openings.fen > openings.fen")
    print("#     xboard -variant xiangqi -lpf openings.fen -lpi N ...")
    print("# N counts the FEN lines from 1, in this order:")
    for i, (name, wxf, moves, cp, _fen) in enumerate(out, 1):
        print(f"# {i:2d}. {name}: {wxf} ({moves}) {cp:+d}")
    for *_, fen in out:
        print(fen)


if __name__ == "__main__":
    main()
