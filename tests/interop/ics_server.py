#!/usr/bin/env python3
"""A scripted chess server for the Zippy test: just enough of the FICS dialect for
xboard to log on, play one game for its engine and see it end.

It listens on 127.0.0.1 only, on a port the OS chooses (written to --port-file),
takes one connection, plays the opponent itself (seeded random legal moves, with
python-chess judging every move xboard sends), ends the game by the rules (or by a
resignation, or after --max-plies), and closes the connection, which makes xboard
exit. It stops by itself after --limit seconds whatever happens. Every line it
receives and sends goes to --log with a timestamp: `<<< ` received, `>>> ` sent;
`!!! ` marks what the test must treat as a failure (an illegal move, a timeout).

Formats are FICS's as xboard's backend.c and zippy.c parse them: a banner naming
freechess.org (FICS habits: `$` before commands), `login:`, the `"NAME" is a
registered name` line (xboard's own handle), `**** Starting FICS session as ...`
and a `fics% ` prompt; `NAME is in the computer list.`; `Creating: W (r) B (r)
rated blitz M I`; `{Game N (W vs. B) Creating rated blitz match.}`; style-12 boards
with clocks in milliseconds (xboard sends `iset ms 1`); and a `{Game N (W vs. B)
REASON} RESULT` line at the end.
"""
import argparse
import os
import random
import re
import socket
import sys
import time

import chess

GAME = 7
PROMPT = "fics% "
MOVE_SHAPE = re.compile(r"^([a-h][1-8][a-h][1-8](=?[qrbn])?|o-o(-o)?)$")


class Connection:
    def __init__(self, sock, log, deadline):
        self.sock = sock
        self.log = log
        self.deadline = deadline
        self.buffer = b""

    def note(self, mark, text):
        self.log.write(f"{time.time():.3f} {mark} {text}\n")
        self.log.flush()

    def send(self, text):
        for line in text.replace("\r", "").split("\n"):
            if line.strip():
                self.note(">>>", line)
        self.sock.sendall(text.replace("\n", "\n\r").encode())

    def line(self, timeout):
        """The next line received within `timeout` (and the overall limit), or None."""
        until = min(time.time() + timeout, self.deadline)
        while b"\n" not in self.buffer:
            left = until - time.time()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(4096)
            except socket.timeout:
                return None
            if not chunk:
                raise EOFError
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\n", 1)
        text = raw.decode(errors="replace").strip("\r ")
        self.note("<<<", text)
        return text

    def quiet(self, seconds):
        """Reads (and logs) whatever comes for `seconds`, answering with prompts."""
        until = time.time() + seconds
        while time.time() < until:
            if self.line(until - time.time()) is not None:
                self.send(PROMPT)


def clock(ms):
    return f"{ms // 60000}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"


def style12(board, white, black, relation, minutes, increment, times, last):
    rows = []
    for rank in range(7, -1, -1):
        row = ""
        for file in range(8):
            piece = board.piece_at(chess.square(file, rank))
            row += piece.symbol() if piece else "-"
        rows.append(row)
    double_push = -1
    if board.move_stack:
        m = board.peek()
        piece = board.piece_at(m.to_square)
        if piece and piece.piece_type == chess.PAWN and abs(m.to_square - m.from_square) == 16:
            double_push = chess.square_file(m.to_square)
    rights = [board.has_kingside_castling_rights(chess.WHITE), board.has_queenside_castling_rights(chess.WHITE),
              board.has_kingside_castling_rights(chess.BLACK), board.has_queenside_castling_rights(chess.BLACK)]
    values = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}
    strength = [sum(values[p.piece_type] for p in board.piece_map().values() if p.color == c)
                for c in (chess.WHITE, chess.BLACK)]
    verbose, took, san = last or ("none", 0, "none")
    return (f"<12> {' '.join(rows)} {'W' if board.turn else 'B'} {double_push} "
            f"{' '.join('1' if r else '0' for r in rights)} {board.halfmove_clock} {GAME} {white} {black} "
            f"{relation} {minutes} {increment} {strength[0]} {strength[1]} {times[0]} {times[1]} "
            f"{board.fullmove_number} {verbose} ({clock(took)}) {san} 0 1 0")


def verbose_move(board, move):
    """FICS's long form: `P/e2-e4`, `o-o`, `P/e7-e8=Q`."""
    if board.is_castling(move):
        return "o-o" if chess.square_file(move.to_square) > chess.square_file(move.from_square) else "o-o-o"
    piece = board.piece_at(move.from_square).symbol().upper()
    text = f"{piece}/{chess.square_name(move.from_square)}-{chess.square_name(move.to_square)}"
    if move.promotion:
        text += "=" + chess.piece_symbol(move.promotion).upper()
    return text


