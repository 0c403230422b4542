"""AvalonBench's all-naive baseline: its own code beside ours (docs/agents/naive.md#the-avalonbench-flavour).

Usage (their code is never vendored here: clone it anywhere and pass its path)::

    git clone https://github.com/jonathanmli/Avalon-LLM /tmp/avalon-llm
    nice -n 19 python benchmarks/avalonbench_baseline.py --avalon-llm /tmp/avalon-llm
    nice -n 19 python benchmarks/avalonbench_baseline.py --avalon-llm /tmp/avalon-llm --games 100 --all-deals

What it plays, all ``bench5`` (Merlin, two Servants, Minion, Assassin):

1. **ours**: ``--games`` games of the ``avalonbench`` setting, seeds ``--seed-start`` on, every seat ``naive``
   with ``flavour=avalonbench``, through the rules library (as `bench_avalon.py`); the first ``--graph-games``
   of them again through the game graph with the seat option, which must play them alike.
2. **theirs**: the same deals (each game's roles and first leader, written in their data-file format) played by
   their own game loop, ``AvalonBench.start_sample`` with every seat ``naive`` and discussion off, in a
   subprocess (`avalonbench_loop.py`), twice: as their code runs (one global generator, reseeded with 0 by
   every bot's constructor, shared by all bots) and with each bot drawing from its own generator seeded the
   same way.
3. It prints each run's good-side win rate and three-successful-quests rate with Wilson 95% intervals
   (`roundtable.metrics.intervals.wilson`), the published 38.2% (Light et al. 2023, Table 3; 57.3% of games
   reached the assassination, Table 2), and how many games each run of theirs played move for move as ours
   (every team named, every quest's fails, the Assassin's target).

With ``--all-deals`` it also plays each of the 300 ``bench5`` deals once (60 role orders times 5 first leaders;
ours from the first seed dealing each): every run here is a function of its deal alone (each bot's generator is
seeded 0 whatever the game), so these are the exact rates under uniformly random deals.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from roundtable.agents.naive.kind import flavour_bots
from roundtable.games import avalon as A
from roundtable.games.avalon.settings import setting
from roundtable.graphs.avalon import graph
from roundtable.graphs.phases import agent_seed
from roundtable.metrics.intervals import wilson

PUBLISHED = {"good": 0.382, "quests": 0.573}
"""Light et al. 2023: the naive Servant's good-side win rate (Table 3) and 100% less the naive Assassin's
mission win rate, 42.7% (Table 2), over 1,000 all-naive games."""
THEIR_NAMES = {"merlin": "Merlin", "servant": "Servant", "minion": "Minion", "assassin": "Assassin"}
LOOP = Path(__file__).with_name("avalonbench_loop.py")
RUN = {"recursion_limit": 10_000}
SEAT = {"kind": "naive", "options": {"flavour": "avalonbench"}}
OURS = "ours: `naive`, `flavour=avalonbench`"


def config() -> A.AvalonConfig:
    """The ``avalonbench`` setting (``bench5``, the fifth team without a vote, the leader speaks first and last)."""
    preset, rules = setting("avalonbench")
    return A.AvalonConfig.build(preset, rules=rules)


def deal(game: A.AvalonConfig, seed: int) -> dict[str, Any]:
    """Game ``seed``'s deal in their data-file format: roles by 0-based seat, the first leader."""
    state = A.new_game(game, seed)
    return {"num_players": game.players, "quest_leader": state.leader - 1,
            "role_names": [THEIR_NAMES[role.value] for role in state.roles]}


def record(state: A.AvalonState) -> dict[str, Any]:
    """A finished game as `avalonbench_loop.trace` records theirs (0-based seats; a first and a final proposal
    with talk between them are one team named)."""
    proposals: dict[tuple[int, int], list[Any]] = {}
    fails, target = [], None
    for event in state.events:
        if event["type"] == "proposal":
            proposals[(event["round"], event["attempt"])] = [event["leader"] - 1, sorted(p - 1 for p in event["team"])]
        elif event["type"] == "quest_result":
            fails.append(event["fails"])
        elif event["type"] == "assassination" and event.get("target") is not None:
            target = event["target"] - 1
    assert state.winner is not None
    return {"good": state.winner.value == "good", "teams": [proposals[k] for k in sorted(proposals)],
            "fails": fails, "target": target}


def play_ours(game: A.AvalonConfig, seed: int) -> tuple[A.AvalonState, dict[str, Any]]:
    """One game through the rules library, every seat the ``avalonbench`` flavour."""
    decide = flavour_bots("avalonbench")["avalon"].decide
    state = A.new_game(game, seed)
    while not state.is_over:
        state = A.apply(state, {r.player: decide(A.view(state, r.player), r, agent_seed(seed, r.player))
                                for r in A.pending(state)})
    return state, record(state)


def check_graph(game: A.AvalonConfig, seeds: list[int], ours: dict[int, A.AvalonState]) -> None:
    """The game graph, seats given ``flavour=avalonbench``, plays ``seeds`` as the rules library did."""
    for seed in seeds:
        out = graph.invoke({"config": game.to_dict(), "seed": seed, "seats": [SEAT] * game.players}, RUN)
        played = [e for e in out["events"] if e["type"] != "decision"]
        if played != list(ours[seed].events):
            raise SystemExit(f"the game graph played seed {seed} otherwise than the rules library")


