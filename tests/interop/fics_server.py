#!/usr/bin/env python3
"""A scripted FICS-dialect chess server for xboard_zippy.sh: xboard in Zippy mode
logs on, accepts a challenge and plays one game for its engine; the server plays
the opponent itself.

Loopback only (127.0.0.1, a port the OS picks, written to --port-file). One
connection, one game, then it closes the connection, which makes xboard exit; it
gives up by itself after --limit seconds whatever happens. Every line received
and sent goes to --log, with the seconds since the server started:
    `<<< ` received from xboard      `>>> ` sent to xboard
    `=== ` what the server made of it (the moves, the result)
    `!!! ` what the test must treat as a failure

The dialect is FICS's as xboard 4.9.1's backend.c and zippy.c parse it: a banner
naming freechess.org (xboard then puts `$` before its commands); `login:`; the
`"NAME" is a registered name` line (xboard's own handle) and `password:`; a
`fics% ` prompt, which marks xboard as logged on; `NAME is in the computer list.`
(Zippy then sends `computer` to its engine); `Challenge: ...` (Zippy answers
`$accept NAME`); `Creating: W (r) B (r) rated blitz M I` (the ratings xboard
relays as `rating OWN OPP`) and `{Game 1 (W vs. B) Creating rated blitz match.}`;
style-12 boards, clocks in milliseconds once xboard sent `iset ms 1` (a dot in
the time-taken field tells xboard which); at the end `{Game 1 (W vs. B) REASON}
RESULT`.

The opponent (seeded random legal moves) also says things the engine must never
repeat to the server: a `say` during the game (xboard relays says to nobody, but
must not answer them either), and, when xboard runs with -zippyBughouse 2, an
offer to be its bughouse partner followed by a partner tell, which Zippy hands to
the engine as `ptell TEXT`: the only way text an opponent chooses reaches a Zippy
engine. It may offer a draw (Zippy passes `draw` to the engine).

Variants (--variant): a FICS game category, as the challenge, the creation line
and the style-12 boards name it: `blitz` (chess), `wild/0` (Black's king and
queen swapped: xboard's wildcastle; python-chess cannot castle a king from d8,
so Black has no castling rights here), `wild/2` (a shuffled array without castling:
nocastle), `wild/fr` (Fischer random), `losers` (captures compulsory; losing all
one's men or being mated wins). With --decline-first KIND the server first
challenges with a category the engine does not play; Zippy must decline it
(`decline NAME`) before the real challenge comes.

Draws and resignation: the engine's `draw` accepts the opponent's offer while it
stands (it lapses when the engine moves); otherwise the opponent declines every
draw offer. `resign` ends the game 0-1 / 1-0. `abort` and `adjourn` are declined.
After --max-plies the game ends `{Game 1 (W vs. B) Game aborted by mutual
agreement} *`, FICS's line for an aborted game (a safety valve: the test's wall
time is bounded).
"""
import argparse
import os
import random
import re
import socket
import sys
import time

import chess

GAME = 1
PROMPT = "fics% "
HANDLE = re.compile(r"^[A-Za-z]{3,17}$")
MOVE_SHAPE = re.compile(r"^([a-h][1-8][a-h][1-8](=?[qrbn])?|o-o(-o)?)$")


class Closed(Exception):
    """xboard closed the connection."""


class Log:
    def __init__(self, path):
        self.file = open(path, "w", encoding="utf-8")
        self.start = time.monotonic()

    def __call__(self, mark, text):
        self.file.write(f"{time.monotonic() - self.start:8.3f} {mark} {text}\n")
        self.file.flush()


