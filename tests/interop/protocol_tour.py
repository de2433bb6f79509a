#!/usr/bin/env python3
"""Interop test: a tour of Plugboard's xboard protocol features through python-chess.

Usage (from the repository root):

    python3 tests/interop/protocol_tour.py target/release/plugboard

Five sections, each with fresh engine processes, so that one failure does not
hide the others:

1. analysis restricted to root moves: ``engine.analyse(..., root_moves=[...])``
   and ``engine.analysis(..., root_moves=[...])``; python-chess sends
   ``exclude all`` and one ``include MOVE`` per allowed move (in force mode,
   before ``analyze``) to engines that announce ``exclude=1``. The principal
   variation must start with an allowed move.
2. pondering: ``engine.play(board, Limit(time=0.2), ponder=True)`` over a game;
   python-chess sends ``hard`` and reads ``Hint:``. Every move and every hint
   must be legal; the opponent (this test) plays the hint (a hit) and a
   different move (a miss).
3. set-up positions and take-backs: ``setboard`` of a middlegame, an endgame,
   an en-passant and two promotion positions; the same ``game`` object is then
   replayed with the engine's move taken back (python-chess sends ``undo``) and
   with two plies taken back and a different reply (python-chess sends
   ``remove``). Every move and every thinking-output PV must be legal in the
   position the test means.
4. Fischer random: two positions where castling mates (the engine must answer
   ``move O-O`` / ``move O-O-O``) and two games of Plugboard against itself (two
   processes) from Chess960 start positions, one of them with castling sent to
   the engines as ``usermove O-O``.
5. raw protocol (a driver in this file, no python-chess) for what python-chess
   cannot send: ``undo``/``remove`` in force mode then ``go``, ``remove``
   restoring an en-passant right (seen through ``lift``/``highlight``), ``?``
   during ``st 30``, ``pause``/``resume``, ``draw`` (dead draw vs. winning),
   ``lift``, a real ponder hit and miss (``usermove`` while pondering),
   ``exclude``/``include`` sent inside analyze mode, and the ``stat01`` answer
   to ``.`` in analyze mode. Each runs on its own: a failure does not stop the
   next one.

Exit status 0 when every section passed, 1 when one failed (each failure is
printed as ``FAIL: ...`` with the protocol lines that show it), 2 on a usage
error. Logs are kept in a temporary folder whose path is printed.
"""

from __future__ import annotations

import argparse
import itertools
import logging
import os
import re
import sys
import tempfile
import threading
import time
import traceback
from typing import IO, Callable, Iterator, Optional, TypeVar

import chess
import chess.engine
import chess.pgn

from interop_common import (
    PipeEngine,
    TestFailure,
    WarningCollector,
    arm_wall_limit,
    capture_python_chess_logs,
    disarm_wall_limit,
    engine_path,
    log,
    summary_end,
)

# The whole run must stay below three minutes; this alarm is the last resort.
WALL_LIMIT_S = 170
ERROR_RE = re.compile(r"^\s*(Error|Illegal move)(\s*\([^()]*\))?\s*:")
T = TypeVar("T")


# ---------------------------------------------------------------------------
# Helpers shared by the sections
# ---------------------------------------------------------------------------


def parse_move(board: chess.Board, text: str) -> chess.Move:
    """A move as an xboard engine writes it (coordinates, or O-O/O-O-O in FRC), legal in `board`."""
    try:
        move = chess.Move.from_uci(text)
        if move in board.legal_moves:
            return move
    except ValueError:
        pass
    return board.parse_san(text)  # raises ValueError when not legal


def pv_of(line: str) -> Optional[list[str]]:
    """The PV of an xboard thinking line `ply score time nodes [...] PV`, or None if not one."""
    words = line.split()
    if len(words) < 4 or not all(re.fullmatch(r"-?\d+", w) for w in words[:4]):
        return None
    if "\t" in line:
        return line.split("\t", 1)[1].split()
    return words[4:]


def pv_problem(board: chess.Board, pv: list[str]) -> Optional[str]:
    """None when every move of the PV is legal in turn from `board`, else what went wrong."""
    b = board.copy(stack=False)
    for i, token in enumerate(pv):
        try:
            b.push(parse_move(b, token))
        except ValueError:
            return f"PV move {i + 1} {token!r} is not legal in {b.fen()}"
    return None


def first_move_of(line: str) -> Optional[str]:
    pv = pv_of(line)
    return pv[0] if pv else None


