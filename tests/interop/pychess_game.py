#!/usr/bin/python3
"""Interop test: Plugboard driven by PyChess's own engine layer (Debian's pychess 1.0.3).

Usage (from the repository root):

    python3 tests/interop/pychess_game.py target/release/plugboard

PyChess is a GTK application; this test runs its engine layer without the main
window, as the GUI would drive it: ``pychess.Players.engineNest.discoverer``,
``CECPEngine``, ``GameModel``/``TimeModel`` and PyChess's asyncio loop with the
GLib main context pumped beside it, exactly as ``/usr/games/pychess`` does. It
needs Debian's ``/usr/bin/python3`` (where ``gi`` and ``pychess`` live) and an
X display: when either is missing the script re-executes itself as
``xvfb-run -a /usr/bin/python3 tests/interop/pychess_game.py ...``. The display
matters: PyChess shows an engine's ``tellusererror`` in a GTK dialog, and
without a display that dialog raises inside PyChess's engine reader, which then
stops reading the engine.

What it proves:

With ``--protocol uci`` PyChess adds and plays Plugboard as a UCI engine
(``UCIEngine``): the same games and analysis, and an ``info string Error`` or
``Illegal`` line fails it instead of CECP's error words.

- **PyChess's "add engine" check recognises Plugboard as a CECP engine and as
  a UCI one.** ``engineNest.is_uci`` (sends ``uci``/``quit``) and
  ``engineNest.is_cecp`` (sends ``xboard``/``protover 2``/``quit``) must both
  say yes, as in PyChess's Engines dialog (which tries UCI first; its protocol
  choice switches). The engine is added as CECP. Then ``discoverer.addEngine`` and
  ``discoverer.discover()`` run PyChess's own feature negotiation; the engine
  must be discovered (not failed), with ``analyze``, the ``normal`` variant and
  its ``option`` features parsed. PyChess also auto-detects Fairy-Max
  (``/usr/games`` is put on ``PATH``, as for a Debian desktop user).
- **PyChess plays complete games with Plugboard under its clock.** Game 1:
  Plugboard against Plugboard (two processes), with PyChess's defaults for an
  engine-vs-engine game (difficulty 20, pondering off, PyChess's opening book for
  the first 13 plies, which reaches the engine as ``force``/``setboard``).
  Game 2: Plugboard (White) against Fairy-Max, book off, so Plugboard plays from
  the start position (Plugboard against itself again when PyChess found no
  Fairy-Max). 15 s + 0 s each (``level 0 0:15 0``, ``time``/``otim`` before
  every move), adjudicated a draw after 40 plies (the test calls
  ``gamemodel.end(DRAW, DRAW_LENGTH)``, which sends ``result``). Every move is
  validated by PyChess's own board (``CECPEngine`` rejects a move it cannot
  parse or validate) and replayed again here on a fresh PyChess board. The test
  fails if an engine dies, makes an illegal move, loses on time (PyChess's
  ``TimeModel`` calls the flag), the game ends any other way than mate,
  resignation, a draw by the rules, by agreement or by the ply cap, Plugboard
  loses other than by mate or resignation, or Plugboard answers anything with
  ``Error``/``Illegal``.
- **PyChess's hint analyser works with Plugboard.** After game 1, as PyChess's
  game nanny and its "Analyze game" dialog do: ``gamemodel.start_analyzer(HINT)``
  (analyser chosen by md5 in the preferences), then ``analyzer.setBoard(board)``
  for three positions of the game, ``max_analysis_spin`` = 2 s each. PyChess
  must have parsed a score, a depth and a PV for every position, and the PV's
  first move must be legal there.

PyChess 1.0.3 on Python >= 3.9 cannot end a game with an engine at all:
``wait_signal.cancel()`` lacks the ``msg`` parameter that asyncio passes since
3.9 (pychess issue #1918, fixed upstream after 1.0.3), so ``CECPEngine.end()``
raises before sending ``result``/``quit``. The test adds that parameter at run
time (only when it is missing); nothing else of PyChess is changed. Outgoing
and incoming engine lines are recorded by wrapping ``SubProcess``'s write
methods and listening to its ``line`` signal.

Even so, PyChess never delivers ``result`` or ``quit``: ``CECPEngine.kill()``
writes ``quit`` and calls ``SubProcess.terminate()`` (SIGTERM) at once, and
the writes still queued are dropped (the transcripts mark them ``x``). So every
engine process ends by SIGTERM; Plugboard's exit status must be 0 or -SIGTERM,
anything else (or a process still alive 5 s later) fails the test.

PyChess stops each analysis after ``max_analysis_spin`` seconds with ``exit``
and ``setboard 8/8/8/8/8/8/8/8 w - - 0 1`` (a hack for engines that ignore
``exit``), and hides an engine's ``tellusererror`` only if its text contains
``8/8/8/8/8/8/8/8``. Plugboard quotes the refused FEN, so any dialog, for that
empty board or anything else, fails the test.

PyChess runs with a private ``HOME`` and ``XDG_*`` folders inside the
temporary folder (its configuration, engine list and log; the engines see that
``HOME`` too), so nothing of the user's is read or written.

Exit status 0 when everything passed, 1 on a failure (with a message saying
what went wrong), 2 on a usage error. Every file (PyChess's own log, one
protocol transcript per engine process, the PGN) is kept in a temporary folder
whose path is printed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import tempfile
import time

SYSTEM_PYTHON = "/usr/bin/python3"
REEXEC_MARK = "PLUGBOARD_PYCHESS_REEXEC"
# The whole run must end within about two minutes; this alarm is the last resort.
WALL_LIMIT_S = 125
DISCOVERY_LIMIT_S = 45


def log(msg: str) -> None:
    print(msg, flush=True)


def have_pychess() -> bool:
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("gi", "pychess"))


def reexec_if_needed() -> None:
    """Run again under Debian's Python and Xvfb when this interpreter or the display is not suitable."""
    need_python = not have_pychess()
    need_display = not os.environ.get("DISPLAY")
    if not (need_python or need_display):
        return
    if os.environ.get(REEXEC_MARK):
        why = "no module gi/pychess" if need_python else "no DISPLAY"
        print(f"FAIL: re-executed but still {why} (interpreter {sys.executable})", file=sys.stderr)
        sys.exit(2)
    if need_python and not os.path.exists(SYSTEM_PYTHON):
        print("FAIL: PyChess not importable and no /usr/bin/python3 (apt-get install pychess)", file=sys.stderr)
        sys.exit(2)
    python = SYSTEM_PYTHON if need_python else sys.executable
    argv = [python, os.path.abspath(__file__), *sys.argv[1:]]
    if need_display:
        xvfb = shutil.which("xvfb-run")
        if xvfb is None:
            print("FAIL: no DISPLAY and no xvfb-run (apt-get install xvfb xauth)", file=sys.stderr)
            sys.exit(2)
        argv = [xvfb, "-a", *argv]
    os.environ[REEXEC_MARK] = "1"
    sys.stdout.flush()
    os.execv(argv[0], argv)