class Connection:
    """Line-based talk with xboard, every line logged; never waits past the deadline."""

    def __init__(self, sock, log, deadline):
        self.sock = sock
        self.log = log
        self.deadline = deadline
        self.buffer = b""

    def send(self, text):
        for line in text.split("\n"):
            if line.strip():
                self.log(">>>", line)
        # FICS ends its lines with \n\r.
        self.sock.sendall(text.replace("\n", "\n\r").encode())

    def line(self, timeout):
        """The next line from xboard within `timeout` seconds (and the deadline), or None."""
        until = min(time.monotonic() + timeout, self.deadline)
        while b"\n" not in self.buffer:
            left = until - time.monotonic()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(4096)
            except socket.timeout:
                return None
            if not chunk:
                raise Closed
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\n", 1)
        text = raw.decode("utf-8", errors="replace").strip("\r ")
        self.log("<<<", text)
        return text


def clock(ms, with_ms):
    if with_ms:
        return f"{ms // 60000}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"
    return f"{ms // 60000}:{ms // 1000 % 60:02d}"


def verbose_move(board, move):
    """FICS's long notation: `P/e2-e4`, `o-o`, `o-o-o`, `P/e7-e8=Q`."""
    if board.is_castling(move):
        return "o-o" if chess.square_file(move.to_square) > chess.square_file(move.from_square) else "o-o-o"
    piece = board.piece_at(move.from_square).symbol().upper()
    text = f"{piece}/{chess.square_name(move.from_square)}-{chess.square_name(move.to_square)}"
    if move.promotion:
        text += "=" + chess.piece_symbol(move.promotion).upper()
    return text


def parse_move(board, text, legal):
    """A move as xboard sends it to a server (`e2e4`, `o-o`, `o-o-o`, `e7e8=q`), if in `legal`."""
    text = text.lower()
    if text in ("o-o", "o-o-o"):
        return next((m for m in legal if board.is_castling(m) and verbose_move(board, m) == text), None)
    try:
        move = chess.Move.from_uci(text.replace("=", ""))
    except ValueError:
        return None
    if move not in legal and board.chess960 and move.from_square == board.king(board.turn):
        # A Fischer-random castling written as the king's move to the g- or c-file.
        wing = {6: "o-o", 2: "o-o-o"}.get(chess.square_file(move.to_square))
        move = next((m for m in legal if board.is_castling(m) and verbose_move(board, m) == wing), move)
    return move if move in legal else None


# FICS category -> (the start position, python-chess's Fischer-random flag).
VARIANTS = {
    "blitz": (chess.STARTING_FEN, False),
    "wild/0": ("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", False),
    "wild/2": ("nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w - - 0 1", False),
    "wild/fr": ("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1", True),
    "losers": (chess.STARTING_FEN, False),
}


def legal_moves(board, losers):
    """The legal moves; in losers only the captures, where there are any."""
    moves = list(board.legal_moves)
    if losers:
        captures = [m for m in moves if board.is_capture(m)]
        return captures or moves
    return moves


def losers_outcome(board):
    """(reason, score) once a losers game is over by its own rules, else None:
    a side left with its king alone, or with no move (mated or stalemated), wins."""
    names = {chess.WHITE: "White", chess.BLACK: "Black"}
    score = {chess.WHITE: "1-0", chess.BLACK: "0-1"}
    for side in (not board.turn, board.turn):
        if chess.popcount(board.occupied_co[side]) == 1:
            return f"{names[side]} wins by losing all material", score[side]
    if not any(board.legal_moves):
        how = "checkmated" if board.is_check() else "stalemated"
        return f"{names[board.turn]} wins by being {how}", score[board.turn]
    return None