class LineTap(logging.Handler):
    """Keeps every line python-chess sends to ('>') or reads from ('<') each engine process."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.events_lock = threading.Lock()
        self.events: list[tuple[float, int, str, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        args = record.args
        if not isinstance(args, tuple) or len(args) != 2:
            return
        if record.msg == "%s: >> %s":  # python-chess logs what it reads with '>>'
            direction = "<"
        elif record.msg == "%s: << %s":  # ... and what it writes with '<<'
            direction = ">"
        else:
            return
        with self.events_lock:
            self.events.append((time.monotonic(), id(args[0]), direction, str(args[1])))

    def mark(self) -> int:
        with self.events_lock:
            return len(self.events)

    def since(self, mark: int, who: int) -> list[tuple[float, str, str]]:
        with self.events_lock:
            return [(t, d, line) for (t, w, d, line) in self.events[mark:] if w == who]


def show(events: list[tuple[float, str, str]]) -> str:
    return "\n".join(f"    {d} {line}" for (_, d, line) in events)


class Tour:
    """Global context: engine path, folder, the line tap and the warning collector."""

    def __init__(self, engine_path: str, workdir: str, tap: LineTap, warnings: WarningCollector) -> None:
        self.engine_path = engine_path
        self.workdir = workdir
        self.tap = tap
        self.warnings = warnings
        self.stderr = open(os.path.join(workdir, "plugboard.stderr"), "w", encoding="utf-8")

    def open_engine(self, label: str) -> "Session":
        try:
            engine = chess.engine.SimpleEngine.popen_xboard(self.engine_path, timeout=10.0, stderr=self.stderr,
                                                            cwd=self.workdir)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, OSError, TimeoutError) as err:
            raise TestFailure(f"[{label}] python-chess could not start/initialise the engine: {err!r}") from err
        return Session(self, engine, label)


class Session:
    """One engine process driven by python-chess, with every blocking call guarded:
    a call fails as soon as the engine prints `Error`/`Illegal move`, or after a time limit."""

    def __init__(self, tour: Tour, engine: chess.engine.SimpleEngine, label: str) -> None:
        self.tour = tour
        self.engine = engine
        self.label = label
        self.who = id(engine.protocol)
        self.start = tour.tap.mark()
        self.closed = False
        self.warnings_seen = len(tour.warnings.messages)

    def lines(self, mark: Optional[int] = None) -> list[tuple[float, str, str]]:
        return self.tour.tap.since(self.start if mark is None else mark, self.who)

    def mark(self) -> int:
        return self.tour.tap.mark()

    def sent(self, mark: Optional[int] = None) -> list[str]:
        return [line for (_, d, line) in self.lines(mark) if d == ">"]

    def received(self, mark: Optional[int] = None) -> list[str]:
        return [line for (_, d, line) in self.lines(mark) if d == "<"]

    def _errors(self) -> Optional[str]:
        events = self.lines()
        for i, (_, d, line) in enumerate(events):
            if d == "<" and ERROR_RE.match(line):
                context = events[max(0, i - 8): i + 4]
                return f"the engine answered {line!r}; the protocol around it:\n{show(context)}"
        return None

    def _new_warnings(self) -> list[str]:
        msgs = self.tour.warnings.messages[self.warnings_seen:]
        # python-chess sends `.` itself when it stops an analysis, then logs the `stat01:` answer as
        # unexpected output: that is python-chess's limitation, not the engine's.
        return [m for m in msgs if ("Hint" in m or "hint" in m or "ERROR" in m or "Unexpected" in m)
                and "Unexpected engine output: 'stat01:" not in m]

    def call(self, what: str, seconds: float, fn: Callable[[chess.engine.SimpleEngine], T]) -> T:
        if self.closed:
            raise TestFailure(f"[{self.label}] {what}: engine already closed")
        box: dict[str, object] = {}

        def run() -> None:
            try:
                box["value"] = fn(self.engine)
            except BaseException as err:  # noqa: BLE001 - reported below
                box["error"] = err

        worker = threading.Thread(target=run, daemon=True)
        t0 = time.monotonic()
        worker.start()
        while worker.is_alive():
            worker.join(0.05)
            problem = self._errors()
            if problem:
                self.close()
                worker.join(5)
                raise TestFailure(f"[{self.label}] {what}: {problem}")
            if time.monotonic() - t0 > seconds:
                self.close()
                worker.join(5)
                tail = self.lines()[-12:]
                raise TestFailure(f"[{self.label}] {what}: no result within {seconds:g} s; last protocol lines:\n"
                                  f"{show(tail)}")
        problem = self._errors()
        if problem:
            self.close()
            raise TestFailure(f"[{self.label}] {what}: {problem}")
        if "error" in box:
            err = box["error"]
            raise TestFailure(f"[{self.label}] {what}: python-chess raised {err!r}; last protocol lines:\n"
                              f"{show(self.lines()[-12:])}")
        return box["value"]  # type: ignore[return-value]

    def check_clean(self, what: str) -> None:
        """No error lines and no python-chess complaints (bad hint, unexpected output) so far."""
        problem = self._errors()
        if problem:
            raise TestFailure(f"[{self.label}] {what}: {problem}")
        complaints = self._new_warnings()
        if complaints:
            raise TestFailure(f"[{self.label}] {what}: python-chess complained: {complaints[:5]}")

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            self.engine.close()
        except Exception:  # noqa: BLE001 - best effort
            pass

    def quit(self) -> None:
        if self.closed:
            return
        worker = threading.Thread(target=self._quit, daemon=True)
        worker.start()
        worker.join(8)
        self.close()

    def _quit(self) -> None:
        try:
            self.engine.quit()
        except Exception:  # noqa: BLE001 - the engine may already be gone
            pass


def legal_or_fail(label: str, board: chess.Board, move: Optional[chess.Move], what: str) -> chess.Move:
    if move is None:
        raise TestFailure(f"[{label}] {what}: no move returned in {board.fen()}")
    if move not in board.legal_moves:
        raise TestFailure(f"[{label}] {what}: {move.uci()} is not legal in {board.fen()}")
    return move


def check_thinking(session: Session, mark: int, board: chess.Board, what: str) -> int:
    """Every thinking line received since `mark` must carry a PV legal from `board`; returns their number."""
    n = 0
    for line in session.received(mark):
        pv = pv_of(line)
        if pv is None:
            continue
        n += 1
        problem = pv_problem(board, pv)
        if problem:
            raise TestFailure(f"[{session.label}] {what}: thinking output out of sync with the position "
                              f"{board.fen()}: {line!r}: {problem}")
    return n


# ---------------------------------------------------------------------------
# Section 1: analysis restricted with root_moves (exclude/include)
# ---------------------------------------------------------------------------


def section_analysis(tour: Tour) -> list[str]:
    notes: list[str] = []
    s = tour.open_engine("analysis")
    try:
        if s.engine.protocol.features.get("exclude") != 1:  # type: ignore[attr-defined]
            raise TestFailure("[analysis] the engine does not announce feature exclude=1")
        cases = [
            # (label, FEN, allowed root moves, depth, API)
            ("start position, only a3/h3", chess.STARTING_FEN, ["a2a3", "h2h3"], 8, "analyse"),
            ("queen en prise, capture excluded", "rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
             ["b1c3", "d2d3", "f1c4"], 7, "analyse"),
            ("mate in one (Rd8#) excluded, only h3", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", ["h2h3"], 6,
             "analysis"),
            ("start position, only Nf3/Nc3", chess.STARTING_FEN, ["g1f3", "b1c3"], 7, "analysis"),
        ]
        for label, fen, allowed_uci, depth, api in cases:
            board = chess.Board(fen)
            allowed = [chess.Move.from_uci(u) for u in allowed_uci]
            for m in allowed:
                assert m in board.legal_moves, (fen, m)
            mark = s.mark()
            what = f"{api}({label}, depth {depth}, root_moves={allowed_uci})"
            if api == "analyse":
                info = s.call(what, 30, lambda e: e.analyse(board, chess.engine.Limit(depth=depth),
                                                            root_moves=allowed))
            else:
                def iterate(e: chess.engine.SimpleEngine) -> dict:
                    last: dict = {}
                    with e.analysis(board, root_moves=allowed) as analysis:
                        for item in analysis:
                            if item.get("pv"):
                                last = dict(item)
                            if item.get("depth", 0) >= depth and item.get("pv"):
                                break
                    # Leaving the block sends `.`, `exit`, `ping` without waiting: wait for the pong here,
                    # so that late lines of this analysis are not taken for the next one's.
                    e.ping()
                    return last
                info = s.call(what, 30, iterate)
            sent = s.sent(mark)
            if "exclude all" not in sent:
                raise TestFailure(f"[analysis] {what}: python-chess did not send 'exclude all' (sent {sent})")
            pv = info.get("pv")
            if not pv:
                raise TestFailure(f"[analysis] {what}: no PV parsed: {info}")
            thinking = [line for line in s.received(mark) if pv_of(line)]
            if pv[0] not in allowed:
                raise TestFailure(f"[analysis] {what}: the PV starts with {pv[0].uci()}, not one of {allowed_uci}; "
                                  f"last thinking line {thinking[-1] if thinking else None!r}")
            outside = [line for line in thinking if first_move_of(line) not in allowed_uci]
            if outside:
                raise TestFailure(f"[analysis] {what}: thinking lines with a root move outside {allowed_uci}: "
                                  f"{outside[:3]}")
            check_thinking(s, mark, board, what)
            notes.append(f"{label}: depth {info.get('depth')}, score {info.get('score')}, "
                         f"PV {board.variation_san(pv[:6])} (all {len(thinking)} thinking lines inside "
                         f"{'/'.join(allowed_uci)})")
        s.check_clean("analysis")
        sent_all = s.sent()
        notes.append(f"python-chess sent: {sum(1 for x in sent_all if x == 'exclude all')}x 'exclude all', "
                     f"{sum(1 for x in sent_all if x.startswith('include '))}x 'include MOVE', before 'analyze'")
    finally:
        s.quit()
    return notes


# ---------------------------------------------------------------------------
# Section 2: pondering through python-chess
# ---------------------------------------------------------------------------


def section_ponder(tour: Tour, engine_moves: int) -> list[str]:
    notes: list[str] = []
    s = tour.open_engine("ponder")
    board = chess.Board()
    game = object()
    hits = misses = hints = 0
    moves_san: list[str] = []
    try:
        for i in range(engine_moves):
            if board.is_game_over(claim_draw=True):
                break
            mark = s.mark()
            t0 = time.monotonic()
            what = f"play(ponder=True) move {i + 1}"
            result = s.call(what, 8, lambda e: e.play(board, chess.engine.Limit(time=0.2), ponder=True, game=game,
                                                      info=chess.engine.INFO_BASIC))
            took = time.monotonic() - t0
            move = legal_or_fail("ponder", board, result.move, what)
            if took > 2.5:
                raise TestFailure(f"[ponder] {what}: took {took:.2f} s for Limit(time=0.2)")
            sent = s.sent(mark)
            if "hard" not in sent:
                raise TestFailure(f"[ponder] {what}: python-chess did not send 'hard' (sent {sent})")
            moves_san.append(board.san(move))
            board.push(move)
            if board.is_game_over(claim_draw=True):
                break
            ponder = result.ponder
            if ponder is not None:
                hints += 1
                if ponder not in board.legal_moves:
                    raise TestFailure(f"[ponder] {what}: ponder move {ponder.uci()} is not legal in {board.fen()}")
            others = sorted((m for m in board.legal_moves if m != ponder), key=lambda m: m.uci())
            if ponder is not None and (i % 2 == 0 or not others):
                reply = ponder
                hits += 1
                kind = "hit"
            else:
                # Miss: a legal move other than the hint (the middle one in coordinate order).
                reply = others[len(others) // 2]
                misses += 1
                kind = "miss"
            moves_san.append(f"{board.san(reply)}({kind})")
            board.push(reply)
        # The last play is still pondering: python-chess stops it with `easy` + ping on the next command.
        s.call("ping after the last ponder", 8, lambda e: e.ping())
        s.check_clean("ponder")
        received = s.received()
        hint_lines = [line for line in received if line.startswith("Hint:")]
        move_lines = [line for line in received if line.startswith("move ")]
        engine_plays = sum(1 for x in s.sent() if x == "go")
        if len(move_lines) != engine_plays:
            raise TestFailure(f"[ponder] the engine sent {len(move_lines)} 'move' lines for {engine_plays} 'go' "
                              f"(a move out of a ponder search?): {move_lines}")
        if hits < 1 or misses < 1:
            raise TestFailure(f"[ponder] need at least one ponder hit and one miss, got {hits} hits and "
                              f"{misses} misses ({hints} hints; 'Hint:' lines: {hint_lines})")
        notes.append(f"{engine_plays} engine moves, {len(hint_lines)} 'Hint:' lines, {hits} ponder hits, "
                     f"{misses} misses, all legal: {' '.join(moves_san)}")
        sent = s.sent()
        notes.append(f"python-chess sent 'hard' {sent.count('hard')}x and stopped each ponder with 'easy' "
                     f"({sent.count('easy')}x) before 'force' + the opponent's move: the engine never sees a "
                     f"move arrive while pondering this way (section 5 does that)")
    finally:
        s.quit()
    return notes


# ---------------------------------------------------------------------------
# Section 3: set-up positions, undo and remove through python-chess
# ---------------------------------------------------------------------------

SETUP_POSITIONS = [
    ("middlegame", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8", None),
    ("endgame KP v K", "8/5k2/8/3K4/8/8/4P3/8 w - - 0 1", None),
    ("en passant is the only legal move", "3b4/8/2k5/1pP5/K7/8/8/1rb5 w - b6 0 1", "c5b6"),
    ("promotion (White)", "8/1P6/8/8/8/8/k7/4K3 w - - 0 1", None),
    ("capture-promotion (Black)", "4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1", None),
]


def section_setup(tour: Tour, think_s: float) -> list[str]:
    notes: list[str] = []
    s = tour.open_engine("setboard/undo")
    limit = chess.engine.Limit(time=think_s)
    try:
        for label, fen, expected in SETUP_POSITIONS:
            board = chess.Board(fen)
            game = object()
            steps: list[str] = []

            def play(step: str) -> chess.Move:
                what = f"{label}: {step}"
                mark = s.mark()
                result = s.call(what, 8, lambda e: e.play(board, limit, game=game, info=chess.engine.INFO_ALL))
                move = legal_or_fail("setboard/undo", board, result.move, what)
                n = check_thinking(s, mark, board, what)
                sent = [x for x in s.sent(mark) if x.split()[0] in ("new", "setboard", "undo", "remove", "usermove",
                                                                    "force", "go")]
                steps.append(f"{step} [{', '.join(sent)}] -> {board.san(move)} ({n} PVs ok)")
                return move

            # 1. `new`, `force`, `setboard FEN`, `go`.
            first = play("setboard")
            if expected and first.uci() != expected:
                raise TestFailure(f"[setboard/undo] {label}: the only legal move is {expected}, engine played "
                                  f"{first.uci()}")
            if board.piece_type_at(first.from_square) == chess.PAWN and chess.square_rank(first.to_square) in (0, 7):
                if first.promotion is None:
                    raise TestFailure(f"[setboard/undo] {label}: pawn move to the last rank without promotion")
            # 2. Take the engine's move back and ask again: python-chess sends `undo`.
            mark = s.mark()
            again = play("undo")
            if "undo" not in s.sent(mark):
                notes.append(f"{label}: python-chess did not send 'undo' (sent {s.sent(mark)})")
            board.push(again)
            if board.is_game_over():
                notes.append(f"{label}: " + "; ".join(steps) + " (game over)")
                continue
            # 3. An opponent reply and the engine's answer.
            replies = sorted(board.legal_moves, key=lambda m: m.uci())
            board.push(replies[0])
            if board.is_game_over():
                notes.append(f"{label}: " + "; ".join(steps) + " (game over)")
                continue
            answer = play("reply")
            board.push(answer)
            # 4. Take back two plies (the reply and the answer), play another reply: python-chess sends `remove`.
            board.pop()
            board.pop()
            if len(replies) > 1:
                board.push(replies[-1])
                if not board.is_game_over():
                    mark = s.mark()
                    play("remove + other reply")
                    if "remove" not in s.sent(mark):
                        notes.append(f"{label}: python-chess did not send 'remove' (sent {s.sent(mark)})")
            notes.append(f"{label}: " + "; ".join(steps))
        s.check_clean("setboard/undo")
        sent = s.sent()
        n_undo, n_remove = sent.count("undo"), sent.count("remove")
        if n_undo == 0 or n_remove == 0:
            raise TestFailure(f"[setboard/undo] python-chess sent 'undo' {n_undo}x and 'remove' {n_remove}x; "
                              f"expected both (check python-chess's XBoardProtocol._new)")
        n_setboard = sum(1 for x in sent if x.startswith("setboard"))
        notes.append(f"python-chess sent {n_setboard}x "
                     f"'setboard', {n_undo}x 'undo', {n_remove}x 'remove' (from XBoardProtocol._new when the same "
                     f"game continues from an earlier position); it never sends '?'")
    finally:
        s.quit()
    return notes


# ---------------------------------------------------------------------------
# Section 4: Fischer random
# ---------------------------------------------------------------------------

CASTLING_MATES = [
    ("White O-O mates (king stays on g1, rook h1-f1)", "4rkr1/4p1p1/8/8/8/8/8/6KR w H - 0 1", "O-O"),
    ("Black O-O-O mates (king stays on c8, rook a8-d8)", "r1k5/8/8/8/8/8/2P1P3/2RKR3 b a - 0 1", "O-O-O"),
]

# (Chess960 start position number, opening moves played by this test in SAN, sent to both engines).
FRC_GAMES = [
    (100, []),  # qbbnrnkr: the engines choose their own moves (castling reported, not required)
    (400, ["Ng3", "Ng6", "O-O", "O-O"]),  # bbrqnnkr: both sides castle (king stays on g, rook h to f)
]


def section_frc(tour: Tour, think_s: float, max_plies: int) -> list[str]:
    notes: list[str] = []
    a = tour.open_engine("frc A")
    b: Optional[Session] = None
    try:
        variants = str(a.engine.protocol.features.get("variants", ""))  # type: ignore[attr-defined]
        if "fischerandom" not in variants.split(","):
            raise TestFailure(f"[frc] the engine does not announce fischerandom (variants={variants!r})")
        for label, fen, expected in CASTLING_MATES:
            board = chess.Board(fen, chess960=True)
            mark = a.mark()
            result = a.call(f"frc {label}", 8, lambda e: e.play(board, chess.engine.Limit(time=0.5), game=object()))
            move = legal_or_fail("frc A", board, result.move, label)
            moves = [line for line in a.received(mark) if line.startswith("move ")]
            setboards = [x for x in a.sent(mark) if x.startswith(("setboard", "variant"))]
            if not board.is_castling(move):
                raise TestFailure(f"[frc] {label}: expected castling, the engine played {moves} in "
                                  f"{board.fen(shredder=True)} (sent {setboards})")
            if moves != [f"move {expected}"]:
                raise TestFailure(f"[frc] {label}: expected 'move {expected}', got {moves}")
            board.push(move)
            if not board.is_checkmate():
                raise TestFailure(f"[frc] {label}: castling {move.uci()} is not mate")
            notes.append(f"{label}: sent {setboards}, engine answered {moves[0]!r} (mate)")

        b = tour.open_engine("frc B")
        pgn_path = os.path.join(tour.workdir, "frc-games.pgn")
        with open(pgn_path, "w", encoding="utf-8") as pgn:
            for n, (pos, opening) in enumerate(FRC_GAMES, start=1):
                board = chess.Board.from_chess960_pos(pos)
                start_fen = board.fen(shredder=True)
                for san in opening:
                    board.push_san(san)
                game = object()
                engines = {chess.WHITE: a, chess.BLACK: b}
                castled: list[str] = []
                # Castling moves of the opening, as python-chess will send them.
                replay = chess.Board(start_fen, chess960=True)
                sent_castles: list[str] = []
                for m in board.move_stack:
                    if replay.is_castling(m):
                        sent_castles.append(replay.xboard(m))
                    replay.push(m)
                marks = {c: engines[c].mark() for c in engines}
                result_text = "*"
                reason = f"stopped after {max_plies} plies"
                while board.ply() < max_plies:
                    outcome = board.outcome(claim_draw=True)
                    if outcome is not None:
                        result_text = outcome.result()
                        reason = outcome.termination.name.lower()
                        break
                    side = engines[board.turn]
                    what = f"frc game {n} ply {board.ply() + 1}"
                    res = side.call(what, 8, lambda e: e.play(board, chess.engine.Limit(time=think_s), game=game))
                    if res.resigned:
                        result_text = "0-1" if board.turn == chess.WHITE else "1-0"
                        reason = f"{'White' if board.turn else 'Black'} resigned"
                        break
                    move = legal_or_fail(side.label, board, res.move, what)
                    if board.is_castling(move):
                        side_name = "White" if board.turn else "Black"
                        castled.append(f"{side_name} {board.san(move)} (ply {board.ply() + 1})")
                    board.push(move)
                for c, sess in engines.items():
                    sess.check_clean(f"frc game {n}")
                    sent = sess.sent(marks[c])
                    if "variant fischerandom" not in sent or not any(x.startswith("setboard ") for x in sent):
                        raise TestFailure(f"[frc] game {n}: python-chess did not send variant/setboard to "
                                          f"{sess.label}: {sent[:8]}")
                    for castle in sent_castles:
                        if f"usermove {castle}" not in sent:
                            raise TestFailure(f"[frc] game {n}: expected 'usermove {castle}' sent to {sess.label}")
                pgn_game = chess.pgn.Game.from_board(board)
                pgn_game.headers["Event"] = "Plugboard protocol tour (Fischer random)"
                pgn_game.headers["White"] = "Plugboard A"
                pgn_game.headers["Black"] = "Plugboard B"
                pgn_game.headers["Result"] = result_text
                pgn_game.headers["Termination"] = reason
                print(pgn_game, file=pgn, end="\n\n")
                engine_castles = ", ".join(castled) if castled else "none"
                notes.append(f"game {n}: Chess960 #{pos} {start_fen}, opening {' '.join(opening) or '-'} "
                             f"(castling sent as {', '.join('usermove ' + c for c in sent_castles) or 'none'}); "
                             f"{board.ply()} plies, {result_text} ({reason}), all legal; castling by the engines: "
                             f"{engine_castles}")
        notes.append(f"PGN: {pgn_path}")
    finally:
        a.quit()
        if b is not None:
            b.quit()
    return notes


# ---------------------------------------------------------------------------
# Section 5: raw protocol
# ---------------------------------------------------------------------------


class RawEngine(PipeEngine):
    """The engine on pipes, driven line by line; every line is kept with its time for the transcript."""

    def __init__(self, cmd: list[str], transcript_path: str, cwd: str, stderr: IO[str]) -> None:
        super().__init__(cmd, transcript_path, cwd, stderr, label="[raw] the engine")

    def collect(self, seconds: float) -> list[tuple[float, str]]:
        """Every line that arrives within `seconds`."""
        out = []
        deadline = time.monotonic() + seconds
        while True:
            item = self.read(deadline - time.monotonic())
            if item is None:
                return out
            out.append(item)

    def wait_for(self, pred: Callable[[str], bool], timeout: float, what: str,
                 seen: Optional[list[tuple[float, str]]] = None) -> tuple[float, str]:
        deadline = time.monotonic() + timeout
        while True:
            item = self.read(deadline - time.monotonic())
            if item is None:
                raise TestFailure(f"[raw] {what}: nothing within {timeout:g} s; last protocol lines:\n{self.tail()}")
            if seen is not None:
                seen.append(item)
            if ERROR_RE.match(item[1]):
                raise TestFailure(f"[raw] {what}: the engine answered {item[1]!r}; last protocol lines:\n"
                                  f"{self.tail()}")
            if pred(item[1]):
                return item

    def sync(self, n: int, timeout: float = 5.0) -> list[tuple[float, str]]:
        """`ping n` and everything up to `pong n`."""
        seen: list[tuple[float, str]] = []
        self.send(f"ping {n}")
        self.wait_for(lambda line: line == f"pong {n}", timeout, f"ping {n}", seen)
        return seen

    def handshake(self) -> dict[str, str]:
        features = super().handshake()
        self.send("accepted done")
        return features


def no_errors(lines: list[tuple[float, str]], what: str, raw: RawEngine) -> None:
    bad = [line for (_, line) in lines if ERROR_RE.match(line)]
    if bad:
        raise TestFailure(f"[raw] {what}: the engine answered {bad}; last protocol lines:\n{raw.tail()}")


def cpu_seconds(pid: int) -> Optional[float]:
    """User + system CPU time of a process (Linux /proc), or None where unavailable."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def move_of(line: str) -> Optional[str]:
    words = line.split()
    return words[1] if len(words) == 2 and words[0] == "move" else None


