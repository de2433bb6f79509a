#!/usr/bin/env python3
"""Time from starting the engine to its `feature done=1`, with the plugins beside
it: the median (and range) of N starts. The first start of a new HOME examines
the plugin files; the later ones find their verdicts kept.

    scripts/startup-time.py --engine target/release/plugboard --starts 20
"""

import argparse
import os
import statistics
import subprocess
import tempfile
import time


def one_start(engine, home):
    env = dict(os.environ, HOME=home, XDG_DATA_HOME=os.path.join(home, "data"))
    env.pop("XDG_CACHE_HOME", None)
    env.pop("PLUGBOARD_PLUGIN_PATH", None)
    started = time.perf_counter()
    child = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True)
    child.stdin.write("xboard\nprotover 2\n")
    child.stdin.flush()
    for line in child.stdout:
        if line.strip() == "feature done=1":
            break
    took = time.perf_counter() - started
    child.stdin.write("quit\n")
    child.stdin.flush()
    child.wait(timeout=10)
    return took * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--engine", default="target/release/plugboard")
    parser.add_argument("--starts", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        first = one_start(args.engine, home)
        times = [one_start(args.engine, home) for _ in range(args.starts)]
    print(f"first start (new HOME): {first:.1f} ms")
    print(f"next {args.starts} starts: median {statistics.median(times):.1f} ms, "
          f"min {min(times):.1f}, max {max(times):.1f}")


if __name__ == "__main__":
    main()
