#!/usr/bin/env python3
"""A CECP engine that plays a fixed cycle of moves (argv[1], comma-separated),
one each time it is on move, so that xboard can adjudicate a scripted game."""
import sys

moves = sys.argv[1].split(",")
played = 0
force = True


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    command = words[0]
    if command == "protover":
        say('feature setboard=1 usermove=1 ping=1 variants="xiangqi" sigint=0 sigterm=0 myname="script" done=1')
    elif command == "ping":
        say("pong " + words[1])
    elif command in ("new", "setboard"):
        played = 0
        force = command == "setboard" and force
    elif command == "force":
        force = True
    elif command == "go" or (command == "usermove" and not force):
        force = False
        say("move " + moves[played % len(moves)])
        played += 1
    elif command == "quit":
        break