def play_theirs(checkout: str, deals: list[dict[str, Any]], generators: str) -> list[dict[str, Any]]:
    """Their loop over ``deals`` in a subprocess (`avalonbench_loop.py`)."""
    with tempfile.TemporaryDirectory(prefix="avalonbench-") as tmp:
        deals_file, out = Path(tmp) / "deals.json", Path(tmp) / "out.json"
        deals_file.write_text(json.dumps(deals))
        subprocess.run([sys.executable, str(LOOP), checkout, str(deals_file), str(out), "--generators", generators],
                       check=True)
        return json.loads(out.read_text())


def all_deal_seeds(game: A.AvalonConfig) -> list[int]:
    """The first seed dealing each distinct deal (role order and first leader), in seed order."""
    seeds: dict[str, int] = {}
    seed = 0
    while len(seeds) < 300:
        seeds.setdefault(json.dumps(deal(game, seed)), seed)
        seed += 1
    return sorted(seeds.values())


def rate(k: int, n: int, interval: bool = True) -> str:
    """``38.2% [35.2, 41.3]`` (Wilson 95%), or the share alone."""
    if not interval:
        return f"{100 * k / n:.1f}%"
    low, high = wilson(k, n)
    return f"{100 * k / n:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def good_wins(games: list[dict[str, Any]]) -> int:
    return sum(g["good"] for g in games)


def agreement(name: str, games: list[dict[str, Any]], ours: list[dict[str, Any]]) -> str:
    """Whether each good-side win rate lies in the other's Wilson 95% interval."""
    n, k, mine = len(games), good_wins(games), good_wins(ours)
    theirs_in = wilson(mine, n)[0] <= k / n <= wilson(mine, n)[1]
    ours_in = wilson(k, n)[0] <= mine / n <= wilson(k, n)[1]
    both = "agree" if theirs_in and ours_in else "do not agree"
    return (f"- ours beside {name}: {both} within their intervals (its rate "
            f"{'inside' if theirs_in else 'outside'} ours', ours {'inside' if ours_in else 'outside'} its)")


def table(title: str, runs: dict[str, list[dict[str, Any]]], sample: bool) -> str:
    """The runs side by side; ``sample``: the games are a sample of deals (intervals and the published figures),
    else every deal once (exact rates)."""
    ours = runs[OURS]
    columns = "good-side win rate [95%] | three quests succeeded [95%]" if sample else \
        "good-side win rate | three quests succeeded"
    lines = [f"### {title}", "", f"| run | games | {columns} | games move for move as ours |",
             "|---|---:|---|---|---:|"]
    for name, games in runs.items():
        n = len(games)
        quests = sum(sum(f == 0 for f in g["fails"]) >= 3 for g in games)
        same = "-" if games is ours else str(sum(a == b for a, b in zip(games, ours, strict=True)))
        lines.append(f"| {name} | {n} | {rate(good_wins(games), n, sample)} | {rate(quests, n, sample)} | {same} |")
    if sample:
        lines.append(f"| published (Light et al. 2023, Tables 2-3) | 1000 | {100 * PUBLISHED['good']:.1f}% | "
                     f"{100 * PUBLISHED['quests']:.1f}% | |")
        lines += [""] + [agreement(name, games, ours) for name, games in runs.items() if games is not ours]
    return "\n".join(lines)


def compare(checkout: str, game: A.AvalonConfig, seeds: list[int], graph_games: int) -> dict[str, list[dict]]:
    """Every run over ``seeds``' deals: theirs twice, then ours."""
    started = time.perf_counter()
    states, ours = {}, []
    for seed in seeds:
        states[seed], played = play_ours(game, seed)
        ours.append(played)
    check_graph(game, seeds[:graph_games], states)
    print(f"  ours: {len(seeds)} games, {time.perf_counter() - started:.1f}s", file=sys.stderr)
    deals = [deal(game, seed) for seed in seeds]
    runs = {}
    for generators, name in (("shared", "AvalonBench's code as it runs: one generator for all bots, reseeded "
                                         "with 0 by each"),
                             ("own", "AvalonBench's code, each bot its own generator seeded with 0")):
        started = time.perf_counter()
        runs[name] = play_theirs(checkout, deals, generators)
        print(f"  theirs ({generators}): {time.perf_counter() - started:.1f}s", file=sys.stderr)
    runs[OURS] = ours
    return runs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--avalon-llm", required=True, help="a checkout of github.com/jonathanmli/Avalon-LLM")
    parser.add_argument("--games", type=int, default=1000, help="games of each run (default 1,000)")
    parser.add_argument("--seed-start", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--graph-games", type=int, default=20,
                        help="of ours, played again through the game graph with the seat option (default 20)")
    parser.add_argument("--all-deals", action="store_true", help="also every bench5 deal once: the exact rates")
    args = parser.parse_args(argv)
    game = config()
    seeds = list(range(args.seed_start, args.seed_start + args.games))
    print(table(f"`bench5`, the `avalonbench` setting, all `naive`: {args.games} games, seeds {seeds[0]}.."
                f"{seeds[-1]}", compare(args.avalon_llm, game, seeds, args.graph_games), True))
    if args.all_deals:
        print()
        print(table("Every `bench5` deal once (300 deals): the exact rates",
                    compare(args.avalon_llm, game, all_deal_seeds(game), 0), False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