def highlighted(line: str) -> set[str]:
    """The squares a `highlight FEN` marks (any colour)."""
    marked = set()
    ranks = line.split()[1].split("/")
    for r, rank in enumerate(ranks):
        f = 0
        for ch in rank:
            if ch.isdigit():
                f += int(ch)
            else:
                marked.add(chess.square_name(chess.square(f, 7 - r)))
                f += 1
    return marked


def raw_undo_remove(raw: RawEngine, ping: Iterator[int]) -> str:
    """Undo / remove in force mode, then go."""
    moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]
    raw.send("new", "force", "post", "st 0.5", *(f"usermove {m}" for m in moves), "undo", "remove")
    seen = raw.sync(next(ping))
    no_errors(seen, "usermove/undo/remove in force mode", raw)
    board = chess.Board()
    for m in moves[:2]:
        board.push_uci(m)  # after undo (f1b5) and remove (b8c6, g1f3): 1.e4 e5, White to move
    raw.send("go")
    seen = []
    _, line = raw.wait_for(lambda x: x.startswith("move "), 5, "go after undo/remove", seen)
    move = move_of(line) or ""
    try:
        parse_move(board, move)
    except ValueError:
        raise TestFailure(f"[raw] after {' '.join(moves)}, undo, remove (position {board.fen()}) the engine "
                          f"played {line!r}, not legal there; last lines:\n{raw.tail()}") from None
    for _, x in seen:
        pv = pv_of(x)
        if pv and pv_problem(board, pv):
            raise TestFailure(f"[raw] after undo/remove the thinking line {x!r} is not legal from "
                              f"{board.fen()}: {pv_problem(board, pv)}")
    raw.send("force")
    raw.sync(next(ping))
    note = (f"5 moves, 'undo', 'remove', 'go' -> {line!r}, legal after 1.e4 e5 "
                 f"({sum(1 for _, x in seen if pv_of(x))} thinking lines, all legal from there)")
    return note