# Parse the arguments before re-executing, so that --help and usage errors are cheap.
PARSER = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
PARSER.add_argument("engine", help="path to the plugboard binary, e.g. target/release/plugboard")
PARSER.add_argument("--secs", type=int, default=15, help="base time per side in whole seconds (default 15)")
PARSER.add_argument("--gain", type=int, default=0, help="increment in whole seconds (default 0)")
PARSER.add_argument("--max-plies", type=int, default=40, help="draw by DRAW_LENGTH after this many plies (default 40)")
PARSER.add_argument("--spin", type=int, default=2, help="PyChess's max_analysis_spin, seconds per position (default 2)")
PARSER.add_argument("--keep", default=None, help="folder for the logs and PGN (default: a new temp folder)")
PARSER.add_argument("--protocol", choices=("xboard", "uci"), default="xboard",
                    help="the protocol PyChess adds and plays Plugboard with (default xboard, CECP)")
ARGS = PARSER.parse_args()
PROTOCOL_WORDS = "UCI" if ARGS.protocol == "uci" else "CECP"
ENGINE_PATH = os.path.abspath(ARGS.engine)
if not (os.path.isfile(ENGINE_PATH) and os.access(ENGINE_PATH, os.X_OK)):
    print(f"FAIL: engine binary not found or not executable: {ENGINE_PATH}", file=sys.stderr)
    sys.exit(2)
if 2 * (2 * ARGS.secs + ARGS.max_plies * ARGS.gain) + 3 * (ARGS.spin + 1) + DISCOVERY_LIMIT_S > WALL_LIMIT_S:
    print(f"FAIL: --secs/--gain/--max-plies/--spin allow more than the {WALL_LIMIT_S} s bound", file=sys.stderr)
    sys.exit(2)

reexec_if_needed()

# ---------------------------------------------------------------------------
# From here on: Debian's Python, a display, PyChess importable.
# PyChess reads and writes its configuration at import time: give it private folders first.
# ---------------------------------------------------------------------------

WORKDIR = os.path.abspath(ARGS.keep or tempfile.mkdtemp(prefix="plugboard-pychess-gui-"))
os.makedirs(WORKDIR, exist_ok=True)
HOME = os.path.join(WORKDIR, "home")
os.makedirs(HOME, exist_ok=True)
os.environ["HOME"] = HOME  # the engines' settings and plugin folder too
for var, sub in (("XDG_CONFIG_HOME", ".config"), ("XDG_DATA_HOME", ".local/share"), ("XDG_CACHE_HOME", ".cache")):
    os.environ[var] = os.path.join(HOME, sub)
if "/usr/games" not in os.environ.get("PATH", "").split(os.pathsep):
    os.environ["PATH"] = os.environ.get("PATH", "") + os.pathsep + "/usr/games"

import asyncio  # noqa: E402
import gettext  # noqa: E402
import inspect  # noqa: E402
import logging  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402

gettext.install("pychess", names=("ngettext",))

import gi  # noqa: E402

gi.require_version("Gtk", "3.0")
gi.require_version("GLib", "2.0")
from gi.repository import GLib, Gtk  # noqa: E402

