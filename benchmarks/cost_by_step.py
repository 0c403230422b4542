"""Where the model time of finished games goes: calls, uncached and generated tokens by request kind and
agent module, from their records, with no model.

Each decision event of a game record carries the usage of the calls made for it, per agent module
(``usage.modules``; a seat's round notes, written on a round notice, are carried into its next decision:
`roundtable.games.protocol.prepare_round`). This sums them over the games by (request kind, module), e.g.
``vote_team / act`` or ``speak / summarize``, and estimates each row's share of the model time from its
tokens: uncached prompt tokens / ``--prompt-rate`` + generated tokens / ``--generation-rate`` (tokens a
second). The defaults are the rates measured over whole games on the 2-core machine with the prebuilt
wheel (docs/measurements.md#the-embedded-models-speed): a call's own ``seconds`` include the time it queued behind other
calls, so they cannot be summed. Last, the totals per game and per team voted.

    python benchmarks/cost_by_step.py DIR_OR_RECORD...            # records/ directories, data directories or files
    python benchmarks/cost_by_step.py /tmp/bench --prompt-rate 78 --generation-rate 24
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from bench_lga_game import markdown
from play_quality import record_files

from roundtable.store.records import module_totals


def step_costs(record: dict[str, Any]) -> dict[tuple[str, str], Counter]:
    """One game's calls, uncached prompt tokens and generated tokens per (request kind, agent module).

    Args:
        record: a game record (`roundtable.store.records`), its decision events with ``usage.modules``.
    Returns:
        ``{(kind, module): Counter(calls=n, uncached=tokens, generated=tokens)}``; decisions without usage
        (bots, fallbacks without a call) add nothing.
    """
    return {key: Counter(calls=int(row["calls"]), uncached=int(row["prompt_tokens"] - row["cached_tokens"]),
                         generated=int(row["completion_tokens"]))
            for key, row in module_totals(record.get("events") or [], by_kind=True).items()}


def seconds(row: Counter, prompt_rate: float, generation_rate: float) -> float:
    """Estimated model seconds of a row: uncached tokens / prompt_rate + generated tokens / generation_rate
    (rates in tokens a second, > 0)."""
    return row["uncached"] / prompt_rate + row["generated"] / generation_rate


def table(records: list[dict[str, Any]], prompt_rate: float, generation_rate: float) -> list[list[str]]:
    """Markdown rows over ``records``: each (kind, module) with calls, tokens, estimated seconds and share of
    the estimated total, largest first, then the totals per game and per team voted."""
    totals: dict[tuple[str, str], Counter] = {}
    for record in records:
        for key, row in step_costs(record).items():
            totals.setdefault(key, Counter()).update(row)
    estimate = {key: seconds(row, prompt_rate, generation_rate) for key, row in totals.items()}
    whole = sum(estimate.values()) or 1.0
    rows = [[f"{kind} / {module}", f"{row['calls']}", f"{row['uncached'] / max(row['calls'], 1):.0f}",
             f"{row['generated'] / max(row['calls'], 1):.0f}", f"{row['uncached']:,}", f"{row['generated']:,}",
             f"{estimate[(kind, module)]:.0f}", f"{100 * estimate[(kind, module)] / whole:.0f}%"]
            for (kind, module), row in sorted(totals.items(), key=lambda item: -estimate[item[0]])]
    summed = sum(totals.values(), Counter())
    teams = sum(len(record.get("vote_results") or ()) for record in records)
    for name, count in (("per game", len(records)), ("per team voted", teams)):
        if count:
            rows.append([f"**{name}**", f"{summed['calls'] / count:.1f}", "", "", f"{summed['uncached'] / count:,.0f}",
                         f"{summed['generated'] / count:,.0f}", f"{whole / count:.0f}", ""])
    return rows


COLUMNS = ("kind / module", "calls", "uncached per call", "generated per call", "uncached tok", "generated tok",
           "est. model s", "share")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", help="records/ directories, data directories or record files")
    parser.add_argument("--prompt-rate", type=float, default=68.0, help="uncached prompt tokens a second (> 0)")
    parser.add_argument("--generation-rate", type=float, default=26.0, help="generated tokens a second (> 0)")
    args = parser.parse_args()
    if args.prompt_rate <= 0 or args.generation_rate <= 0:
        parser.error("rates must be positive")
    records = [json.loads(Path(path).read_text()) for path in record_files(args.paths)]
    if not records:
        parser.error(f"no game record under {', '.join(args.paths)}")
    print(f"games: {len(records)}; model seconds estimated at {args.prompt_rate:g} uncached prompt tokens/s and "
          f"{args.generation_rate:g} generated tokens/s\n")
    print(markdown(COLUMNS, table(records, args.prompt_rate, args.generation_rate)))


if __name__ == "__main__":
    main()
