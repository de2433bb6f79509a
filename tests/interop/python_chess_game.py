#!/usr/bin/env python3
"""Interop test: Plugboard driven by python-chess's xboard client, against Fairy-Max.

Usage (from the repository root):

    python3 tests/interop/python_chess_game.py target/release/plugboard

Part 1 plays complete games between Plugboard (through
``chess.engine.SimpleEngine.popen_xboard``) and Fairy-Max (through a small CECP
driver in this file) with clocks kept here. Plugboard fails the test if it
makes an illegal move, loses on time, crashes or stops answering.

Part 2 runs ``engine.analyse(start position, depth 6)`` with the default
evaluation, switches the evaluation with ``engine.configure({"Evaluation":
"material"})`` and analyses again: the material-only score of the balanced
start position must be exactly 0 centipawns, and python-chess must have parsed
the depth and the principal variation from the engine's thinking output.

Exit status 0 when everything passed, 1 on a failure (with a message saying
what went wrong), 2 on a usage error. Every file (PGN, protocol logs, the
engine's stderr) is kept in a temporary folder whose path is printed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Optional

import chess
import chess.engine
import chess.pgn

from interop_common import (
    PipeEngine,
    TestFailure,
    arm_wall_limit,
    capture_python_chess_logs,
    disarm_wall_limit,
    engine_path,
    executable,
    log,
    summary_end,
)

FAIRYMAX = "/usr/games/fairymax"
# The whole run must stay below four minutes; this alarm is the last resort.
WALL_LIMIT_S = 230
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def plain(text: str) -> str:
    """Text safe inside a CECP `result ... {comment}`."""
    return text.replace("{", "(").replace("}", ")").replace("\n", " ")


# ---------------------------------------------------------------------------
# A minimal CECP (xboard protocol v2) driver for the opponent
# ---------------------------------------------------------------------------


class CecpOpponent(PipeEngine):
    """Drives a CECP engine over pipes: handshake, new game, force/moves/time/otim/go."""

    def __init__(self, cmd: list[str], transcript_path: str) -> None:
        self.name = os.path.basename(cmd[0])
        super().__init__(cmd, transcript_path, cwd=tempfile.gettempdir(), stderr=subprocess.STDOUT, label=self.name)
        self.features: dict[str, str] = {}

    def read_line(self, deadline: float) -> Optional[str]:
        """The next line, or None at `deadline`; raises if the process ended."""
        item = self.read(deadline - time.monotonic())
        return None if item is None else item[1]

    def handshake(self) -> dict[str, str]:
        self.features = super().handshake()
        self.name = self.label = self.features.get("myname", self.name)
        return self.features

    def new_game(self, base_s: float, inc_s: float) -> None:
        minutes, seconds = divmod(int(round(base_s)), 60)
        inc = f"{inc_s:g}"
        # Fairy-Max announces setboard=0: games start from the standard position.
        self.drain()
        self.send("new")
        self.send("easy")  # no pondering
        self.send("nopost")  # no thinking output
        self.send(f"level 0 {minutes}:{seconds:02d} {inc}")
        self.send("force")

    def think(self, moves: list[str], own_cs: int, other_cs: int, deadline: float) -> tuple[str, str]:
        """Send the moves played since it last moved, then `go`; return ('move', X),
        ('resign', line) or ('result', line)."""
        self.send("force")
        prefix = "usermove " if self.features.get("usermove") == "1" else ""
        for move in moves:
            self.send(prefix + move)
        self.send(f"time {max(1, own_cs)}")
        self.send(f"otim {max(1, other_cs)}")
        self.send("go")
        while True:
            line = self.read_line(deadline)
            if line is None:
                return ("timeout", "")
            words = line.split()
            if not words:
                continue
            if words[0] == "move" and len(words) >= 2:
                return ("move", words[1])
            if words[0] == "resign":
                return ("resign", line)
            if words[0] in RESULTS:
                return ("result", line)
            if words[0] == "Illegal" or (words[0] == "Error" and any(line.endswith(m) for m in moves)):
                raise TestFailure(f"{self.name} rejected a move we sent: {line!r}")
            # Other 'Error (unknown command): ...' replies are harmless.
            # comments ('#'), 'tellics', thinking output and the like are ignored

    def drain_lines(self) -> list[str]:
        """Lines already waiting (e.g. a result printed right after a move)."""
        return [line for _, line in self.drain()]

    def finish_game(self) -> None:
        # No `result`: Debian's Fairy-Max 5.0b does not know that command, and it often
        # crashes (SIGSEGV) on a command it does not know instead of answering `Error`.
        self.send("force")


# ---------------------------------------------------------------------------
# Helpers around python-chess's SimpleEngine
# ---------------------------------------------------------------------------


class Watchdog:
    """Closes the engine if a blocking python-chess call takes longer than `seconds`
    (python-chess has no timeout for clock-limited searches or depth-limited analysis)."""

    def __init__(self, engine: chess.engine.SimpleEngine, seconds: float, what: str) -> None:
        self.fired = False
        self.what = what
        self.seconds = seconds
        self.timer = threading.Timer(seconds, self._fire, args=(engine,))
        self.timer.daemon = True

    def _fire(self, engine: chess.engine.SimpleEngine) -> None:
        self.fired = True
        try:
            engine.close()
        except Exception:  # noqa: BLE001 - best effort from a timer thread
            pass

    def __enter__(self) -> "Watchdog":
        self.timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.timer.cancel()


@dataclass
class GameRecord:
    pgn: str
    result: str
    reason: str
    plies: int
    engine_colour: str
    engine_min_clock: float
    engine_moves: int
    max_depth: int
    notes: list[str] = field(default_factory=list)


def engine_stderr_tail(path: str, lines: int = 20) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            tail = fh.read().splitlines()[-lines:]
    except OSError:
        return "(no stderr file)"
    return "\n".join(tail) if tail else "(empty)"


# ---------------------------------------------------------------------------
# Part 1: games
# ---------------------------------------------------------------------------


def play_game(
    engine: chess.engine.SimpleEngine,
    engine_name: str,
    opponent: CecpOpponent,
    engine_colour: chess.Color,
    base_s: float,
    inc_s: float,
    max_plies: int,
    round_no: int,
) -> GameRecord:
    board = chess.Board()
    game_token = object()  # python-chess keeps one game per token
    clocks = {chess.WHITE: base_s, chess.BLACK: base_s}
    comments: list[str] = []
    opponent.new_game(base_s, inc_s)
    sent_to_opponent = 0
    engine_min_clock = base_s
    engine_moves = 0
    max_depth = 0
    result: Optional[str] = None
    reason = ""
    first_engine_move = True
    side = "White" if engine_colour == chess.WHITE else "Black"
    log(f"--- game {round_no}: {engine_name} plays {side}, {base_s:g}s + {inc_s:g}s, cap {max_plies} plies")

    while result is None:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            result = outcome.result()
            reason = outcome.termination.name.replace("_", " ").lower()
            if outcome.termination in (chess.Termination.THREEFOLD_REPETITION, chess.Termination.FIFTY_MOVES):
                reason += " (claimed)"
            break
        if board.ply() >= max_plies:
            result, reason = "1/2-1/2", f"adjudicated draw after {max_plies} plies"
            break

        mover = board.turn
        if mover == engine_colour:
            limit = chess.engine.Limit(
                white_clock=clocks[chess.WHITE],
                black_clock=clocks[chess.BLACK],
                white_inc=inc_s,
                black_inc=inc_s,
                # One time control per game: `level` is sent once, then only `time`/`otim`.
                clock_id=game_token,
            )
            opponent_info = None
            if first_engine_move:
                opponent_info = chess.engine.Opponent(name=opponent.name, title=None, rating=None, is_engine=True)
                first_engine_move = False
            start = time.monotonic()
            # Allow the whole remaining clock plus a grace period before calling it a hang.
            with Watchdog(engine, clocks[mover] + 5.0, "play") as dog:
                try:
                    play = engine.play(
                        board,
                        limit,
                        game=game_token,
                        info=chess.engine.INFO_ALL,
                        opponent=opponent_info,
                    )
                except chess.engine.EngineTerminatedError as err:
                    if dog.fired:
                        raise TestFailure(
                            f"{engine_name} did not move within {dog.seconds:.1f} s at ply {board.ply() + 1} "
                            f"(clock {clocks[mover]:.2f} s): hang or lost on time; FEN {board.fen()}"
                        ) from err
                    raise TestFailure(f"{engine_name} terminated during play at ply {board.ply() + 1}: {err}") from err
                except chess.engine.EngineError as err:
                    # python-chess raises on an illegal move, 'Illegal move'/'Error' replies, ...
                    raise TestFailure(
                        f"{engine_name} protocol/move error at ply {board.ply() + 1} (FEN {board.fen()}): {err}"
                    ) from err
            elapsed = time.monotonic() - start
            clocks[mover] -= elapsed
            engine_min_clock = min(engine_min_clock, clocks[mover])
            if clocks[mover] < 0:
                raise TestFailure(
                    f"{engine_name} lost on time at ply {board.ply() + 1}: took {elapsed:.3f} s, "
                    f"clock {clocks[mover]:.3f} s"
                )
            clocks[mover] += inc_s
            if play.resigned:
                result = "0-1" if engine_colour == chess.WHITE else "1-0"
                reason = f"{engine_name} resigned"
                break
            if play.move is None:
                claim = board.outcome(claim_draw=True)
                raise TestFailure(
                    f"{engine_name} returned no move at ply {board.ply() + 1} (FEN {board.fen()}); "
                    f"board outcome there: {claim}"
                )
            if play.move not in board.legal_moves:  # python-chess already checks; belt and braces
                raise TestFailure(f"{engine_name} played illegal move {play.move} in {board.fen()}")
            if play.draw_offered:
                comments.append(f"ply {board.ply() + 1}: {engine_name} offered a draw (ignored)")
            depth = play.info.get("depth")
            score = play.info.get("score")
            if depth:
                max_depth = max(max_depth, depth)
            comments.append(
                f"ply {board.ply() + 1}: {engine_name} {board.san(play.move)} "
                f"{elapsed:.2f}s depth={depth} score={score.white() if score else None}"
            )
            board.push(play.move)
            engine_moves += 1
        else:
            pending = [m.uci() for m in board.move_stack[sent_to_opponent:]]
            start = time.monotonic()
            deadline = start + clocks[mover] + 5.0
            own_cs = int(clocks[mover] * 100)
            other_cs = int(clocks[not mover] * 100)
            kind, text = opponent.think(pending, own_cs, other_cs, deadline)
            elapsed = time.monotonic() - start
            clocks[mover] -= elapsed
            if kind == "timeout" or clocks[mover] < 0:
                result = "1-0" if engine_colour == chess.WHITE else "0-1"
                reason = f"{opponent.name} lost on time"
                break
            clocks[mover] += inc_s
            if kind == "resign":
                result = "1-0" if engine_colour == chess.WHITE else "0-1"
                reason = f"{opponent.name} resigned"
                break
            if kind == "result":
                claimed = text.split()[0]
                verified = board.outcome(claim_draw=True)
                if verified is not None and verified.result() == claimed:
                    result, reason = claimed, f"{opponent.name} claimed: {text}"
                else:
                    # As xboard's -testClaims would: a false claim loses.
                    result = "1-0" if engine_colour == chess.WHITE else "0-1"
                    reason = f"{opponent.name} made a false claim: {text}"
                break
            try:
                move = board.parse_uci(text)
            except ValueError:
                try:
                    move = board.parse_xboard(text)
                except ValueError as err:
                    raise TestFailure(f"{opponent.name} sent an illegal move {text!r} in {board.fen()}") from err
            board.push(move)
            sent_to_opponent = len(board.move_stack)
            for extra in opponent.drain_lines():
                if extra.split() and extra.split()[0] in RESULTS:
                    comments.append(f"ply {board.ply()}: {opponent.name} said {extra!r}")

    # Tell both engines how the game ended.
    opponent.finish_game()
    with Watchdog(engine, 10.0, "result"):
        try:
            engine.send_game_result(board, game_complete=True, game_ending=plain(reason),
                                    winner=None if result == "1/2-1/2" else (result == "1-0"))
            engine.ping()
        except chess.engine.EngineError as err:
            raise TestFailure(f"{engine_name} failed after the game result: {err}") from err
        except chess.engine.EngineTerminatedError as err:
            raise TestFailure(f"{engine_name} died after the game result: {err}") from err

    pgn_game = chess.pgn.Game.from_board(board)
    pgn_game.headers["Event"] = "Plugboard interop (python-chess)"
    pgn_game.headers["Site"] = "tests/interop/python_chess_game.py"
    pgn_game.headers["Round"] = str(round_no)
    pgn_game.headers["White"] = engine_name if engine_colour == chess.WHITE else opponent.name
    pgn_game.headers["Black"] = opponent.name if engine_colour == chess.WHITE else engine_name
    pgn_game.headers["TimeControl"] = f"{base_s:g}+{inc_s:g}"
    pgn_game.headers["Result"] = result
    pgn_game.headers["Termination"] = reason
    pgn_game.comment = reason
    pgn_text = str(pgn_game)
    return GameRecord(
        pgn=pgn_text,
        result=result,
        reason=reason,
        plies=board.ply(),
        engine_colour=side,
        engine_min_clock=engine_min_clock,
        engine_moves=engine_moves,
        max_depth=max_depth,
        notes=comments,
    )


# ---------------------------------------------------------------------------
# Part 2: analysis and configure
# ---------------------------------------------------------------------------


def analyse_start(engine: chess.engine.SimpleEngine, engine_name: str, label: str, depth: int) -> dict:
    board = chess.Board()
    with Watchdog(engine, 60.0, "analyse") as dog:
        try:
            info = engine.analyse(board, chess.engine.Limit(depth=depth))
        except chess.engine.EngineTerminatedError as err:
            if dog.fired:
                raise TestFailure(f"{engine_name}: analyse(depth={depth}) [{label}] did not finish within 60 s") from err
            raise TestFailure(f"{engine_name} terminated during analyse [{label}]: {err}") from err
        except chess.engine.EngineError as err:
            raise TestFailure(f"{engine_name}: analyse [{label}] failed: {err}") from err
    if "depth" not in info:
        raise TestFailure(f"[{label}] python-chess parsed no depth from the thinking output: {info}")
    if info["depth"] < depth:
        raise TestFailure(f"[{label}] analysis stopped at depth {info['depth']} < {depth}: {info}")
    pv = info.get("pv")
    if not pv:
        raise TestFailure(f"[{label}] python-chess parsed no PV from the thinking output: {info}")
    if pv[0] not in board.legal_moves:
        raise TestFailure(f"[{label}] PV starts with an illegal move: {pv}")
    if "score" not in info:
        raise TestFailure(f"[{label}] python-chess parsed no score: {info}")
    pv_san = board.variation_san(pv)
    log(
        f"[{label}] depth={info['depth']} seldepth={info.get('seldepth')} score(white)={info['score'].white()} "
        f"nodes={info.get('nodes')} time={info.get('time')} pv: {pv_san}"
    )
    return info


# ---------------------------------------------------------------------------


def parse_tc(text: str) -> tuple[float, float]:
    base, _, inc = text.partition("+")
    return float(base), float(inc or 0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine", help="path to the plugboard binary, e.g. target/release/plugboard")
    parser.add_argument("--tc", default="20+0.2", help="time control per side, BASE+INC seconds (default 20+0.2)")
    parser.add_argument("--games", type=int, default=2, choices=(1, 2),
                        help="1: Plugboard plays White; 2: also a game with Plugboard as Black (default 2)")
    parser.add_argument("--max-plies", type=int, default=160, help="adjudicate a draw after this many plies")
    parser.add_argument("--depth", type=int, default=6, help="analysis depth for part 2 (default 6)")
    parser.add_argument("--opponent", default=FAIRYMAX, help=f"opponent CECP engine (default {FAIRYMAX})")
    parser.add_argument("--keep", default=None, help="folder for the logs and PGN (default: a new temp folder)")
    args = parser.parse_args()

    engine_file = engine_path(args.engine)
    if engine_file is None:
        return 2
    if not executable(args.opponent):
        print(f"FAIL: opponent not found: {args.opponent} (apt-get install fairymax)", file=sys.stderr)
        return 2
    base_s, inc_s = parse_tc(args.tc)
    worst = args.games * 2 * (base_s + inc_s * args.max_plies / 2) + 30
    if worst > WALL_LIMIT_S:
        print(f"FAIL: --tc/--games/--max-plies allow up to {worst:.0f} s, above the {WALL_LIMIT_S} s bound",
              file=sys.stderr)
        return 2

    workdir = args.keep or tempfile.mkdtemp(prefix="plugboard-pychess-")
    os.makedirs(workdir, exist_ok=True)
    engine_stderr = os.path.join(workdir, "plugboard.stderr")
    protocol_log = os.path.join(workdir, "plugboard-protocol.log")
    opponent_log = os.path.join(workdir, "opponent-protocol.log")
    pgn_path = os.path.join(workdir, "games.pgn")

    # python-chess's log of every line it sends and reads is the engine transcript.
    warnings = capture_python_chess_logs(protocol_log)
    arm_wall_limit(WALL_LIMIT_S)

    t_start = time.monotonic()
    log(f"engine:   {engine_file}")
    log(f"opponent: {args.opponent}")
    log(f"files:    {workdir}")

    engine: Optional[chess.engine.SimpleEngine] = None
    opponent: Optional[CecpOpponent] = None
    games: list[GameRecord] = []
    stderr_fh = open(engine_stderr, "w", encoding="utf-8")
    status = 0
    try:
        try:
            engine = chess.engine.SimpleEngine.popen_xboard(engine_file, timeout=10.0, stderr=stderr_fh,
                                                            cwd=workdir)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, OSError, TimeoutError) as err:
            raise TestFailure(f"python-chess could not start/initialise the engine: {err!r}") from err
        engine_name = engine.id.get("name", "Plugboard")
        log(f"python-chess initialised {engine_name!r}; features: "
            + " ".join(f"{k}={v}" for k, v in sorted(engine.protocol.features.items())))  # type: ignore[attr-defined]
        options = engine.options
        log("options: " + "; ".join(f"{o.name} ({o.type}{': ' + '/'.join(o.var) if o.var else ''}"
                                    f"{', default ' + str(o.default) if o.default is not None else ''})"
                                    for o in options.values()))
        for required in ("Evaluation", "Search"):
            if required not in options:
                raise TestFailure(f"engine did not announce option {required!r}; it announced {list(options)}")

        # ---- part 1: games
        opponent = CecpOpponent([args.opponent], opponent_log)
        opponent.handshake()
        log(f"opponent initialised: {opponent.name} (setboard={opponent.features.get('setboard')})")
        colours = [chess.WHITE, chess.BLACK][: args.games]
        for i, colour in enumerate(colours, start=1):
            t_game = time.monotonic()
            record = play_game(engine, engine_name, opponent, colour, base_s, inc_s, args.max_plies, i)
            games.append(record)
            log(record.pgn)
            log(f"game {i}: {record.result} ({record.reason}) in {record.plies} plies, "
                f"{time.monotonic() - t_game:.1f} s; {engine_name} ({record.engine_colour}) made "
                f"{record.engine_moves} moves, lowest clock {record.engine_min_clock:.2f} s, "
                f"max depth {record.max_depth}")
            for note in record.notes:
                if "offered" in note or "said" in note:
                    log("  " + note)
        with open(pgn_path, "w", encoding="utf-8") as fh:
            for record in games:
                fh.write(record.pgn + "\n\n")

        # ---- part 2: analysis, configure Evaluation=material, analysis again
        log("--- analysis of the start position")
        default_eval = options["Evaluation"].default
        info_default = analyse_start(engine, engine_name, f"Evaluation={default_eval}", args.depth)
        if "material" not in (options["Evaluation"].var or []):
            raise TestFailure(
                f"the Evaluation combo does not offer 'material' (offers {options['Evaluation'].var}); "
                f"is libplugboard_eval_material beside the engine?"
            )
        seen_before = len(warnings.messages)
        try:
            with Watchdog(engine, 10.0, "configure"):
                engine.configure({"Evaluation": "material"})
                engine.ping()  # make sure the option was digested and nothing went wrong
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as err:
            raise TestFailure(f"configure({{'Evaluation': 'material'}}) failed: {err!r}") from err
        info_material = analyse_start(engine, engine_name, "Evaluation=material", args.depth)
        # python-chess reads no feature after the handshake: the changed option
        # list must not be sent to it, or it logs each line as unexpected.
        # (python-chess sends `.` itself when it stops an analysis, and calls the
        # `stat01:` answer unexpected: its own limitation, left out here.)
        unexpected = [m for m in warnings.messages[seen_before:] if "Unexpected engine output: 'feature" in m]
        if unexpected:
            raise TestFailure(f"another evaluation's option list reached python-chess: {unexpected[:3]}")
        cp_default = info_default["score"].white().score()
        cp_material = info_material["score"].white().score()
        log(f"start-position score: {default_eval} {cp_default} cp, material {cp_material} cp")
        if cp_material != 0:
            raise TestFailure(
                f"with Evaluation=material the start position must score exactly 0 cp, got "
                f"{info_material['score'].white()} (the option did not take effect?)"
            )
        if default_eval is not None and default_eval != "material":
            try:
                with Watchdog(engine, 10.0, "configure"):
                    engine.configure({"Evaluation": default_eval})
                    engine.ping()
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as err:
                raise TestFailure(f"configure back to Evaluation={default_eval} failed: {err!r}") from err
            analyse_start(engine, engine_name, f"Evaluation={default_eval} again", args.depth)

    except TestFailure as err:
        status = 1
        log(f"\nFAIL: {err}")
        log(f"engine stderr (last lines, {engine_stderr}):\n{engine_stderr_tail(engine_stderr)}")
        if engine is not None:
            code = getattr(engine.protocol, "returncode", None)
            if code is not None and code.done():
                log(f"engine exit status: {code.result()}")
    finally:
        disarm_wall_limit()
        if engine is not None:
            try:
                with Watchdog(engine, 10.0, "quit"):
                    engine.quit()
            except Exception:  # noqa: BLE001 - the engine may already be gone
                pass
            try:
                engine.close()
            except Exception:  # noqa: BLE001
                pass
        if opponent is not None:
            opponent.quit()
        stderr_fh.close()
        if games and not os.path.exists(pgn_path):
            with open(pgn_path, "w", encoding="utf-8") as fh:
                for record in games:
                    fh.write(record.pgn + "\n\n")

    elapsed = time.monotonic() - t_start
    log("\n=== summary")
    for i, record in enumerate(games, start=1):
        log(f"game {i}: {engine_name if engine else 'engine'} as {record.engine_colour}: {record.result} "
            f"({record.reason}), {record.plies} plies, lowest clock {record.engine_min_clock:.2f} s")
    summary_end(warnings, f"PGN {pgn_path}; engine transcript {protocol_log}; opponent transcript "
                f"{opponent_log}; engine stderr {engine_stderr}", elapsed, status == 0)
    return status


if __name__ == "__main__":
    sys.exit(main())