import pychess  # noqa: E402
from pychess import Utils as pychess_utils  # noqa: E402
from pychess.System import conf  # noqa: E402
from pychess.System.SubProcess import SubProcess  # noqa: E402
from pychess.Players.engineNest import discoverer, is_cecp, is_uci  # noqa: E402
from pychess.Utils.Board import Board  # noqa: E402
from pychess.Utils.GameModel import GameModel  # noqa: E402
from pychess.Utils.TimeModel import TimeModel  # noqa: E402
from pychess.Utils.Move import parseAny, toSAN  # noqa: E402
from pychess.Utils.logic import validate  # noqa: E402
from pychess.Utils.lutils.lmove import ParsingError  # noqa: E402
from pychess.Utils.repr import reprReason_long, reprResult_long  # noqa: E402
from pychess.Utils.const import (  # noqa: E402
    BLACK, BLACKWON, DRAW, DRAW_50MOVES, DRAW_AGREE, DRAW_INSUFFICIENT, DRAW_LENGTH, DRAW_REPETITION,
    DRAW_STALEMATE, HINT, NORMALCHESS, WHITE, WHITEWON, WON_MATE, WON_RESIGN,
)
from pychess.Variants import variants  # noqa: E402

RESULT_TEXT = {WHITEWON: "1-0", BLACKWON: "0-1", DRAW: "1/2-1/2"}
# Draws by the rules, by PyChess's ply cap, or agreed (an engine's `offer draw` answered by the other's).
NORMAL_DRAWS = (DRAW_REPETITION, DRAW_50MOVES, DRAW_INSUFFICIENT, DRAW_STALEMATE, DRAW_LENGTH, DRAW_AGREE)
SHORT_ENDINGS = (WON_MATE, WON_RESIGN, DRAW_REPETITION, DRAW_STALEMATE, DRAW_AGREE)
EMPTY_SETBOARD = "setboard 8/8/8/8/8/8/8/8 w - - 0 1"


class TestFailure(Exception):
    """A failure of the engine under test (or of the test set-up), with a readable message."""


# ---------------------------------------------------------------------------
# PyChess 1.0.3 on Python >= 3.9: Task.cancel() passes `msg` to the future it waits on.
# ---------------------------------------------------------------------------

SHIMMED = False
if "msg" not in inspect.signature(pychess_utils.wait_signal.cancel).parameters:
    _original_cancel = pychess_utils.wait_signal.cancel

    def _cancel_accepting_msg(self, msg=None):  # noqa: ANN001 - PyChess's own signature plus msg
        return _original_cancel(self)

    pychess_utils.wait_signal.cancel = _cancel_accepting_msg
    SHIMMED = True


# ---------------------------------------------------------------------------
# Transcripts of every engine process PyChess starts (observation only)
# ---------------------------------------------------------------------------


@dataclass
class Transcript:
    index: int
    path: str  # the engine binary
    pid: int
    fh: object
    lines: list = field(default_factory=list)  # (seconds, ">" sent, "x" not delivered, "<" read, text)
    queued: list = field(default_factory=list)  # pieces written, their asyncio task not run yet
    pending: str = ""  # delivered pieces of a line not finished yet
    pending_sent: bool = True
    died: bool = False
    proc: object = None

    @property
    def is_plugboard(self) -> bool:
        return os.path.realpath(self.path) == os.path.realpath(ENGINE_PATH)

    @property
    def label(self) -> str:
        return f"{os.path.basename(self.path)}#{self.index} (pid {self.pid})"

    def note(self, direction: str, text: str) -> None:
        stamp = time.monotonic() - T0
        self.lines.append((stamp, direction, text))
        self.fh.write(f"{stamp:9.3f} {direction} {text}\n")
        self.fh.flush()

    def sent(self) -> list:
        return [t for _, d, t in self.lines if d == ">"]

    def received(self) -> list:
        return [t for _, d, t in self.lines if d == "<"]


T0 = time.monotonic()
TRANSCRIPTS: list[Transcript] = []
_BY_PROC: dict[int, Transcript] = {}
_original_start = SubProcess.start
_original_write = SubProcess.write
_original_write_stdin = SubProcess.write_stdin
_original_terminate = SubProcess.terminate


async def _recording_start(self):  # noqa: ANN001
    await _original_start(self)
    index = len(TRANSCRIPTS) + 1
    name = f"engine-{index:02d}-{os.path.basename(self.path)}.log"
    tr = Transcript(index, self.path, self.pid, open(os.path.join(WORKDIR, name), "w", encoding="utf-8"),
                    proc=self.proc)
    TRANSCRIPTS.append(tr)
    _BY_PROC[id(self)] = tr
    self.connect("line", lambda _proc, line: tr.note("<", line))

    def on_died(_proc):
        tr.died = True
        tr.note("!", "end of output (process gone)")

    self.connect("died", on_died)


# SubProcess.write() queues one asyncio task per piece of text (print() writes the text and the
# newline separately); the task writes nothing once terminate() has run, and terminate() cancels
# the last one. So a line counts as sent only if its task ran before terminate(): lines PyChess
# wrote but never delivered are recorded with "x".


def _recording_write(self, text):  # noqa: ANN001
    tr = _BY_PROC.get(id(self))
    if tr is not None:
        tr.queued.append(text)
    return _original_write(self, text)