def raw_en_passant_remove(raw: RawEngine, ping: Iterator[int]) -> str:
    """Remove restores an en-passant right (seen through lift/highlight)."""
    raw.send("new", "force", "setboard rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
             "usermove d7d5", "lift e5")
    _, before = raw.wait_for(lambda x: x.startswith("highlight "), 2, "lift e5 after d7d5")
    raw.send("usermove a2a3", "usermove a7a6", "lift e5")
    _, expired = raw.wait_for(lambda x: x.startswith("highlight "), 2, "lift e5 two plies later")
    raw.send("remove", "lift e5")
    _, after = raw.wait_for(lambda x: x.startswith("highlight "), 2, "lift e5 after remove")
    raw.sync(next(ping))
    if highlighted(before) != {"d6", "e6"} or highlighted(after) != {"d6", "e6"} or \
            highlighted(expired) != {"e6"}:
        raise TestFailure(f"[raw] en passant through remove: lift e5 gave {before!r} after d7d5 (want d6+e6), "
                          f"{expired!r} two plies later (want e6), {after!r} after remove (want d6+e6)")
    note = (f"lift e5 -> {before!r}, later {expired!r}, after remove {after!r}")
    return note


def raw_lift(raw: RawEngine, ping: Iterator[int]) -> str:
    """Lift."""
    raw.send("new", "force", "lift e2")
    t_sent = time.monotonic()
    t_got, line = raw.wait_for(lambda x: x.startswith("highlight "), 1, "lift e2")
    if line != "highlight 8/8/8/8/4Y3/4Y3/8/8":
        raise TestFailure(f"[raw] 'lift e2' in the start position answered {line!r}, expected "
                          f"'highlight 8/8/8/8/4Y3/4Y3/8/8'")
    raw.send("lift g1")
    _, knight = raw.wait_for(lambda x: x.startswith("highlight "), 1, "lift g1")
    if highlighted(knight) != {"f3", "h3"}:
        raise TestFailure(f"[raw] 'lift g1' answered {knight!r}, expected f3 and h3 marked")
    raw.sync(next(ping))
    note = (f"lift e2 -> {line!r} in {1000 * (t_got - t_sent):.0f} ms; lift g1 -> {knight!r}")
    return note