class Game:
    def __init__(self, args, conn, log, our, ms):
        self.args, self.conn, self.log = args, conn, log
        self.our = our                      # our account's name (xboard's handle)
        self.opp = args.opponent
        self.engine_white = args.engine_colour == "white"
        self.white, self.black = (our, self.opp) if self.engine_white else (self.opp, our)
        self.ms = ms                         # xboard asked for clocks in milliseconds
        self.losers = args.variant == "losers"
        fen, fischer_random = VARIANTS[args.variant]
        self.board = chess.Board(fen, chess960=fischer_random)
        self.rng = random.Random(args.seed)
        self.base_ms = args.minutes * 60000
        self.inc_ms = args.increment * 1000
        self.times = [self.base_ms, self.base_ms]    # White's, Black's
        self.turn_started = time.monotonic()
        self.last = None                     # (verbose, took_ms, san) of the last move
        self.result = None                   # (reason, score)
        self.failed = False
        self.opp_draw_offer = False
        self.said = self.partner_offered = self.partner_told = self.draw_offered = False
        self.engine_moves = 0

    def engine_to_move(self):
        return self.board.turn == (chess.WHITE if self.engine_white else chess.BLACK)

    def style12(self):
        b = self.board
        rows = " ".join("".join((b.piece_at(chess.square(f, r)).symbol() if b.piece_at(chess.square(f, r)) else "-")
                                for f in range(8)) for r in range(7, -1, -1))
        double_push = -1
        if b.move_stack:
            m = b.peek()
            if b.piece_type_at(m.to_square) == chess.PAWN and abs(m.to_square - m.from_square) == 16:
                double_push = chess.square_file(m.to_square)
        rights = " ".join("1" if r else "0" for r in (
            b.has_kingside_castling_rights(chess.WHITE), b.has_queenside_castling_rights(chess.WHITE),
            b.has_kingside_castling_rights(chess.BLACK), b.has_queenside_castling_rights(chess.BLACK)))
        values = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}
        strength = [sum(values[p.piece_type] for p in b.piece_map().values() if p.color == c)
                    for c in (chess.WHITE, chess.BLACK)]
        # 1: our account (xboard) is to move; -1: the opponent is.
        relation = 1 if self.engine_to_move() else -1
        times = self.times if self.ms else [t // 1000 for t in self.times]
        verbose, took, san = self.last or ("none", 0, "none")
        return (f"<12> {rows} {'W' if b.turn else 'B'} {double_push} {rights} {b.halfmove_clock} "
                f"{GAME} {self.white} {self.black} {relation} {self.args.minutes} {self.args.increment} "
                f"{strength[0]} {strength[1]} {times[0]} {times[1]} {b.fullmove_number} "
                f"{verbose} ({clock(took, self.ms)}) {san} 0 1 0")

    def send_board(self):
        self.conn.send("\n" + self.style12() + "\n" + PROMPT)

    def header(self):
        return f"{{Game {GAME} ({self.white} vs. {self.black})"

    def end(self, reason, score):
        if self.result is None:
            self.result = (reason, score)

    def fail(self, text):
        self.log("!!!", text)
        self.failed = True

    def play(self, move):
        side = 0 if self.board.turn == chess.WHITE else 1
        took = int((time.monotonic() - self.turn_started) * 1000)
        # FICS adds the increment once the move is made.
        self.times[side] += self.inc_ms - took
        self.last = (verbose_move(self.board, move), took, self.board.san(move))
        who = "engine" if self.engine_to_move() else "opponent"
        self.log("===", f"{who} move {self.board.fullmove_number}{'.' if side == 0 else '...'} {self.last[2]} "
                 f"({move.uci()}, {took} ms, clocks {self.times[0]}/{self.times[1]} ms)")
        self.board.push(move)
        self.turn_started = time.monotonic()
        self.send_board()
        outcome = self.board.outcome(claim_draw=True)
        ended = losers_outcome(self.board) if self.losers else None
        if ended is not None:
            self.end(*ended)
        elif outcome is not None:
            if outcome.winner is not None:
                loser = self.black if outcome.winner == chess.WHITE else self.white
                self.end(f"{loser} checkmated", outcome.result())
            else:
                reason = {chess.Termination.STALEMATE: "Game drawn by stalemate",
                          chess.Termination.INSUFFICIENT_MATERIAL: "Neither player has mating material",
                          chess.Termination.FIFTY_MOVES: "Game drawn by the 50 move rule",
                          chess.Termination.THREEFOLD_REPETITION: "Game drawn by repetition",
                          }.get(outcome.termination, "Game drawn")
                self.end(reason, "1/2-1/2")
        elif self.board.ply() >= self.args.max_plies:
            self.log("===", f"move cap of {self.args.max_plies} plies reached")
            self.end("Game aborted by mutual agreement", "*")

    def engine_lost(self):
        return "0-1" if self.engine_white else "1-0"

    def handle(self, text):
        """One line from xboard during the game."""
        word = text[1:] if text.startswith("$") else text
        low = word.strip().lower()
        if not low or low.endswith("%"):
            return
        if MOVE_SHAPE.match(low):
            if not self.engine_to_move():
                self.fail(f"a move from xboard while the opponent is to move: {text}")
                self.conn.send(f"\nIt is not your move.\n{PROMPT}")
                return
            move = parse_move(self.board, low, legal_moves(self.board, self.losers))
            if move is None:
                self.fail(f"illegal move from xboard: {text} (position {self.board.fen()})")
                self.conn.send(f"\nIllegal move ({word}).\n{PROMPT}")
                self.end(f"{self.our} forfeits by an illegal move", self.engine_lost())
                return
            self.engine_moves += 1
            self.opp_draw_offer = False     # moving lets the offer lapse
            self.play(move)
            return
        command = low.split()[0]
        if command == "resign":
            self.log("===", "the engine resigns")
            self.end(f"{self.our} resigns", self.engine_lost())
        elif command == "draw":
            if self.opp_draw_offer:
                self.log("===", "the engine accepts the opponent's draw offer")
                self.end("Game drawn by mutual agreement", "1/2-1/2")
            else:
                self.log("===", "the engine offers a draw; the opponent declines")
                self.conn.send(f"\nOffering a draw to {self.opp}.\n{PROMPT}"
                               f"\n{self.opp} declines the draw request.\n{PROMPT}")
        elif command in ("abort", "adjourn"):
            self.conn.send(f"\n{self.opp} declines the {command} request.\n{PROMPT}")
        elif command == "partner":
            # Zippy's answer to the partnership offer (-zippyBughouse 2); then the partner tell.
            self.conn.send(f"\nYou agree to be {self.opp}'s partner.\n{PROMPT}")
            if self.args.partner_tell and not self.partner_told:
                self.partner_told = True
                self.log("===", "the opponent tells, as our partner: " + self.args.partner_tell)
                self.conn.send(f"\n{self.opp}(C) (your partner) tells you: {self.args.partner_tell}\n{PROMPT}")
        elif command == "refresh":
            self.send_board()
        else:
            # say, whisper, kibitz, set, gameend, ...: logged; FICS would answer, a prompt will do.
            self.conn.send(PROMPT)

    def opponent_talks(self):
        """The opponent's chatter, at fixed points of the game (deterministic)."""
        ply = self.board.ply()
        if not self.said and ply >= 1 and self.args.hostile_say:
            self.said = True
            self.log("===", "the opponent says: " + self.args.hostile_say)
            self.conn.send(f"\n{self.opp}(C)[{GAME}] says: {self.args.hostile_say}\n{PROMPT}")
        if not self.partner_offered and ply >= 2 and self.args.partner_tell:
            self.partner_offered = True
            self.log("===", "the opponent offers to be our bughouse partner")
            self.conn.send(f"\n{self.opp} offers to be your bughouse partner.\n{PROMPT}")
        if not self.draw_offered and self.args.draw_offer_ply and ply >= self.args.draw_offer_ply:
            self.draw_offered = self.opp_draw_offer = True
            self.log("===", "the opponent offers a draw")
            self.conn.send(f"\n{self.opp} offers you a draw.\n{PROMPT}")

    def run(self):
        self.send_board()
        # The game gives up early enough to leave time for the result and xboard's last lines.
        game_deadline = self.conn.deadline - self.args.linger - 1
        while self.result is None:
            if time.monotonic() >= game_deadline:
                self.fail("the server's time limit ran out during the game")
                self.end("Game aborted by mutual agreement", "*")
                break
            if self.engine_to_move():
                side = 0 if self.board.turn == chess.WHITE else 1
                left = self.times[side] / 1000 - (time.monotonic() - self.turn_started)
                if left < 0:
                    self.fail(f"the engine ran out of time ({self.times[side]} ms at the start of its turn)")
                    self.end(f"{self.our} forfeits on time", self.engine_lost())
                    break
                text = self.conn.line(max(0.0, min(1.0, left + 0.01, game_deadline - time.monotonic())))
                if text is not None:
                    self.handle(text)
            else:
                self.opponent_talks()
                # The opponent "thinks"; whatever xboard says meanwhile is read and logged.
                until = time.monotonic() + self.args.think
                while self.result is None and time.monotonic() < until:
                    text = self.conn.line(until - time.monotonic())
                    if text is not None:
                        self.handle(text)
                if self.result is None and not self.engine_to_move():
                    self.play(self.rng.choice(sorted(legal_moves(self.board, self.losers), key=chess.Move.uci)))
        reason, score = self.result
        self.conn.send(f"\n{self.header()} {reason}}} {score}\n{PROMPT}")
        self.log("===", f"result: {self.header()} {reason}}} {score} after {self.board.ply()} plies;"
                 f" {self.engine_moves} engine moves")
        self.log("===", f"final position: {self.board.fen()}")


def quiet_period(conn, seconds, settle=0.0, until_word=None):
    """Reads (and logs) xboard's lines for up to `seconds`, answering each with a prompt.
    Stops early `settle` seconds after a line containing `until_word` arrived."""
    end = time.monotonic() + seconds
    lines = []
    while time.monotonic() < end:
        text = conn.line(end - time.monotonic())
        if text is None:
            break
        lines.append(text)
        conn.send(PROMPT)
        if until_word and until_word in text:
            end = min(end, time.monotonic() + settle)
    return lines


def serve(conn, log, args):
    conn.send("\n    Welcome to the scripted test server, speaking the dialect of freechess.org\n\nlogin: ")
    handle = conn.line(30)
    if handle is None:
        log("!!!", "no logon from xboard")
        return 1
    our = handle.strip()
    if not HANDLE.match(our):
        log("!!!", f"xboard logged on with a handle FICS would refuse: {our!r}")
        return 1
    conn.send(f'\n"{our}" is a registered name.  If it is yours, type the password.\npassword: ')
    if conn.line(30) is None:
        log("!!!", "no password from xboard")
        return 1
    conn.send(f"\n**** Starting FICS session as {our}(C) ****\n\n{PROMPT}")
    # xboard's set-up: `alias $ @`, `$set interface ...`, `$iset ms 1`, `$style 12`, ...
    setup = quiet_period(conn, 8.0, settle=1.0, until_word="style 12")
    ms = any(re.search(r"\biset ms 1\b", line) for line in setup)
    if not any("style 12" in line for line in setup):
        log("!!!", "xboard never asked for style 12 boards")
        return 1
    log("===", f"logged on as {our}; clocks in {'milliseconds' if ms else 'seconds'}")

    own_rating, opp_rating = args.ratings.split(",")
    opp = args.opponent
    if args.computer:
        conn.send(f"\n{opp} is in the computer list.\n{PROMPT}")

    def challenge(kind):
        """Challenges xboard to a game of `kind`; xboard's answer (`accept`/`decline`
        and the handle), or None."""
        conn.send(f"\nChallenge: {opp} ({opp_rating}) {our} ({own_rating}) rated {kind} "
                  f"{args.minutes} {args.increment}.\n"
                  f'You can "accept" or "decline", or propose different parameters.\n{PROMPT}')
        end = time.monotonic() + 10
        while time.monotonic() < end:
            text = conn.line(end - time.monotonic())
            if text is None:
                return None
            word = text.lstrip("$").split()
            if word and word[0] in ("accept", "decline"):
                return word
            conn.send(PROMPT)
        return None

    if args.decline_first:
        answer = challenge(args.decline_first)
        if not answer or answer[0] != "decline":
            log("!!!", f"xboard did not decline a {args.decline_first} game, which its engine does not play "
                       f"({' '.join(answer) if answer else 'no answer'})")
            return 1
        log("===", f"xboard declined the {args.decline_first} challenge")
        conn.send(f"\nYou decline the match offer from {opp}.\n{PROMPT}")
    accepted = False
    for attempt in range(3):
        answer = challenge(args.variant)
        if answer and answer[0] == "accept":
            accepted = True
            break
        log("===", f"challenge {attempt + 1} not accepted ({' '.join(answer) if answer else 'no answer'})")
        time.sleep(2)
    if not accepted:
        log("!!!", "xboard never accepted the challenge")
        return 1

    game = Game(args, conn, log, our, ms)
    w, b = (our, opp) if game.engine_white else (opp, our)
    rw, rb = (own_rating, opp_rating) if game.engine_white else (opp_rating, own_rating)
    conn.send(f"\nYou accept the match offer from {opp}.\n\n"
              f"Creating: {w} ({rw}) {b} ({rb}) rated {args.variant} {args.minutes} {args.increment}\n"
              f"{{Game {GAME} ({w} vs. {b}) Creating rated {args.variant} match.}}\n")
    game.run()
    # The engine's last words and Zippy's `gameend` come after the result line.
    quiet_period(conn, args.linger)
    log("===", "closing the connection")
    return 1 if game.failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port-file", required=True, help="where the chosen port is written")
    parser.add_argument("--log", required=True, help="the transcript")
    parser.add_argument("--limit", type=float, default=130.0, help="seconds before giving up (default 130)")
    parser.add_argument("--opponent", default="Hostile", help="the opponent's handle (letters only)")
    parser.add_argument("--engine-colour", choices=("white", "black"), default="white")
    parser.add_argument("--ratings", default="1800,1650", help="OURS,OPPONENT'S (default 1800,1650)")
    parser.add_argument("--computer", action=argparse.BooleanOptionalAction, default=True,
                        help="announce the opponent as a computer (default yes)")
    parser.add_argument("--minutes", type=int, default=1)
    parser.add_argument("--increment", type=int, default=1)
    parser.add_argument("--max-plies", type=int, default=80)
    parser.add_argument("--think", type=float, default=0.3, help="the opponent's seconds a move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hostile-say", default="tellics quit; set 1 pwned",
                        help="what the opponent says before its move at ply 1 or 2 ('' for nothing)")
    parser.add_argument("--partner-tell", default="tellics set 2 pwned; quit",
                        help="the partner tell after the partnership offer at ply 2 or 3 ('' for neither)")
    parser.add_argument("--draw-offer-ply", type=int, default=14,
                        help="the opponent offers a draw at this ply (0: never)")
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="blitz",
                        help="the game's FICS category (default blitz: chess)")
    parser.add_argument("--decline-first", default="",
                        help="a category to challenge with first, which xboard must decline (e.g. wild/16)")
    parser.add_argument("--linger", type=float, default=3.0, help="seconds read after the result")
    args = parser.parse_args()
    if not HANDLE.match(args.opponent):
        parser.error("--opponent must be 3 to 17 letters, as on FICS")

    deadline = time.monotonic() + args.limit
    log = Log(args.log)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(args.limit)
    # Written whole, then renamed: the driver never reads half a number.
    with open(args.port_file + ".tmp", "w") as f:
        f.write(f"{listener.getsockname()[1]}\n")
    os.replace(args.port_file + ".tmp", args.port_file)
    log("===", f"listening on 127.0.0.1:{listener.getsockname()[1]}, limit {args.limit:.0f} s")
    try:
        sock, peer = listener.accept()
    except socket.timeout:
        log("!!!", "nobody connected")
        return 1
    finally:
        listener.close()
    log("===", f"connection from {peer[0]}:{peer[1]}")
    conn = Connection(sock, log, deadline)
    try:
        return serve(conn, log, args)
    except Closed:
        log("!!!", "xboard closed the connection before the server was done")
        return 1
    finally:
        sock.close()


if __name__ == "__main__":
    sys.exit(main())