def _deliver(tr: Transcript, sent: bool) -> None:
    if not tr.queued:
        return
    piece = tr.queued.pop(0)
    if piece.strip():
        tr.pending_sent = tr.pending_sent and sent if tr.pending else sent
    tr.pending += piece
    while "\n" in tr.pending:
        line, tr.pending = tr.pending.split("\n", 1)
        tr.note(">" if tr.pending_sent else "x", line)
        tr.pending_sent = True


async def _recording_write_stdin(self, writer, line):  # noqa: ANN001
    tr = _BY_PROC.get(id(self))
    if tr is not None:
        _deliver(tr, not self.terminated)
    return await _original_write_stdin(self, writer, line)


def _recording_terminate(self):  # noqa: ANN001
    _original_terminate(self)
    tr = _BY_PROC.get(id(self))
    if tr is not None:
        # Tasks already queued run first (and see terminated); what is left was cancelled.
        def flush() -> None:
            while tr.queued:
                _deliver(tr, False)

        asyncio.get_event_loop().call_soon(flush)


SubProcess.start = _recording_start
SubProcess.write = _recording_write
SubProcess.write_stdin = _recording_write_stdin
SubProcess.terminate = _recording_terminate


# ---------------------------------------------------------------------------
# PyChess's log (the root logger): everything to a file, warnings and errors kept
# ---------------------------------------------------------------------------


class LogCollector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.problems: list[str] = []  # PyChess's warnings and errors
        self.asyncio_notes: list[str] = []  # e.g. PyChess's discovery tasks left pending
        self.book_moves = 0

    def emit(self, record: logging.LogRecord) -> None:
        try:
            msg = record.getMessage()
        except Exception:  # noqa: BLE001
            msg = str(record.msg)
        if record.levelno >= logging.WARNING and record.name != "root":
            self.asyncio_notes.append(f"{record.name} {record.levelname}: {msg.splitlines()[0] if msg else msg}")
        elif record.levelno >= logging.WARNING:
            self.problems.append(f"{record.levelname}: {msg.splitlines()[0] if msg else msg}")
        elif "from book" in msg and "got move=" in msg:
            self.book_moves += 1


root_logger = logging.getLogger()
root_logger.setLevel(logging.DEBUG)
pychess_log_path = os.path.join(WORKDIR, "pychess.log")
_file_handler = logging.FileHandler(pychess_log_path, mode="w", encoding="utf-8")
_file_handler.setFormatter(logging.Formatter("%(relativeCreated)9.0f %(levelname)s %(message)s"))
root_logger.addHandler(_file_handler)
COLLECTOR = LogCollector()
root_logger.addHandler(COLLECTOR)
logging.getLogger("asyncio").setLevel(logging.WARNING)


# ---------------------------------------------------------------------------
# Dialogs PyChess opens (for tellusererror)
# ---------------------------------------------------------------------------

DIALOGS: list[str] = []


def collect_dialogs() -> None:
    for window in Gtk.Window.list_toplevels():
        if isinstance(window, Gtk.MessageDialog) and window.get_visible():
            DIALOGS.append(" ".join((window.props.text or "").split()))
            window.destroy()


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def result_words(status: int, reason: int, white: str, black: str) -> str:
    names = {"white": white, "black": black, "mover": "?",
             "winner": white if status == WHITEWON else black,
             "loser": black if status == WHITEWON else white}
    try:
        return (reprResult_long.get(status, str(status)) % names) + ": " + (reprReason_long.get(reason, str(reason)) % names)
    except (KeyError, TypeError, ValueError):
        return f"status {status}, reason {reason}"


def engine_dict(name: str) -> dict:
    engine = discoverer.getEngineByName(name)
    if engine is None:
        raise TestFailure(f"PyChess has no engine named {name!r}; it has {[e['name'] for e in discoverer.getEngines()]}")
    return engine