def raw_move_now(raw: RawEngine, ping: Iterator[int]) -> str:
    """? during a long search."""
    raw.send("new", "post", "st 30", "go")
    t_go = time.monotonic()
    seen = []
    raw.wait_for(lambda x: pv_of(x) is not None, 5, "thinking output after go (st 30)", seen)
    early = raw.collect(max(0.0, 1.0 - (time.monotonic() - t_go)))
    seen += early
    moved = [x for _, x in seen if x.startswith("move ")]
    if moved:
        raise TestFailure(f"[raw] 'st 30': the engine moved after {time.monotonic() - t_go:.2f} s, before '?': "
                          f"{moved}")
    t_q = raw.send("?")
    t_move, line = raw.wait_for(lambda x: x.startswith("move "), 5, "'?' during st 30")
    delay = t_move - t_q
    try:
        parse_move(chess.Board(), move_of(line) or "")
    except ValueError:
        raise TestFailure(f"[raw] '?' in the start position: {line!r} is not legal") from None
    if delay > 1.0:
        raise TestFailure(f"[raw] '?' during 'st 30': the move came {delay:.2f} s later (limit 1 s): {line!r}")
    raw.send("force")
    raw.sync(next(ping))
    note = (f"'?' after {t_q - t_go:.1f} s of 'st 30': {line!r} {1000 * delay:.0f} ms later")
    return note


