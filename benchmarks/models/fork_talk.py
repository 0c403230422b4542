"""Table talk (or another phase's decisions) of recorded games answered again, from their checkpoints, by the
code checked out now.

For every talk decision point in the given games (Avalon's ``discussion``, Werewolf's ``day_talk``), in game
order, the game is forked at the checkpoint just before it (`roundtable.play.forks.fork_game`,
``until_decision``): the speaker answers again with the same memory and call seeds, through the real game and
agent graphs, with the prompts, checks and switches of the current code. The words said then are measured as
the play-quality measure measures a game's talk (docs/measures.md#play-quality): parroting, thoughts said aloud,
self-exposure and Merlin (the Seer) exposed, and the point's decisions answered by a fallback rule, for the
recorded words and the new ones at each point. So a change
to a kind's words is measured on the same situations in minutes, not over whole games. With ``--phase NODE``
the points are those of another phase node (Avalon's ``proposal``, ``vote_team``; Werewolf's ``day_vote``, ...),
measured the same way plus the decisions' measures (knowledge-settled decisions, words and actions).

    ROUNDTABLE_HOME=DIR python benchmarks/models/fork_talk.py GAME_ID... [--limit N] [--examples] [--phase NODE]

The games must be in ``DIR`` (the data directory of the run that played them, e.g. a ``bench_play_quality.py
--home DIR``), with their checkpoints; the forks are written there too.
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from roundtable.metrics.play_quality import play_quality
from roundtable.metrics.quality.result import PlayQuality
from roundtable.play.forks import fork_game
from roundtable.play.runner import game_of, open_runner
from roundtable.store.records import read_record

TALK = {"avalon": "discussion", "werewolf": "day_talk"}
"""The phase node of each game's table talk."""
MEASURES = tuple(name for name in PlayQuality.MEASURES if name != "five_rejections")
"""The measures compared (`PlayQuality` fields); a hit is a fault except in ``RIGHT``'s."""
RIGHT = ("settled_decisions", "words_and_actions")
"""The measures whose hits are right decisions."""


def fork_steps(game_id: str, phase: str | None = None) -> list[tuple[int, int]]:
    """``(step, events so far)`` of the checkpoints just before each decision point of the phase node ``phase``
    (default: the game's table talk) writes its requests."""
    game = game_of(game_id)
    out, events = [], 0
    with open_runner(game) as runner:
        for entry in runner.history(game_id):
            events += len(entry["new_events"])
            if entry.get("next") == [phase or TALK[game]]:
                out.append((entry["step"], events))
    return out


def added(record: dict[str, Any], start: int, end: int) -> dict[str, tuple[int, int]]:
    """``{measure: (hits, cases)}`` that the events ``start:end`` of ``record`` add to its measures."""
    before = play_quality(record | {"events": record["events"][:start], "usage": {}})
    after = play_quality(record | {"events": record["events"][:end], "usage": {}})
    out = {}
    for name in MEASURES:
        a, b = getattr(before, name), getattr(after, name)
        out[name] = (b.hits - a.hits, b.cases - a.cases)
    return out


def said(record: dict[str, Any], start: int, end: int) -> str:
    """The words of the utterances among events ``start:end``."""
    return " / ".join(e.get("text") or "" for e in record["events"][start:end] if e.get("type") == "utterance")


def acted(record: dict[str, Any], start: int, end: int) -> str:
    """The actions of the decisions among events ``start:end`` other than words: ``"P3 eliminate: 5"``, ``"P2
    vote_team: approve"`` (a pick of nobody: ``pass``)."""
    out = []
    for event in record["events"][start:end]:
        if event.get("type") != "decision":
            continue
        picks = [key for key in ("team", "players", "target") if key in event]
        if picks:
            picked = event[picks[0]]
            shown = "pass" if picked in (None, []) else picked
        elif any(key in event for key in ("approve", "success", "choice")):
            shown = next(event[key] for key in ("approve", "success", "choice") if key in event)
        else:
            continue
        out.append(f"P{event.get('player')} {event.get('kind')}: {shown}")
    return ", ".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="+")
    parser.add_argument("--limit", type=int, default=0, help="at most this many talk points per game (0: all)")
    parser.add_argument("--examples", action="store_true", help="print the recorded and the new words")
    parser.add_argument("--phase", help="the phase node whose decision points to answer again (default: the talk)")
    parser.add_argument("--steps", help="only these checkpoint steps, e.g. 18,27 (as the output names them)")
    args = parser.parse_args()
    tally: dict[str, Counter] = {name: Counter() for name in MEASURES}
    for game_id in args.games:
        record = read_record(game_id) or {}
        points = [p for p in fork_steps(game_id, args.phase) if not args.steps or str(p[0]) in args.steps.split(",")]
        for step, start in points[:args.limit or None]:
            fork = read_record(fork_game(game_id, step, until_decision=True)) or {}
            end = len(fork["events"])  # the fork stops once the talk point's answers are applied
            old, new = added(record, start, end), added(fork, start, end)
            for name in MEASURES:
                tally[name].update(before=old[name][0], before_cases=old[name][1], after=new[name][0],
                                   after_cases=new[name][1])
            faults = ", ".join(f"{n}: {old[n][0]}->{new[n][0]}" for n in MEASURES
                               if n not in RIGHT and (old[n][0] or new[n][0]) or n in RIGHT and old[n] != new[n])
            print(f"{game_id} step {step}: {faults or 'no fault before or after'}", flush=True)
            if args.examples:
                print(f"  was: {said(record, start, end)}\n  now: {said(fork, start, end)}", flush=True)
                if args.phase:
                    print(f"  acted: {acted(record, start, end)}\n  now:   {acted(fork, start, end)}", flush=True)
    print(f"\nhits among cases, recorded -> now (hits are faults, but right decisions in {', '.join(RIGHT)}):")
    for name, t in tally.items():
        print(f"  {name:16s} {t['before']}/{t['before_cases']} -> {t['after']}/{t['after_cases']}")


if __name__ == "__main__":
    main()