async def discover() -> dict:
    """What PyChess's Engines dialog does on 'Add': is_uci, is_cecp, addEngine, discover()."""
    # Plugboard speaks both: the dialog's protocol choice decides, and this test plays CECP.
    if not is_uci([ENGINE_PATH]):
        raise TestFailure("PyChess's is_uci() does not recognise Plugboard as a UCI engine")
    if not is_cecp([ENGINE_PATH]):
        raise TestFailure("PyChess's is_cecp() does not recognise Plugboard as a CECP engine")
    log(f"PyChess's protocol check: is_uci=True, is_cecp=True; added as a {PROTOCOL_WORDS} engine")
    plugboard_name = os.path.basename(ENGINE_PATH)
    discoverer.addEngine(plugboard_name, ENGINE_PATH, ARGS.protocol, None, None)
    finished = asyncio.Event()
    failed: list[str] = []
    discoverer.connect("all_engines_discovered", lambda _d: finished.set())
    discoverer.connect("engine_failed", lambda _d, name, _e: failed.append(name))
    discoverer.discover()
    try:
        await asyncio.wait_for(finished.wait(), DISCOVERY_LIMIT_S)
    except asyncio.TimeoutError as err:
        # PyChess discovers every engine it knows on this machine at once and waits for all.
        # Only Plugboard and the opponent of game 2 matter here; name whichever is stuck.
        pending = [name for name, (_engine, done) in discoverer.toBeRechecked.items() if not done]
        needed = [name for name in pending if name.lower() in (plugboard_name.lower(), "fairymax")]
        if needed:
            tails = [f"{tr.label}: last lines {[t for _, _, t in tr.lines[-5:]]}" for tr in TRANSCRIPTS
                     if os.path.basename(tr.path).lower() in [n.lower() for n in needed]]
            raise TestFailure(f"PyChess's discovery of {', '.join(needed)} did not finish within "
                              f"{DISCOVERY_LIMIT_S} s; " + ("; ".join(tails) or "no process started")) from err
        log(f"note: PyChess's discovery of {', '.join(pending)} (not used here) did not finish within "
            f"{DISCOVERY_LIMIT_S} s; going on without it")
    names = [e["name"] for e in discoverer.getEngines()]
    log(f"PyChess discovered: {', '.join(names)}" + (f"; failed: {', '.join(failed)}" if failed else ""))
    if any(n.lower() == os.path.basename(ENGINE_PATH).lower() for n in failed):
        raise TestFailure("PyChess's discovery failed on Plugboard (no feature done=1 / died)")
    engine = engine_dict(os.path.basename(ENGINE_PATH))
    if engine.get("protocol") != ARGS.protocol:
        raise TestFailure(f"PyChess recorded Plugboard as {engine.get('protocol')!r}, not {ARGS.protocol!r}")
    if not discoverer.is_analyzer(engine):
        raise TestFailure(f"PyChess does not take Plugboard for an analyser: {engine}")
    if ARGS.protocol == "xboard" and "normal" not in (engine.get("variants") or []):
        raise TestFailure(f"PyChess did not record the 'normal' variant: {engine.get('variants')}")
    option_names = [o["name"] for o in engine.get("options", [])]
    if ARGS.protocol == "uci":
        for required in ("UCI_Variant", "Hash", "Ponder", "MultiPV"):
            if required not in option_names:
                raise TestFailure(f"PyChess did not parse UCI option {required!r}; it has {option_names}")
    for required in ("Evaluation", "Search"):
        if required not in option_names:
            raise TestFailure(f"PyChess did not parse option {required!r}; it has {option_names}")
    log(f"PyChess's record of Plugboard: protocol={engine.get('protocol')} analyze={engine.get('analyze')} "
        f"variants={','.join(engine.get('variants') or ['(UCI_Variant)'])}")
    log("  options: " + "; ".join(
        f"{o['name']} ({o['type']}" + (f" {'/'.join(o['choices'])}" if o.get("choices") else "")
        + (f", default {o['default']}" if "default" in o else "") + ")" for o in engine["options"]))
    return engine


@dataclass
class GameRecord:
    label: str
    white: str
    black: str
    result: str
    words: str
    plies: int
    sans: list
    book_moves: int
    plugboard_moves: int
    clocks: tuple
    pgn: str
    gamemodel: object = None


def replay_and_check(moves: list) -> tuple[list, list]:
    """Replays the moves on a fresh PyChess board (validating each); returns the SANs and boards."""
    board = Board(setup=True)
    sans, boards = [], [board]
    for i, move in enumerate(moves, start=1):
        if not validate(board, move):
            raise TestFailure(f"ply {i}: PyChess's board says {move} is illegal in {board.asFen()}")
        sans.append(toSAN(board, move))
        board = board.move(move)
        boards.append(board)
    return sans, boards