def raw_pause(raw: RawEngine, ping: Iterator[int]) -> str:
    """Pause / resume: no move and no CPU while paused; the search clock must not count the pause."""
    raw.send("new", "post", "st 2", "go")
    t_go = time.monotonic()
    time.sleep(0.4)
    cpu0 = cpu_seconds(raw.proc.pid)
    t_pause = raw.send("pause")
    during = raw.collect(1.5)
    cpu_paused = None if cpu0 is None else (cpu_seconds(raw.proc.pid) or 0.0) - cpu0
    t_resume = raw.send("resume")
    paused_s = t_resume - t_pause
    no_errors(during, "pause", raw)
    moved = [x for t, x in during if x.startswith("move ")]
    late_output = [x for t, x in during if t > t_pause + 0.05]
    if moved:
        raise TestFailure(f"[raw] 'pause' 0.4 s into 'st 2': the engine moved while paused: {moved}; "
                          f"lines:\n{raw.tail()}")
    if late_output:
        raise TestFailure(f"[raw] 'pause' 0.4 s into 'st 2': output while paused: {late_output[:3]}")
    if cpu_paused is not None and cpu_paused > 0.3:
        raise TestFailure(f"[raw] 'pause': the engine used {cpu_paused:.2f} s of CPU during the 1.5 s pause")
    seen = []
    t_move, line = raw.wait_for(lambda x: x.startswith("move "), 4, "move after resume", seen)
    try:
        parse_move(chess.Board(), move_of(line) or "")
    except ValueError:
        raise TestFailure(f"[raw] after pause/resume: {line!r} is not legal in the start position") from None
    # Thinking output after `resume`: its time field (centiseconds) must leave out the pause.
    for t, x in seen:
        if pv_of(x) is None:
            continue
        reported = int(x.split()[2]) / 100
        active = (t - t_go) - paused_s
        if reported > active + 0.3:
            raise TestFailure(
                f"[raw] pause/resume: the search clock kept running while paused: {x.split(chr(9))[0]!r} "
                f"(time field {reported:.2f} s) arrived {t - t_go:.2f} s after 'go', of which "
                f"{paused_s:.2f} s were paused (so at most {active:.2f} s of thinking); the move "
                f"{line!r} came {t_move - t_resume:.2f} s after 'resume' (st 2). Protocol:\n{raw.tail(8)}")
    cpu_text = "n/a" if cpu_paused is None else f"{cpu_paused:.2f} s"
    note = (f"pause 0.4 s into 'st 2': nothing for 1.5 s while paused (CPU {cpu_text}); 'resume' -> "
                 f"{line!r} {t_move - t_resume:.2f} s later; thinking times after resume leave out the pause")
    raw.send("force")
    raw.sync(next(ping))
    return note


