#!/usr/bin/env python3
"""Perft speed of `plugboard perft --variant` beside Fairy-Stockfish's `go perft`
on the same positions and depths, one after the other on the same machine, for
the issue's proof (the tests do not run it). Each count must agree.

usage: scripts/perft_vs_fsf.py [PLUGBOARD] [VARIANT ...]
"""
import re
import subprocess
import sys
import time

FSF = "/usr/games/fairy-stockfish"
COURIER_XB = "rnebmkfwbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBMKFWBENR w - - 0 1"
# variant, depth, FEN (None: the start position both engines know)
POSITIONS = [
    ("nocastle", 5, None),
    ("losers", 5, None),
    ("knightmate", 5, None),
    ("shatranj", 6, None),
    ("courier", 5, COURIER_XB),
    ("makruk", 5, None),
    ("asean", 5, None),
    ("capablanca", 5, None),
    ("gothic", 5, None),
    ("janus", 5, None),
    ("grand", 4, None),
    ("shogi", 4, None),
    ("shogi", 3, "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L[Sbgnppp] b - 0 62"),
    ("minishogi", 5, None),
    ("torishogi", 4, None),
]


def fsf_perft(variant, depth, fen):
    engine = subprocess.Popen([FSF], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    send("uci")
    send(f"setoption name UCI_Variant value {variant}")
    send("isready")
    for line in engine.stdout:
        if line.strip() == "readyok":
            break
    send(f"position fen {fen}" if fen else "position startpos")
    start = time.monotonic()
    send(f"go perft {depth}")
    for line in engine.stdout:
        if line.startswith("Nodes searched"):
            nodes = int(line.split(":")[1])
            took = time.monotonic() - start
            break
    send("quit")
    engine.wait()
    return nodes, took


def plugboard_perft(binary, variant, depth, fen):
    command = [binary, "perft", "--variant", variant, str(depth)] + ([fen] if fen else [])
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    match = re.search(r"perft \d+: (\d+) nodes in ([0-9.]+) s", out)
    return int(match.group(1)), float(match.group(2))


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/plugboard"
    wanted = set(sys.argv[2:])
    print("| variant | depth | nodes | Plugboard nodes/s | Fairy-Stockfish nodes/s | ratio |")
    print("|---|---|---|---|---|---|")
    for variant, depth, fen in POSITIONS:
        if wanted and variant not in wanted:
            continue
        ours, our_time = plugboard_perft(binary, variant, depth, fen)
        theirs, their_time = fsf_perft(variant, depth, fen)
        agree = "" if ours == theirs else f" (Fairy-Stockfish counts {theirs})"
        print(
            f"| {variant} | {depth} | {ours}{agree} | {ours / our_time:,.0f} | {theirs / their_time:,.0f} "
            f"| {(ours / our_time) / (theirs / their_time):.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