async def play_game(label: str, white: dict, black: dict, book_plies: int) -> GameRecord:
    secs, gain = ARGS.secs, ARGS.gain
    conf.set("book_depth_max", book_plies)  # read by GameModel.start()
    variant = variants[NORMALCHESS]
    gamemodel = GameModel(TimeModel(secs, gain), variant)
    players = []
    for eng, colour in ((white, WHITE), (black, BLACK)):
        # As the New Game dialog: difficulty 20, and forcePonderOff in engine-vs-engine games.
        players.append(await discoverer.initPlayerEngine(eng, colour, 20, variant, secs, gain, 0, True))
    gamemodel.setPlayers(players)
    gamemodel.tags["Event"] = "Plugboard interop (PyChess)"
    gamemodel.tags["Site"] = "tests/interop/pychess_game.py"
    gamemodel.tags["Round"] = label.split()[-1]
    ended = asyncio.Event()
    book_before = COLLECTOR.book_moves
    log(f"--- {label}: {white['name']} (White) vs {black['name']} (Black), {secs}s + {gain}s, "
        f"book {book_plies} plies, cap {ARGS.max_plies} plies")

    def on_changed(model, ply):
        if ply >= ARGS.max_plies and model.status not in RESULT_TEXT:
            model.end(DRAW, DRAW_LENGTH)

    gamemodel.connect("game_changed", on_changed)
    gamemodel.connect("game_ended", lambda _m, _r: ended.set())
    t_game = time.monotonic()
    gamemodel.start()
    limit = 2 * secs + ARGS.max_plies * gain + 15
    try:
        await asyncio.wait_for(ended.wait(), limit)
    except asyncio.TimeoutError as err:
        raise TestFailure(f"{label}: the game did not end within {limit} s (ply {gamemodel.ply}; "
                          f"a player stopped answering?)") from err
    # Let PyChess finish: result/quit to the engines, its loop noticing the end.
    await asyncio.sleep(0.5)
    elapsed = time.monotonic() - t_game
    status, reason = gamemodel.status, gamemodel.reason
    words = result_words(status, reason, white["name"], black["name"])
    plug_colours = [c for c, e in ((WHITE, white), (BLACK, black)) if e["command"] == ENGINE_PATH]
    for player, colour in zip(players, (WHITE, BLACK)):
        if getattr(player, "invalid_move", None):
            who = "Plugboard" if colour in plug_colours else "the opponent"
            raise TestFailure(f"{label}: {who} ({'White' if colour == WHITE else 'Black'}) sent a move PyChess "
                              f"rejected: {player.invalid_move!r} ({words})")
    if status not in RESULT_TEXT:
        raise TestFailure(f"{label}: game not finished normally: {words} (status {status}, reason {reason}) "
                          f"after {gamemodel.ply} plies")
    if status == DRAW and reason not in NORMAL_DRAWS:
        raise TestFailure(f"{label}: unexpected kind of draw: {words}")
    notes = []
    if status != DRAW and reason not in (WON_MATE, WON_RESIGN):
        loser_colour = BLACK if status == WHITEWON else WHITE
        if loser_colour in plug_colours:
            raise TestFailure(f"{label}: Plugboard lost other than by mate or resignation: {words}")
        notes.append(f"the opponent lost: {words}")
    moves = list(gamemodel.moves)
    sans, _ = replay_and_check(moves)
    if len(moves) < 10 and reason not in SHORT_ENDINGS:
        raise TestFailure(f"{label}: only {len(moves)} plies played: {words}")
    book_moves = COLLECTOR.book_moves - book_before
    plugboard_moves = sum(1 for i in range(len(moves)) if i % 2 in plug_colours) - (
        book_moves if len(plug_colours) == 2 else 0)
    if plugboard_moves < 1:
        raise TestFailure(f"{label}: Plugboard made no move of its own ({len(moves)} plies, {book_moves} from the book)")
    clocks = (gamemodel.timemodel.getPlayerTime(WHITE), gamemodel.timemodel.getPlayerTime(BLACK))
    result = RESULT_TEXT[status]
    movetext = []
    for i, san in enumerate(sans):
        movetext.append(f"{i // 2 + 1}. {san}" if i % 2 == 0 else san)
    tags = dict(gamemodel.tags)
    tags.update({"White": white["name"], "Black": black["name"], "Result": result, "Termination": words,
                 "PlyCount": str(len(sans))})
    pgn = "\n".join(f'[{k} "{v}"]' for k, v in tags.items() if v) + "\n\n" + " ".join(movetext) + f" {result}\n"
    log(f"{label}: {result} ({words}) after {len(sans)} plies in {elapsed:.1f} s; "
        f"{book_moves} book plies; clocks left W {clocks[0]:.1f} s, B {clocks[1]:.1f} s")
    log("  " + " ".join(movetext))
    for note in notes:
        log("  note: " + note)
    # A UCIEngine has no CECP features; its options were checked at discovery.
    RUN_STATE.setdefault("features", dict(getattr(players[0], "features", {})))
    return GameRecord(label, white["name"], black["name"], result, words, len(sans), sans, book_moves,
                      plugboard_moves, clocks, pgn, gamemodel)