def raw_draw(raw: RawEngine, ping: Iterator[int]) -> str:
    """Draw offers."""
    raw.send("new", "force", "setboard 8/8/4k3/8/8/2B1K3/8/8 w - - 0 1", "draw")
    seen = raw.collect(1.5)
    no_errors(seen, "draw in KB v K", raw)
    offers = [x for _, x in seen if x == "offer draw"]
    if not offers:
        raise TestFailure(f"[raw] 'draw' in the dead-drawn KB v K (force mode) not answered with 'offer draw' "
                          f"within 1.5 s; lines: {[x for _, x in seen]}")
    first = f"draw in KB v K (force mode) -> {[x for _, x in seen]}"
    raw.send("new", "force", "setboard 4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", "st 0.3", "go")
    _, line = raw.wait_for(lambda x: x.startswith("move "), 4, "move in KQ v K")
    raw.send("draw")
    seen = raw.collect(1.0)
    no_errors(seen, "draw in KQ v K", raw)
    if any(x == "offer draw" for _, x in seen):
        raise TestFailure(f"[raw] the engine (White, KQ v K, after {line!r}) accepted a draw offer: "
                          f"{[x for _, x in seen]}")
    raw.send("force")
    raw.sync(next(ping))
    note = (f"{first}; draw in KQ v K while playing White (after {line!r}): not accepted")
    return note


def raw_ponder(raw: RawEngine, ping: Iterator[int]) -> str:
    """A real ponder hit and a miss: usermove while the engine ponders."""
    raw.send("new", "hard", "nopost", "st 0.5", "go")
    board = chess.Board()
    summary = []
    _, line = raw.wait_for(lambda x: x.startswith("move "), 4, "first move with 'hard'")
    for kind in ("hit", "miss"):
        board.push(parse_move(board, move_of(line) or ""))
        _, hint_line = raw.wait_for(lambda x: x.startswith("Hint:"), 2, f"'Hint:' after {line!r}")
        try:
            hint = parse_move(board, hint_line.split()[1])
        except (ValueError, IndexError):
            raise TestFailure(f"[raw] {hint_line!r} is not a legal move in {board.fen()}") from None
        time.sleep(0.3)  # let it ponder
        if kind == "hit":
            reply = hint
        else:
            reply = sorted((m for m in board.legal_moves if m != hint), key=lambda m: m.uci())[0]
        t_user = raw.send(f"usermove {reply.uci()}")
        board.push(reply)
        t_move, answer = raw.wait_for(lambda x: x.startswith("move "), 3, f"answer to the ponder {kind}")
        try:
            parse_move(board, move_of(answer) or "")
        except ValueError:
            raise TestFailure(f"[raw] ponder {kind}: {answer!r} is not legal in {board.fen()}; lines:\n"
                              f"{raw.tail()}") from None
        summary.append(f"{line!r} + {hint_line!r}, usermove {reply.uci()} ({kind}) -> {answer!r} "
                       f"{t_move - t_user:.2f} s later")
        line = answer
    # The engine ponders again; stop it, nothing else may come.
    raw.send("easy", "force")
    extra = raw.collect(0.7)
    seen_extra = [x for _, x in extra if x.startswith("move ")]
    hint_after = [x for _, x in extra if x.startswith("Hint:")]
    no_errors(extra, "easy/force after pondering", raw)
    if len(hint_after) > 1 or seen_extra:
        raise TestFailure(f"[raw] after 'easy', 'force' the pondering engine sent {seen_extra + hint_after}")
    raw.sync(next(ping))
    note = ("; ".join(summary))
    return note


def raw_exclude_in_analyze(raw: RawEngine, ping: Iterator[int]) -> str:
    """Exclude / include inside analyze mode."""
    raw.send("new", "force", "post", "analyze")
    time.sleep(0.3)
    t_ex = raw.send("exclude all", "include a2a3", "include h2h3")
    seen = raw.collect(2.0)
    no_errors(seen, "exclude/include in analyze mode", raw)
    # Lines from 0.1 s on: the old search may still be printing what was in flight.
    late = [x for t, x in seen if pv_of(x) and t > t_ex + 0.1]
    firsts = sorted({first_move_of(x) or "" for x in late})
    if not late:
        raise TestFailure(f"[raw] no thinking output in analyze mode after exclude/include: {seen}")
    if not set(firsts) <= {"a2a3", "h2h3"}:
        raise TestFailure(f"[raw] analyze mode after 'exclude all', 'include a2a3', 'include h2h3': PVs start "
                          f"with {firsts}, e.g. {late[-1]!r}")
    t_in = raw.send("include all")
    seen = raw.collect(1.2)
    no_errors(seen, "include all", raw)
    again = sorted({first_move_of(x) or "" for t, x in seen if pv_of(x) and t > t_in + 0.1})
    raw.send("exit", "force")
    raw.sync(next(ping))
    note = (f"after 'exclude all', 'include a2a3', 'include h2h3' {len(late)} later PVs start with "
                 f"{'/'.join(firsts)}; after 'include all' they start with {'/'.join(again) or '(none)'}")
    return note


def raw_stat01(raw: RawEngine, ping: Iterator[int]) -> str:
    """`.` in analyze mode answered by `stat01: time nodes ply mvleft mvtot [mvname]` with sane fields."""
    raw.send("new", "force", "post", "analyze")
    answers: list[str] = []
    problems: list[str] = []
    last_thinking: Optional[str] = None
    for phase, n_moves in (("all moves", 20), ("a3/h3 only", 2)):
        if n_moves == 2:
            raw.send("exclude all", "include a2a3", "include h2h3")
            last_thinking = None
        for _ in range(3):
            for _, x in raw.collect(0.4):
                if ERROR_RE.match(x):
                    raise TestFailure(f"[raw] analyze mode: the engine answered {x!r}")
                if pv_of(x):
                    last_thinking = x
            raw.send(".")
            _, stat = raw.wait_for(lambda x: x.startswith("stat01:") or pv_of(x) is not None, 1, "'.' in analyze")
            while not stat.startswith("stat01:"):
                last_thinking = stat
                _, stat = raw.wait_for(lambda x: x.startswith("stat01:") or pv_of(x) is not None, 1,
                                       "'.' in analyze")
            answers.append(stat)
            fields = stat.split()[1:]
            if len(fields) not in (5, 6) or not all(f.isdigit() for f in fields[:5]):
                problems.append(f"{stat!r} is not 'stat01: time nodes ply mvleft mvtot [mvname]'")
                continue
            _, nodes, ply, left, total = (int(f) for f in fields[:5])
            if total != n_moves:
                problems.append(f"{stat!r}: mvtot {total}, expected {n_moves} root moves ({phase})")
            if left > total:
                problems.append(f"{stat!r}: mvleft {left} > mvtot {total}")
            if last_thinking is not None:
                done_depth, done_nodes = int(last_thinking.split()[0]), int(last_thinking.split()[3])
                if ply < done_depth:
                    problems.append(f"{stat!r}: ply {ply}, but depth {done_depth} was already reported "
                                    f"({last_thinking.split(chr(9))[0]!r})")
                if nodes < done_nodes:
                    problems.append(f"{stat!r}: {nodes} nodes, fewer than the {done_nodes} already reported "
                                    f"({last_thinking.split(chr(9))[0]!r})")
    raw.send("exit", "force")
    raw.sync(next(ping))
    if problems:
        raise TestFailure("[raw] stat01 answers to '.' in analyze mode: " + "; ".join(problems[:4]))
    return f"{len(answers)} answers, e.g. {answers[0]!r}, {answers[-1]!r}"


