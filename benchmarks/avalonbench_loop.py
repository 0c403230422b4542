"""AvalonBench's own naive-bot game loop over given deals: the subprocess of `avalonbench_baseline.py`
(docs/agents/naive.md#the-avalonbench-flavour). It imports nothing of this project, only a checkout of
github.com/jonathanmli/Avalon-LLM, which is never vendored here::

    git clone https://github.com/jonathanmli/Avalon-LLM /tmp/avalon-llm
    python benchmarks/avalonbench_loop.py /tmp/avalon-llm DEALS.json OUT.json [--generators shared|own]

``DEALS.json`` is a list in their data-file format (``data/avalon/dev.json``): ``{"num_players", "quest_leader",
"role_names"}``, seats 0-based. Each deal is played once by ``AvalonBench.start_sample``
(``src/server/tasks/avalon/task.py``) with every seat ``naive`` and discussion off: their configuration
``avalon-dev-naive`` (``configs/tasks/avalon.yaml``). ``--generators``:

- ``shared`` (their code as it runs): every bot draws from Python's global ``random``, which each bot's
  constructor reseeds with ``random.seed(0, version=1)``, so all bots of a game share one generator;
- ``own``: each bot draws from its own ``random.Random`` seeded the same way: each call of a bot runs with the
  ``random`` name of ``baseline_agents.py`` bound to that bot's generator (their files are not changed).

``OUT.json`` holds one record per deal, from the game's log: ``{"good": won by good, "teams": [[leader, [seats
named, sorted]], ...] per proposal, "fails": [fail cards per quest], "target": the Assassin's target or null}``.

Their task module imports libraries of its model agents that the naive path never calls (``langchain``,
``langchain_community``, ``networkx``); where one is not installed, an empty module stands in for it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import inspect
import io
import json
import os
import random
import re
import sys
import types
import warnings
from typing import Any

UNUSED = ("langchain", "langchain_community", "networkx")
"""Libraries their task module imports for its model agents only."""


class _Empty(types.ModuleType):
    """A stand-in module: every name in it is an empty class."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return type(name, (), {"__init__": lambda self, *args, **kwargs: None})


class _StandIns(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `_Empty` modules for the packages in ``roots`` and everything under them."""

    def __init__(self, roots: set[str]) -> None:
        self.roots = roots

    def find_spec(self, name: str, path: Any, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if name.split(".")[0] in self.roots:
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return _Empty(spec.name)

    def exec_module(self, module: types.ModuleType) -> None:
        module.__path__ = []


class _OwnGenerator:
    """One of their bots whose calls draw from its own generator, seeded as its constructor seeds the global one."""

    def __init__(self, bot: Any, module: types.ModuleType) -> None:
        self._bot, self._module = bot, module
        self._random = random.Random()
        self._random.seed(0, version=1)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._bot, name)
        if not inspect.iscoroutinefunction(value):
            return value

        async def call(*args: Any, **kwargs: Any) -> Any:
            shared, self._module.random = self._module.random, self._random  # type: ignore[attr-defined]
            try:
                return await value(*args, **kwargs)
            finally:
                self._module.random = shared  # type: ignore[attr-defined]

        return call


def _load(checkout: str, generators: str) -> tuple[Any, Any]:
    """Their ``AvalonBench`` task class and ``Session``, imported from ``checkout``."""
    sys.path.insert(0, checkout)
    missing = {name for name in UNUSED if importlib.util.find_spec(name) is None}
    sys.meta_path.insert(0, _StandIns(missing))
    task = importlib.import_module("src.server.tasks.avalon.task")
    session = importlib.import_module("src.server.task").Session
    if generators == "own":
        bots = importlib.import_module("src.server.tasks.avalon.agents.baseline_agents")
        find = task.AGENT_FINDER["naive"]
        task.AGENT_FINDER["naive"] = lambda **configs: _OwnGenerator(find(**configs), bots)
    return task.AvalonBench, session


_TEAM = re.compile(r"Leader Player (\d+) chooses team \[([\d, ]*)\]")
_CARDS = re.compile(r"Quest votes at this round: \[(.*)\]")
_SHOT = re.compile(r"Assassin Player \d+ chooses to assassinate Player (\d+)")
_FAIL = re.compile(r"^(?:np\.)?(?:\w+\()?(?:0|False|False_)\)?$")
"""A fail card as their log prints it: ``0`` or a false ``numpy.bool_`` (``False``, ``np.False_``)."""


def trace(result: dict[str, Any]) -> dict[str, Any]:
    """One game's record (see the module's docstring) from ``start_sample``'s result."""
    teams, fails, target = [], [], None
    for line in result["game_env_log"]:
        if match := _TEAM.fullmatch(line):
            teams.append([int(match[1]), sorted(int(s) for s in match[2].split(",") if s.strip())])
        elif match := _CARDS.fullmatch(line):
            fails.append(sum(bool(_FAIL.match(card.strip())) for card in match[1].split(",")))
        elif match := _SHOT.fullmatch(line):
            target = int(match[1])
    return {"good": result["game_result"] == "Good wins!", "teams": teams, "fails": fails, "target": target}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", help="a checkout of github.com/jonathanmli/Avalon-LLM")
    parser.add_argument("deals", help="the deals, in their data-file format (JSON)")
    parser.add_argument("out", help="where to write one record per deal (JSON)")
    parser.add_argument("--generators", choices=("shared", "own"), default="shared")
    args = parser.parse_args(argv)
    checkout, deals_file, out = (os.path.abspath(p) for p in (args.checkout, args.deals, args.out))
    os.chdir(checkout)
    warnings.simplefilter("ignore")
    bench, session = _load(checkout, args.generators)
    with open(deals_file) as f:
        deals = json.load(f)
    task = bench(num_players=deals[0]["num_players"], agent_list=["naive"] * deals[0]["num_players"],
                 discussion=False, data_file=deals_file, name="avalon-dev-naive")
    records = []
    for index in range(len(deals)):
        with contextlib.redirect_stdout(io.StringIO()):  # their loop prints every step
            result = asyncio.run(task.start_sample(index, session()))
        records.append(trace(result.result))
    with open(out, "w") as f:
        json.dump(records, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