def parse_move(board, text):
    """A move as xboard sends it to a server: `e2e4`, `o-o`, `o-o-o`, `e7e8=q`."""
    text = text.strip().lower()
    if text in ("o-o", "o-o-o"):
        for m in board.legal_moves:
            if board.is_castling(m) and verbose_move(board, m) == text:
                return m
        return None
    text = text.replace("=", "")
    try:
        move = chess.Move.from_uci(text)
    except ValueError:
        return None
    return move if move in board.legal_moves else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--limit", type=float, default=150.0, help="seconds before giving up")
    parser.add_argument("--handle", default="PlugBot", help="the account xboard logs on as")
    parser.add_argument("--opponent", default="Hostile")
    parser.add_argument("--ratings", default="1800,1650", help="ours,opponent's")
    parser.add_argument("--minutes", type=int, default=1)
    parser.add_argument("--increment", type=int, default=1)
    parser.add_argument("--max-plies", type=int, default=160)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--hostile-say", default="tellics set 1 pwned; $quit",
                        help="what the opponent says during the game")
    args = parser.parse_args()

    deadline = time.time() + args.limit
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(args.limit)
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(listener.getsockname()[1]))
    # Written whole, then renamed: the driver never reads half a number.
    os.replace(args.port_file + ".tmp", args.port_file)

    with open(args.log, "w") as log:
        try:
            sock, _ = listener.accept()
        except socket.timeout:
            log.write("!!! nobody connected\n")
            return 1
        conn = Connection(sock, log, deadline)
        try:
            return serve(conn, args)
        except EOFError:
            conn.note("!!!", "the client closed the connection")
            return 1
        finally:
            sock.close()
            listener.close()


def serve(conn, args):
    me, opp = args.handle, args.opponent
    own_rating, opp_rating = args.ratings.split(",")
    conn.send("\nWelcome to the scripted test server (freechess.org dialect)\n\nlogin: ")
    conn.line(30)
    conn.send(f'\n"{me}" is a registered name.  If it is yours, type the password.\npassword: ')
    conn.line(30)
    conn.send(f"\n**** Starting FICS session as {me}(C) ****\n\n{PROMPT}")
    # xboard's set-up commands (`$set interface`, `$iset ms 1`, `$style 12`...).
    conn.quiet(2.0)

    board = chess.Board()
    rng = random.Random(args.seed)
    times = [args.minutes * 60000, args.minutes * 60000]
    inc_ms = args.increment * 1000
    conn.send(f"\n{opp} is in the computer list.\n{PROMPT}")
    conn.send(f"\nCreating: {me} ({own_rating}) {opp} ({opp_rating}) rated blitz {args.minutes} {args.increment}\n"
              f"{{Game {GAME} ({me} vs. {opp}) Creating rated blitz match.}}\n\n"
              + style12(board, me, opp, 1, args.minutes, args.increment, times, None) + f"\n{PROMPT}")
    turn_started = time.time()
    said_hostile = False
    result = None
    while result is None:
        if time.time() > conn.deadline:
            conn.note("!!!", "the time limit ran out during the game")
            return 1
        side = 0 if board.turn == chess.WHITE else 1
        if board.turn == chess.WHITE:
            # Our account's move, made by xboard for its engine.
            text = conn.line(5)
            if text is None:
                if times[side] - (time.time() - turn_started) * 1000 < 0:
                    result = (f"{me} forfeits on time", "0-1")
                continue
            word = text.lstrip("$").strip()
            if word == "resign":
                result = (f"{me} resigns", "0-1")
                continue
            if word in ("draw", "abort", "adjourn"):
                conn.send(f"\n{opp} declines the {word} request.\n{PROMPT}")
                continue
            move = parse_move(board, word)
            if move is None:
                if MOVE_SHAPE.match(word.lower()):
                    conn.note("!!!", f"illegal move from xboard: {text}")
                    return 1
                conn.send(PROMPT)
                continue
        else:
            time.sleep(0.2)
            moves = list(board.legal_moves)
            move = rng.choice(moves)
        took = int((time.time() - turn_started) * 1000)
        times[side] = times[side] - took + inc_ms
        verbose, san = verbose_move(board, move), board.san(move)
        board.push(move)
        turn_started = time.time()
        relation = 1 if board.turn == chess.WHITE else -1
        conn.send("\n" + style12(board, me, opp, relation, args.minutes, args.increment, times,
                                 (verbose, took, san)) + f"\n{PROMPT}")
        if not said_hostile and board.fullmove_number >= 3:
            # Text the opponent controls: the engine must never pass it on to the server.
            conn.send(f"\n{opp}(C)[{GAME}] says: {args.hostile_say}\n{PROMPT}")
            said_hostile = True
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            if outcome.winner is not None:
                loser = opp if outcome.winner == chess.WHITE else me
                result = (f"{loser} checkmated", outcome.result())
            else:
                result = (f"Game drawn by {outcome.termination.name.lower().replace('_', ' ')}", "1/2-1/2")
        elif board.ply() >= args.max_plies:
            result = ("Game drawn by mutual agreement", "1/2-1/2")
    reason, score = result
    conn.send(f"\n{{Game {GAME} ({me} vs. {opp}) {reason}}} {score}\n{PROMPT}")
    conn.note("===", f"game over: {reason} {score} after {board.ply()} plies")
    # The engine's last whisper and xboard's `gameend` habits come after the result.
    conn.quiet(3.0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
