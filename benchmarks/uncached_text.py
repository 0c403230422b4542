"""What each call of a game processes anew, from the prompts in its record, with no model.

With per-player slots (`roundtable.agents.lga.turn`), a call reuses the prompt of the same player's previous call
up to their first difference; the rest, its new text, is processed anew. This splits that new text, per request
kind and agent module, into the task (from the last Host line that opens a paragraph, i.e. the instruction with
its answer format) and the lines before it (the public record said since the player's last call, notes), in
characters, and gives the task's share of all new text. It reads the
prompts that decisions keep in their usage log (``usage["log"][i]["prompt"]``), so records from before those logs
give nothing.

    python benchmarks/uncached_text.py DIR_OR_RECORD...      # records/ directories, data directories or files
"""

from __future__ import annotations

import argparse
import json
import os
from collections import Counter
from typing import Any

from play_quality import record_files

TASK_START = "\n\nHost:"
"""Where a prompt's task begins: the last paragraph that opens with a Host line (`avalon/instruction`)."""


def prompt_text(prompt: list[dict[str, Any]]) -> str:
    """A logged prompt (chat messages) as one text, in the order the server reads it."""
    return "\n".join(str(m.get("content", "")) for m in prompt)


def new_text(records: list[dict[str, Any]]) -> tuple[Counter, Counter, Counter]:
    """Per ``(request kind, module)``: calls, characters of new text, characters of task among them.

    The first call of each player in a game has no previous prompt and is left out (its new text is the whole
    prompt, rules included, once a game).
    """
    calls, new, task = Counter(), Counter(), Counter()
    for record in records:
        previous: dict[int, str] = {}
        for decision in record.get("decisions") or []:
            for call in decision.get("usage", {}).get("log", []):
                text, player = prompt_text(call["prompt"]), int(decision["player"])
                if player in previous:
                    fresh = text[len(os.path.commonprefix([previous[player], text])):]
                    start = fresh.rfind(TASK_START)
                    key = (decision["kind"], call["module"])
                    calls[key] += 1
                    new[key] += len(fresh)
                    task[key] += len(fresh) - start if start >= 0 else 0
                previous[player] = text
    return calls, new, task


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", help="record files, records/ directories or data directories")
    args = parser.parse_args()
    records = [json.loads(path.read_text()) for path in record_files(args.paths)]
    calls, new, task = new_text(records)
    print("| request kind | module | calls | new chars per call | task chars per call | task share |")
    print("|---|---|---|---|---|---|")
    for key in sorted(calls, key=lambda k: -new[k]):
        print(f"| {key[0]} | {key[1]} | {calls[key]} | {new[key] / calls[key]:.0f} | {task[key] / calls[key]:.0f} "
              f"| {task[key] / new[key] if new[key] else 0:.0%} |")
    total_new, total_task = sum(new.values()), sum(task.values())
    print(f"\n{len(records)} games, {sum(calls.values())} calls: the task is {total_task / max(total_new, 1):.0%} "
          f"of the new text ({total_task:,} of {total_new:,} characters)")


if __name__ == "__main__":
    main()
