"""Table talk of recorded games said again, from their checkpoints, by the code checked out now.

For every talk decision point in the given games (Avalon's ``discussion``, Werewolf's ``day_talk``), in game
order, the game is forked at the checkpoint just before it (`roundtable.play.forks.fork_game`,
``until_decision``): the speaker answers again with the same memory and call seeds, through the real game and
agent graphs, with the prompts, checks and switches of the current code. The words said then are measured as
the play-quality measure measures a game's talk (docs/measures.md#play-quality): parroting, thoughts said aloud,
self-exposure and Merlin (the Seer) exposed, and the point's decisions answered by a fallback rule, for the
recorded words and the new ones at each point. So a change
to a kind's words is measured on the same situations in minutes, not over whole games.

    ROUNDTABLE_HOME=DIR python benchmarks/models/fork_talk.py GAME_ID... [--limit N] [--examples]

The games must be in ``DIR`` (the data directory of the run that played them, e.g. a ``bench_play_quality.py
--home DIR``), with their checkpoints; the forks are written there too.
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from roundtable.metrics.play_quality import play_quality
from roundtable.play.forks import fork_game
from roundtable.play.runner import game_of, open_runner
from roundtable.store.records import read_record

TALK = {"avalon": "discussion", "werewolf": "day_talk"}
"""The phase node of each game's table talk."""
MEASURES = ("parroting", "thoughts_aloud", "self_exposure", "merlin_exposed", "fallback_decisions")
"""The measures compared (`roundtable.metrics.quality.result.PlayQuality` fields; hits are faults)."""


def fork_steps(game_id: str) -> list[tuple[int, int]]:
    """``(step, events so far)`` of the checkpoints just before each talk decision point's requests are written."""
    game = game_of(game_id)
    out, events = [], 0
    with open_runner(game) as runner:
        for entry in runner.history(game_id):
            events += len(entry["new_events"])
            if entry.get("next") == [TALK[game]]:
                out.append((entry["step"], events))
    return out


def added(record: dict[str, Any], start: int, end: int) -> dict[str, tuple[int, int]]:
    """``{measure: (faults, cases)}`` that the events ``start:end`` of ``record`` add to its talk measures."""
    before = play_quality(record | {"events": record["events"][:start]})
    after = play_quality(record | {"events": record["events"][:end]})
    out = {}
    for name in MEASURES:
        a, b = getattr(before, name), getattr(after, name)
        out[name] = (b.hits - a.hits, b.cases - a.cases)
    return out


def said(record: dict[str, Any], start: int, end: int) -> str:
    """The words of the utterances among events ``start:end``."""
    return " / ".join(e.get("text") or "" for e in record["events"][start:end] if e.get("type") == "utterance")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="+")
    parser.add_argument("--limit", type=int, default=0, help="at most this many talk points per game (0: all)")
    parser.add_argument("--examples", action="store_true", help="print the recorded and the new words")
    args = parser.parse_args()
    tally: dict[str, Counter] = {name: Counter() for name in MEASURES}
    for game_id in args.games:
        record = read_record(game_id) or {}
        for step, start in fork_steps(game_id)[:args.limit or None]:
            fork = read_record(fork_game(game_id, step, until_decision=True)) or {}
            end = len(fork["events"])  # the fork stops once the talk point's answers are applied
            old, new = added(record, start, end), added(fork, start, end)
            for name in MEASURES:
                tally[name].update(before=old[name][0], before_cases=old[name][1], after=new[name][0],
                                   after_cases=new[name][1])
            faults = ", ".join(f"{n}: {old[n][0]}->{new[n][0]}" for n in MEASURES if old[n][0] or new[n][0])
            print(f"{game_id} step {step}: {faults or 'no fault before or after'}", flush=True)
            if args.examples:
                print(f"  was: {said(record, start, end)}\n  now: {said(fork, start, end)}", flush=True)
    print("\nfaults among cases, recorded -> now:")
    for name, t in tally.items():
        print(f"  {name:16s} {t['before']}/{t['before_cases']} -> {t['after']}/{t['after_cases']}")


if __name__ == "__main__":
    main()
