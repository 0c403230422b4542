"""Does asking for a short reason before a team vote change the embedded model's votes?

For the first team vote of three ``lan6`` games (seeds 11-13, naive bots up to
that point), the lga agent's real act prompt of each of the six players is
captured (through a recording scripted model), then sent to the embedded model
twice: with the bare vote schema ``{"vote"}`` and with ``{"reason", "vote"}``.
Prints approvals per variant and each player's role, the evil players on the
team, the vote and its latency.

    python benchmarks/models/vote_reason.py

Measured figures and their commands: docs/measurements.md#team-votes.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Literal

from langchain_core.messages import HumanMessage
from pydantic import Field, create_model

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "agents"))

from lga_fakes import Script, ScriptedModels, first, lga_input, play_until  # noqa: E402

from roundtable.agents.lga.graph import build_lga_graph  # noqa: E402
from roundtable.models.factory import chat_model  # noqa: E402
from roundtable.models.spec import parse_model_spec  # noqa: E402

BARE = create_model("BareVote", vote=(Literal["approve", "reject"], Field()))
REASONED = create_model("ReasonedVote", reason=(str, Field(max_length=100)),
                        vote=(Literal["approve", "reject"], Field()))


def main() -> None:
    model = chat_model(parse_model_spec("local"), 0.3, 64)
    rows: dict[str, list[tuple]] = {"bare": [], "reason first": []}
    for seed in (11, 12, 13):
        state, requests = play_until(first("vote_team"), seed=seed)
        for request in requests:
            script = Script()
            build_lga_graph(ScriptedModels(script)).compile().invoke(lga_input(state, request))
            messages = [c for c in script.calls if c.module == "act"][-1].messages
            task = str(messages[-1].content)
            bare_task = task.split('Answer in JSON with')[0] + 'Answer in JSON with "vote": "approve" or "reject".'
            evil = [p for p in request.subject if state.side_of(p).value == "evil"]
            for variant, schema, text in (("bare", BARE, bare_task), ("reason first", REASONED, task)):
                started = time.perf_counter()
                answer = model.with_structured_output(schema, method="json_schema").invoke(
                    [*messages[:-1], HumanMessage(text)])
                rows[variant].append((seed, request.player, state.role_of(request.player).value, evil,
                                      answer.vote, round(time.perf_counter() - started, 1)))
    for variant, got in rows.items():
        print(f"{variant}: approve {sum(1 for r in got if r[4] == 'approve')}/{len(got)}")
        for row in got:
            seed, player, role, evil, vote, seconds = row
            print(f"  seed {seed} player {player} {role:<9} evil on team {evil!s:<6} {vote:<7} {seconds}s")


if __name__ == "__main__":
    main()