async def analyse(gamemodel: GameModel, engine: dict) -> list[str]:
    """PyChess's hint analyser on a finished game, as the game nanny and 'Analyze game' drive it."""
    conf.set("analyzer_check", True)
    conf.set("ana_combobox", engine["md5"])
    conf.set("max_analysis_spin", ARGS.spin)
    conf.set("infinite_analysis", False)
    await asyncio.wait_for(gamemodel.start_analyzer(HINT), 15)
    analyzer = gamemodel.spectators.get(HINT)
    if analyzer is None:
        raise TestFailure("gamemodel.start_analyzer(HINT) started no analyser (PyChess did not pick Plugboard)")
    if str(analyzer.engine.path) != ENGINE_PATH:
        raise TestFailure(f"PyChess chose {analyzer.engine.path} as analyser, not Plugboard")
    if hasattr(analyzer, "ready_moves_event"):
        try:
            await asyncio.wait_for(analyzer.ready_moves_event.wait(), 15)
        except asyncio.TimeoutError as err:
            raise TestFailure("the analyser never got ready (no feature done=1)") from err
    else:
        # PyChess's UCIEngine has no such event: it ignores boards until `readyok` sets readyMoves.
        deadline = time.monotonic() + 15
        while not analyzer.readyMoves:
            if time.monotonic() > deadline:
                raise TestFailure("the UCI analyser never got ready (no readyok)")
            await asyncio.sleep(0.05)
    boards = gamemodel.boards
    picks = sorted({0, len(boards) // 2, len(boards) - 1})
    notes = []
    for index in picks:
        board = boards[index]
        analyzer.setBoard(board)
        await asyncio.sleep(ARGS.spin + 0.6)
        entry = gamemodel.scores.get(board.ply)
        fen = board.asFen()
        if entry is None:
            raise TestFailure(f"PyChess parsed no analysis for ply {board.ply} ({fen}) within {ARGS.spin + 0.6} s")
        pv, score, depth = entry
        if not pv:
            raise TestFailure(f"ply {board.ply}: empty PV in PyChess's analysis ({entry})")
        try:
            first = parseAny(board, pv[0])
        except ParsingError as err:
            raise TestFailure(f"ply {board.ply}: PyChess cannot parse the PV's first move {pv[0]!r} in {fen}") from err
        if not validate(board, first):
            raise TestFailure(f"ply {board.ply}: PV starts with an illegal move {pv[0]!r} in {fen}")
        note = (f"ply {board.ply}: depth {depth} score {score} (side to move) PV {' '.join(pv[:8])}"
                f"{' ...' if len(pv) > 8 else ''}")
        log("  analysis " + note)
        notes.append(note)
    gamemodel.remove_analyzer(HINT)
    return notes


def protocol_problems() -> tuple[list, list]:
    """Plugboard's replies that show a problem: (failures, answers to PyChess's empty-board stop hack)."""
    failures, hack = [], []
    for tr in TRANSCRIPTS:
        if not tr.is_plugboard:
            continue
        last_sent = ""
        sent_empty = False
        for stamp, direction, text in tr.lines:
            if direction == ">":
                last_sent = text
                sent_empty = sent_empty or text == EMPTY_SETBOARD
                continue
            if direction != "<":
                continue
            word = text.split()[0] if text.split() else ""
            if ARGS.protocol == "uci":
                # UCI has no error reply: Plugboard says why in an `info string`.
                if text.startswith(("info string Error", "info string Illegal")):
                    failures.append(f"{tr.label} at {stamp:.3f} s (after {last_sent!r}): {text!r}")
                continue
            # Replies can lag behind later commands, so the hack's answer is known by the FEN it quotes.
            if word == "tellusererror" and sent_empty and EMPTY_SETBOARD[len("setboard "):] in text:
                hack.append(text[len("tellusererror"):].strip())
            elif word.startswith(("Error", "Illegal", "tellusererror")):
                failures.append(f"{tr.label} at {stamp:.3f} s (after {last_sent!r}): {text!r}")
    return failures, hack


def feature_summary() -> tuple[str, str]:
    """What the first Plugboard process announced, and PyChess's accepted/rejected replies."""
    for tr in TRANSCRIPTS:
        if not tr.is_plugboard:
            continue
        announced = [t for t in tr.received() if t.startswith("feature ") and "option=" not in t]
        if not any("done=1" in t for t in announced):
            continue
        replies = [t for t in tr.sent() if t.startswith(("accepted ", "rejected "))]
        accepted = sorted({t.split()[1] for t in replies if t.startswith("accepted")})
        rejected = sorted({t.split()[1] for t in replies if t.startswith("rejected")})
        keys = []
        for line in announced:
            for item in line[len("feature "):].split():
                if "=" in item:
                    keys.append(item.split("=", 1)[0])
        unanswered = sorted(set(keys) - set(accepted) - set(rejected))
        return (" | ".join(announced),
                f"accepted {' '.join(accepted)}; rejected {' '.join(rejected)}; "
                f"no reply to {' '.join(unanswered) or '-'}")
    return "(none seen)", ""


def commands_sent() -> str:
    """How often PyChess sent each command word to Plugboard (all processes, lines actually sent)."""
    words: dict[str, int] = {}
    for tr in TRANSCRIPTS:
        if tr.is_plugboard:
            for text in tr.sent():
                word = text.split()[0] if text.split() else "(empty)"
                words[word] = words.get(word, 0) + 1
    return " ".join(f"{w}:{n}" for w, n in sorted(words.items()))


async def wait_exits(seconds: float) -> tuple[list, list]:
    """Waits for every engine process PyChess started: (failures, exit statuses)."""
    deadline = time.monotonic() + seconds
    failures, codes = [], []
    for tr in TRANSCRIPTS:
        proc = tr.proc
        while proc.returncode is None and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        code = proc.returncode
        codes.append(f"{tr.label}={code}")
        if not tr.is_plugboard:
            continue
        if code is None:
            failures.append(f"{tr.label} still running {seconds:.0f} s after PyChess's quit and SIGTERM")
        elif code not in (0, -signal.SIGTERM):
            # PyChess sends `quit` and SIGTERM right after it: either may end the engine.
            failures.append(f"{tr.label} exited with status {code}")
    return failures, codes


def kill_leftovers() -> None:
    for tr in TRANSCRIPTS:
        proc = tr.proc
        if proc is not None and proc.returncode is None:
            try:
                proc.kill()
            except ProcessLookupError:
                pass


RUN_STATE: dict = {}


async def run() -> tuple[list, list]:
    engine = await discover()
    games: list[GameRecord] = []
    analysis: list[str] = []
    try:
        fairymax = discoverer.getEngineByName("fairymax")
        games.append(await play_game("game 1", engine, engine, 13))
        collect_dialogs()
        opponent = fairymax if fairymax is not None else engine
        games.append(await play_game("game 2", engine, opponent, 0))
        collect_dialogs()
        log("--- PyChess's hint analyser (Plugboard) on game 1")
        analysis = await analyse(games[0].gamemodel, engine)
        await asyncio.sleep(0.3)
        collect_dialogs()
    finally:
        RUN_STATE["games"] = games
    for model in (g.gamemodel for g in games):
        model.terminate()
    failures, codes = await wait_exits(5)
    RUN_STATE["exit_codes"] = codes
    if failures:
        raise TestFailure("engine process ends: " + "; ".join(failures))
    return games, analysis


def main() -> int:
    log(f"engine:   {ENGINE_PATH}")
    log(f"PyChess:  {pychess.VERSION} ({os.path.dirname(pychess.__file__)}), Python {sys.version.split()[0]}, "
        f"DISPLAY={os.environ.get('DISPLAY')}")
    log(f"files:    {WORKDIR}")
    if SHIMMED:
        log("note: added the msg parameter to pychess.Utils.wait_signal.cancel (pychess issue #1918)")

    def on_alarm(signum: int, frame: object) -> None:
        print(f"\nFAIL: whole test exceeded {WALL_LIMIT_S} s", flush=True)
        kill_leftovers()
        os._exit(1)

    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(WALL_LIMIT_S)

    loop = asyncio.SelectorEventLoop()
    asyncio.set_event_loop(loop)
    context = GLib.MainContext.default()

    def glib_pump() -> None:  # as /usr/games/pychess does
        while context.pending():
            context.iteration(False)
        loop.call_later(0.01, glib_pump)

    loop.call_soon(glib_pump)
    status = 0
    games: list[GameRecord] = []
    analysis: list[str] = []
    error = None
    try:
        games, analysis = loop.run_until_complete(asyncio.wait_for(run(), WALL_LIMIT_S - 5))
    except TestFailure as err:
        error = str(err)
    except asyncio.TimeoutError:
        error = f"the PyChess run did not finish within {WALL_LIMIT_S - 5} s"
    except Exception as err:  # noqa: BLE001 - a PyChess exception is a failure too, with its type
        import traceback

        traceback.print_exc()
        error = f"unexpected {type(err).__name__}: {err}"
    games = games or RUN_STATE.get("games", [])
    collect_dialogs()

    failures, hack = protocol_problems()
    hack_dialogs = [d for d in DIALOGS if any(text and text in d for text in hack)]
    other_dialogs = [d for d in DIALOGS if d not in hack_dialogs]
    if failures:
        lines = "Plugboard answered with an error:\n  " + "\n  ".join(failures[:20])
        error = lines if error is None else error + "\n" + lines
    if error is None and other_dialogs:
        error = "PyChess showed error dialogs: " + " | ".join(other_dialogs[:10])
    # Plugboard quotes the FEN it refuses, which is what PyChess needs to keep quiet.
    if error is None and hack_dialogs:
        error = "PyChess showed a dialog for its own empty-board setboard: " + hack_dialogs[0]
    pychess_errors = [p for p in COLLECTOR.problems if p.startswith(("ERROR", "CRITICAL"))]
    if error is None and pychess_errors:
        error = "PyChess logged errors: " + " | ".join(pychess_errors[:10])

    kill_leftovers()
    signal.alarm(0)
    with open(os.path.join(WORKDIR, "games.pgn"), "w", encoding="utf-8") as fh:
        for record in games:
            fh.write(record.pgn + "\n")

    announced, replies = feature_summary()
    log("\n=== summary")
    log(f"features Plugboard announced: {announced}")
    log(f"PyChess's replies: {replies}")
    features = RUN_STATE.get("features")
    if features:
        log("PyChess's CECPEngine.features after the handshake: " + " ".join(
            f"{k}={v}" for k, v in features.items() if k not in ("option", "egt")))
    log(f"commands PyChess sent to Plugboard (all its processes): {commands_sent()}")
    for record in games:
        log(f"{record.label}: {record.white} vs {record.black}: {record.result} ({record.words}), "
            f"{record.plies} plies ({record.book_moves} from PyChess's book, {record.plugboard_moves} "
            f"by Plugboard), clocks left W {record.clocks[0]:.1f} s B {record.clocks[1]:.1f} s")
    for note in analysis:
        log(f"analysis {note}")
    if hack:
        log(f"PyChess's analysis stop hack ({EMPTY_SETBOARD!r}) was answered {len(hack)} time(s) with "
            f"'tellusererror {hack[0]}'; PyChess showed {len(hack_dialogs)} dialog(s) for it"
            + (f": {hack_dialogs[0]!r}" if hack_dialogs else "")
            + " (it hides the message only when it contains 8/8/8/8/8/8/8/8)")
    if COLLECTOR.problems:
        log(f"PyChess warnings ({len(COLLECTOR.problems)}): " + " | ".join(sorted(set(COLLECTOR.problems))[:8]))
    if COLLECTOR.asyncio_notes:
        log(f"asyncio complaints about PyChess's tasks ({len(COLLECTOR.asyncio_notes)}, not counted): "
            + " | ".join(sorted(set(COLLECTOR.asyncio_notes))[:3]))
    log(f"engine processes started by PyChess, exit statuses: {' '.join(RUN_STATE.get('exit_codes', [])) or '-'}")
    log(f"files: {WORKDIR} (pychess.log, engine-NN-*.log transcripts, games.pgn)")
    log(f"elapsed {time.monotonic() - T0:.1f} s")
    if error is not None:
        status = 1
        log(f"\nFAIL: {error}")
    else:
        log("PASS")
    sys.stdout.flush()
    # PyChess leaves tasks and GLib sources behind; do not wait for them.
    os._exit(status)


if __name__ == "__main__":
    main()
