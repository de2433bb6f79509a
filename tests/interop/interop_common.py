"""What the python-chess interop tests share: their failure type, a CECP engine
driven on pipes, the capture of python-chess's protocol log and warnings, the
wall-clock limit, and the end of the summary.

Imported by ``python_chess_game.py`` and ``protocol_tour.py`` (run as scripts,
so this folder is on ``sys.path``).
"""

from __future__ import annotations

import logging
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from typing import IO, Optional, Union

FEATURE_RE = re.compile(r'(\w+)=("[^"]*"|\S+)')


class TestFailure(Exception):
    """A failure of the engine under test (or of the test set-up), with a readable message
    (and, for a part that goes on after a failure, the notes of what passed)."""

    def __init__(self, message: str, notes: Optional[list[str]] = None) -> None:
        super().__init__(message)
        self.notes = notes or []


def log(msg: str) -> None:
    print(msg, flush=True)


def executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def engine_path(arg: str) -> Optional[str]:
    """The absolute path of the engine binary named on the command line, or None (said on
    stderr) when there is none to run."""
    path = os.path.abspath(arg)
    if not executable(path):
        print(f"FAIL: engine binary not found or not executable: {path}", file=sys.stderr)
        return None
    return path


class WarningCollector(logging.Handler):
    """python-chess's warnings and errors (e.g. 'Unexpected engine output', a bad hint), as
    'LEVEL: message'."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.levelname}: {record.getMessage()}")


def capture_python_chess_logs(transcript_path: str, *handlers: logging.Handler) -> WarningCollector:
    """python-chess logs every line it sends and reads at DEBUG level: keep them all in
    `transcript_path`, pass them to `handlers` too, and collect the warnings. python-chess
    reports some failures through the asyncio exception handler: those are kept as well."""
    chess_logger = logging.getLogger("chess.engine")
    chess_logger.setLevel(logging.DEBUG)
    transcript = logging.FileHandler(transcript_path, mode="w", encoding="utf-8")
    transcript.setFormatter(logging.Formatter("%(relativeCreated)9.0f %(levelname)s %(message)s"))
    warnings = WarningCollector()
    for handler in (transcript, *handlers, warnings):
        chess_logger.addHandler(handler)
    chess_logger.propagate = False
    asyncio_logger = logging.getLogger("asyncio")
    asyncio_logger.addHandler(transcript)
    asyncio_logger.addHandler(warnings)
    asyncio_logger.propagate = False
    return warnings


def arm_wall_limit(seconds: int) -> None:
    """The last resort against a hang: TestFailure in the main thread after `seconds`,
    unless `disarm_wall_limit` comes first."""

    def on_alarm(signum: int, frame: object) -> None:
        raise TestFailure(f"whole test exceeded {seconds} s")

    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(seconds)


def disarm_wall_limit() -> None:
    signal.alarm(0)


def summary_end(warnings: WarningCollector, files: str, elapsed: float, passed: bool, shown: int = 20) -> None:
    """The last lines of a summary: python-chess's complaints, where the files are, the time
    taken and the verdict."""
    if warnings.messages:
        log(f"python-chess warnings/errors ({len(warnings.messages)}), first ones:")
        for msg in warnings.messages[:shown]:
            log("  " + msg.splitlines()[0])
    log(f"files: {files}")
    log(f"elapsed {elapsed:.1f} s")
    log("PASS" if passed else "FAIL")


class PipeEngine:
    """A CECP engine on pipes, read by a thread of its own; every line either way is kept
    with its time, in `history` and in a transcript file. `label` names it in failures."""

    def __init__(self, cmd: list[str], transcript_path: str, cwd: str, stderr: Union[int, IO[str], None],
                 label: str) -> None:
        self.label = label
        self.transcript = open(transcript_path, "w", encoding="utf-8")
        self.t0 = time.monotonic()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                                     text=True, bufsize=1, cwd=cwd)
        self.queue: "queue.Queue[Optional[tuple[float, str]]]" = queue.Queue()
        self.history: list[tuple[float, str, str]] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._reader, daemon=True).start()

    def _note(self, direction: str, line: str) -> None:
        now = time.monotonic()
        with self.lock:
            self.history.append((now, direction, line))
            self.transcript.write(f"{now - self.t0:9.3f} {direction} {line}\n")
            self.transcript.flush()

    def _reader(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            line = raw.rstrip("\r\n")
            self._note("<", line)
            self.queue.put((time.monotonic(), line))
        self.queue.put(None)  # end of output: the process has gone

    def send(self, *lines: str) -> float:
        """Writes each line; returns the time the last was written."""
        assert self.proc.stdin is not None
        for line in lines:
            self._note(">", line)
            try:
                self.proc.stdin.write(line + "\n")
                self.proc.stdin.flush()
            except (BrokenPipeError, OSError) as err:
                raise TestFailure(f"{self.label}: cannot write {line!r}: {err} (status {self.proc.poll()})") from err
        return time.monotonic()

    def read(self, timeout: float) -> Optional[tuple[float, str]]:
        """The next line with the time it came, or None after `timeout` seconds; raises if
        the process ended."""
        try:
            item = self.queue.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None
        if item is None:
            self.queue.put(None)
            raise TestFailure(f"{self.label} exited unexpectedly (status {self.proc.poll()}); last lines:\n"
                              f"{self.tail()}")
        return item

    def drain(self) -> list[tuple[float, str]]:
        """The lines already waiting (e.g. a result printed right after a move)."""
        out = []
        while True:
            try:
                item = self.queue.get_nowait()
            except queue.Empty:
                return out
            if item is None:
                self.queue.put(None)
                return out
            out.append(item)

    def tail(self, n: int = 14) -> str:
        with self.lock:
            items = self.history[-n:]
        return "\n".join(f"    {t - self.t0:8.3f} {d} {line}" for (t, d, line) in items)

    def handshake(self) -> dict[str, str]:
        """`xboard`, `protover 2` and the features up to `done=1` (options left out)."""
        self.send("xboard", "protover 2")
        features: dict[str, str] = {}
        deadline = time.monotonic() + 10
        while features.get("done") != "1":
            item = self.read(deadline - time.monotonic())
            if item is None:
                raise TestFailure(f"{self.label}: no 'feature done=1' within 10 s")
            line = item[1]
            if line.startswith("feature "):
                for key, value in FEATURE_RE.findall(line[len("feature "):]):
                    if key != "option":
                        features[key] = value.strip('"')
        return features

    def quit(self) -> None:
        try:
            self.send("quit")
        except TestFailure:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.transcript.close()