RAW_TESTS: list[tuple[str, Callable[[RawEngine, Iterator[int]], str]]] = [
    ("undo/remove then go", raw_undo_remove),
    ("remove restores en passant", raw_en_passant_remove),
    ("lift/highlight", raw_lift),
    ("? during st 30", raw_move_now),
    ("pause/resume", raw_pause),
    ("draw offers", raw_draw),
    ("ponder hit and miss (usermove while pondering)", raw_ponder),
    ("exclude/include inside analyze", raw_exclude_in_analyze),
    ("'.' in analyze mode (stat01)", raw_stat01),
]


def start_raw(tour: Tour, n: int) -> RawEngine:
    path = os.path.join(tour.workdir, "raw-protocol.log" if n == 1 else f"raw-protocol-{n}.log")
    raw = RawEngine([tour.engine_path], path, tour.workdir, tour.stderr)
    raw.handshake()
    return raw


def recover(tour: Tour, raw: RawEngine, ping: Iterator[int], starts: list[int]) -> RawEngine:
    """After a failed sub-test: back to a quiet engine in force mode, or a fresh process."""
    if raw.proc.poll() is None:
        try:
            raw.send("force", "easy")
            n = next(ping)
            raw.send(f"ping {n}")
            deadline = time.monotonic() + 5
            while True:
                item = raw.read(deadline - time.monotonic())
                if item is None:
                    break
                if item[1] == f"pong {n}":
                    return raw
        except TestFailure:
            pass
    raw.quit()
    starts.append(len(starts) + 1)
    return start_raw(tour, starts[-1])


def section_raw(tour: Tour) -> list[str]:
    notes: list[str] = [f"transcript: {os.path.join(tour.workdir, 'raw-protocol.log')}"]
    failures: list[str] = []
    ping = itertools.count(1)
    starts = [1]
    raw = start_raw(tour, 1)
    try:
        raw.sync(next(ping))
        for title, test in RAW_TESTS:
            try:
                notes.append(f"{title}: {test(raw, ping)}")
            except TestFailure as err:
                failures.append(str(err))
                notes.append(f"{title}: FAILED")
                raw = recover(tour, raw, ping, starts)
        raw.drain()
    finally:
        raw.quit()
    if len(starts) > 1:
        notes.append(f"the engine was restarted {len(starts) - 1}x after a failure (raw-protocol-N.log)")
    if failures:
        raise TestFailure("\nFAIL: ".join(failures), notes)
    return notes


# ---------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine", help="path to the plugboard binary, e.g. target/release/plugboard")
    parser.add_argument("--keep", default=None, help="folder for the logs (default: a new temp folder)")
    parser.add_argument("--only", default=None, help="comma-separated section numbers to run (default: all)")
    args = parser.parse_args()

    engine_file = engine_path(args.engine)
    if engine_file is None:
        return 2
    workdir = args.keep or tempfile.mkdtemp(prefix="plugboard-tour-")
    os.makedirs(workdir, exist_ok=True)
    protocol_log = os.path.join(workdir, "python-chess-protocol.log")

    tap = LineTap()
    warnings = capture_python_chess_logs(protocol_log, tap)
    arm_wall_limit(WALL_LIMIT_S)

    t_start = time.monotonic()
    log(f"engine: {engine_file}")
    log(f"files:  {workdir}")
    tour = Tour(engine_file, workdir, tap, warnings)
    sections: list[tuple[str, str, Callable[[], list[str]]]] = [
        ("1", "analysis with root_moves (exclude/include)", lambda: section_analysis(tour)),
        ("2", "pondering (hard, Hint, hits and misses)", lambda: section_ponder(tour, engine_moves=10)),
        ("3", "setboard positions, undo, remove", lambda: section_setup(tour, think_s=0.3)),
        ("4", "Fischer random (castling mates, two self-play games)",
         lambda: section_frc(tour, think_s=0.1, max_plies=40)),
        ("5", "raw protocol (undo/remove+go, ?, pause, draw, lift, ponder hit, exclude in analyze)",
         lambda: section_raw(tour)),
    ]
    only = set(args.only.split(",")) if args.only else None
    outcomes: list[tuple[str, str, bool, float, list[str]]] = []
    try:
        for number, title, run in sections:
            if only and number not in only:
                continue
            log(f"--- {number}. {title}")
            t0 = time.monotonic()
            try:
                notes = run()
                ok = True
            except TestFailure as err:
                notes = err.notes + [f"FAIL: {err}"]
                ok = False
            except Exception:  # noqa: BLE001 - a bug of this test: report it as the section's failure
                notes = [f"FAIL: error in the test itself:\n{traceback.format_exc()}"]
                ok = False
            outcomes.append((number, title, ok, time.monotonic() - t0, notes))
            for note in notes:
                log("  " + note)
            log(f"  -> {'ok' if ok else 'FAILED'} ({time.monotonic() - t0:.1f} s)")
    except TestFailure as err:  # the wall-clock alarm
        outcomes.append(("-", "time limit", False, 0.0, [f"FAIL: {err}"]))
    finally:
        disarm_wall_limit()
        tour.stderr.close()

    elapsed = time.monotonic() - t_start
    log("\n=== summary")
    for number, title, ok, took, notes in outcomes:
        log(f"{'ok  ' if ok else 'FAIL'} {number}. {title} ({took:.1f} s)")
    failures = [(n, notes) for n, _, ok, _, notes in outcomes if not ok]
    for number, notes in failures:
        for note in notes:
            if note.startswith("FAIL: "):
                log(f"section {number}: {note}")
    summary_end(warnings, f"python-chess transcript {protocol_log}; raw transcript "
                f"{os.path.join(workdir, 'raw-protocol.log')}; FRC PGN {os.path.join(workdir, 'frc-games.pgn')}; "
                f"engine stderr {os.path.join(workdir, 'plugboard.stderr')}", elapsed, not failures, shown=8)
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
