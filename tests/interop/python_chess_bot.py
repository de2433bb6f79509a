#!/usr/bin/env python3
"""Plugboard as lichess-bot drives it: through python-chess's XBoard client, with
options on the command line as lichess-bot's `engine_options` pass them
(`--KEY=VALUE`), options with spaces set through `configure()`, pondering on, and
a game that repeats. Each check is something a bot operator depends on:

- start-up draws no warning from python-chess (it rejected `sigterm=0`);
- `--option=NAME=VALUE` and the one-word `Configure` option reach options whose
  names have spaces, which python-chess cannot name itself;
- with pondering on, the thinking python-chess reports for a move is a line of
  that move's search, not the ponder search's that follows it (lichess-bot's draw and resign
  decisions read it);
- `go` in a position already drawn by repetition still gets a move.

Usage: python_chess_bot.py PATH/TO/plugboard
"""

import logging
import sys
import tempfile

import chess
import chess.engine


class Lines(logging.Handler):
    """Keeps python-chess's log: what it sent, what it read, what it warned."""

    def __init__(self):
        super().__init__(level=logging.DEBUG)
        self.records = []

    def emit(self, record):
        self.records.append((record.levelno, record.getMessage()))

    def received(self):
        return [m.split(">> ", 1)[1] for _, m in self.records if ">> " in m]

    def warnings(self):
        return [m for level, m in self.records if level >= logging.WARNING]


def start(engine_path, args, log):
    logger = logging.getLogger("chess.engine")
    logger.setLevel(logging.DEBUG)
    logger.addHandler(log)
    home = tempfile.mkdtemp()
    env = {"HOME": home, "XDG_DATA_HOME": home + "/data", "PATH": "/usr/bin:/bin"}
    return chess.engine.SimpleEngine.popen_xboard([engine_path] + args, env=env)


def check(condition, message):
    if not condition:
        print("FAIL:", message)
        sys.exit(1)


def main():
    engine_path = sys.argv[1]
    log = Lines()
    # lichess-bot turns `engine_options: {option: "...", eval: pesto}` into these.
    engine = start(engine_path, ["--option=Configure=Move overhead=250; Contempt=7", "--eval=pesto"], log)
    try:
        check(not log.warnings(), f"python-chess warned at start-up: {log.warnings()}")
        check("Configure" in engine.options, f"no Configure option: {sorted(engine.options)}")
        move_overhead = [m for _, m in log.records if "Move overhead -spin 250 " in m]
        check(move_overhead, "--option did not set Move overhead")

        engine.configure({"Configure": "Move overhead=300; Offer draws=0"})
        engine.ping()
        errors = [line for line in log.received() if line.startswith(("Error", "tellusererror"))]
        check(not errors, f"configure() was refused: {errors}")
        engine.configure({"Configure": "No such option=1"})
        engine.ping()
        errors = [line for line in log.received() if line.startswith("Error (unknown option)")]
        check(errors, "a wrong name inside Configure was not answered")

        # Pondering: each move's info is about that move.
        board = chess.Board()
        checked = 0
        for _ in range(8):
            result = engine.play(board, chess.engine.Limit(time=0.3), ponder=True, info=chess.engine.INFO_ALL)
            # python-chess reads a line's moves from the position the move was
            # played in: the ponder search's line, two plies on, reads as no moves.
            pv = result.info.get("pv", [])
            check(pv and result.info.get("depth", 0) > 0, f"move {result.move} reported with the info {result.info}")
            checked += 1
            board.push(result.move)
            # The replies are the first legal move, which a search can mate in a
            # few moves: a finished game starts over.
            if board.is_game_over():
                board = chess.Board()
                continue
            board.push(next(iter(board.legal_moves)))
        print(f"ok: {checked} pondered moves each reported with their own line")

        # A repeated position: claimed, and moved all the same.
        board = chess.Board()
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"]:
            board.push_uci(uci)
        check(board.can_claim_threefold_repetition(), "the test position is no repetition")
        result = engine.play(board, chess.engine.Limit(time=0.2))
        check(result.move in board.legal_moves, f"no legal move in a repeated position: {result}")
        print(f"ok: a repeated position still got a move ({result.move})")
    finally:
        engine.quit()
    print("ok: python-chess as lichess-bot drives it")


if __name__ == "__main__":
    main()
