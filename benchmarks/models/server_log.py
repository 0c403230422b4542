"""Where a game's time goes inside the embedded llama.cpp server, from its log.

Run a game with llama.cpp's informative log on, then read the log::

    ROUNDTABLE_LOCAL_VERBOSITY=3 python benchmarks/bench_lga_game.py --seed 5 > game.log 2>&1
    python benchmarks/models/server_log.py game.log

llama.cpp prints, per request (``slot print_timing``), its prompt processing
time and tokens, its generation time and tokens, and the total, each line
stamped ``M.SS.mmm.uuu`` (minutes, seconds, milliseconds, microseconds since
start). This prints the requests' span, the server's busy share of it (idle
gaps are time spent outside the server: the graph, checkpoints, HTTP), and the
prompt-processing and generation rates at the game's real context lengths,
with JSON-schema grammars on.

Measured figures and their commands: docs/measurements.md#the-embedded-models-speed.
"""

from __future__ import annotations

import re
import sys
from itertools import pairwise

TIMING = re.compile(r"(\d+)\.(\d+)\.(\d+)\.(\d+) \w slot print_timing: id +\d+ \| task (\d+) \| +"
                    r"(prompt eval|eval|total) time = +([\d.]+) ms / +(\d+) tokens")


def parse(lines: list[str]) -> list[dict[str, float]]:
    """One dict per finished request: ``start``, ``end`` (s since server start), ``prompt_s``,
    ``prompt_n``, ``gen_s``, ``gen_n`` (seconds and tokens), in log order."""
    requests, current = [], {}
    for line in lines:
        match = TIMING.search(line)
        if not match:
            continue
        minutes, seconds, millis, micros, _task, kind, ms, tokens = match.groups()
        if kind == "prompt eval":
            current.update(prompt_s=float(ms) / 1e3, prompt_n=int(tokens))
        elif kind == "eval":
            current.update(gen_s=float(ms) / 1e3, gen_n=int(tokens))
        else:
            end = int(minutes) * 60 + int(seconds) + int(millis) / 1e3 + int(micros) / 1e6
            requests.append({"prompt_s": 0.0, "prompt_n": 0, "gen_s": 0.0, "gen_n": 0, **current,
                             "start": end - float(ms) / 1e3, "end": end})
            current = {}
    return requests


def report(requests: list[dict[str, float]]) -> str:
    """The summary lines for `parse`'s requests.

    Raises:
        ValueError: no request timings in the log (was ``ROUNDTABLE_LOCAL_VERBOSITY=3`` set?).
    """
    if not requests:
        raise ValueError("no 'slot print_timing' lines: run the game with ROUNDTABLE_LOCAL_VERBOSITY=3")
    span = requests[-1]["end"] - requests[0]["start"]
    prompt_s, gen_s = sum(r["prompt_s"] for r in requests), sum(r["gen_s"] for r in requests)
    prompt_n, gen_n = sum(r["prompt_n"] for r in requests), sum(r["gen_n"] for r in requests)
    gaps = [max(0.0, b["start"] - a["end"]) for a, b in pairwise(requests)]
    return "\n".join([
        f"requests {len(requests)}, span {span:.0f} s, server busy {(prompt_s + gen_s) / span:.1%}"
        f" (idle gaps {sum(gaps):.1f} s, {sum(gaps) / max(1, len(gaps)):.2f} s per request)",
        f"prompt processing {prompt_n} tokens in {prompt_s:.0f} s: {prompt_n / max(prompt_s, 1e-9):.1f} tokens/s",
        f"generation {gen_n} tokens in {gen_s:.0f} s: {gen_n / max(gen_s, 1e-9):.1f} tokens/s",
    ])


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
        print(report(parse(log.readlines())))
