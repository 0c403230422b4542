"""How sensibly does the lga agent vote on teams with the embedded model?

For the first team vote of each of four ``lan6`` games (seeds 11-14,
naive bots play up to that point), each of the six players' real lga act call
is made on the embedded model (``local``), through the lga graph. A vote counts
as *informed* when the player's own knowledge settles it: Merlin should
approve exactly the teams with no evil player he sees; an evil player (the
Assassin, Morgana) exactly the teams with an evil player on them. Percival and
the Servants cannot know; their approvals of clean teams are shown apart.

    python benchmarks/models/vote_accuracy.py              # seeds 11-14
    python benchmarks/models/vote_accuracy.py 11 12 13 14 15 16 17 18
    python benchmarks/models/vote_accuracy.py --vote-check off 11 12   # the agent's vote check off

``--vote-check`` is the ``lga`` seat option ``vote_check`` (``record``, the
script's default, ``knowledge`` or ``off``, the agent's default): which votes
the agent asks itself again.

Prints one line per vote and the totals.

The same prompt can flip between runs (temperature 0.3): treat differences of
two or three votes as noise. Measured figures and their commands:
docs/measurements.md#team-votes.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "agents"))

from lga_fakes import play_until  # noqa: E402

from roundtable.agents.lga.graph import build_lga_graph  # noqa: E402
from roundtable.metrics.play_quality import settled_vote  # noqa: E402

VOTES_PER_GAME = 1


def lga_call(state, request, seed, vote_check):
    from lga_fakes import lga_input

    inp = lga_input(state, request, seed=seed, options={"vote_check": vote_check})
    inp["seat"]["model"] = "local"
    return build_lga_graph().compile().invoke(inp)["decisions"][request.id]


def main() -> None:
    informed = [0, 0]  # right, asked
    uninformed_clean = [0, 0]  # approvals, asked
    calls = reasks = 0
    args = sys.argv[1:]
    vote_check = "record"  # the check under study (the agent's default is off)
    if args[:1] == ["--vote-check"]:
        vote_check, args = args[1], args[2:]
    for seed in [int(arg) for arg in args] or (11, 12, 13, 14):
        votes_seen = 0
        state, requests = play_until(lambda s, rs: any(r.kind == "vote_team" for r in rs), seed=seed)
        while votes_seen < VOTES_PER_GAME:
            for request in requests:
                role = state.role_of(request.player)
                evil_on = [p for p in request.subject if state.side_of(p).value == "evil"]
                started = time.perf_counter()
                decision = lga_call(state, request, seed, vote_check)
                approve = bool(decision["choice"])
                calls += decision["usage"]["calls"]
                reasks += any("asked again" in c for c in decision.get("checks") or ())
                settled = settled_vote(state.roles, request.player, request.subject)
                if settled is not None:
                    right = approve == settled
                    informed[0] += right
                    informed[1] += 1
                    verdict = "right" if right else "WRONG"
                else:
                    if not evil_on:
                        uninformed_clean[0] += approve
                        uninformed_clean[1] += 1
                    verdict = "-"
                print(f"seed {seed} r{request.round}a{request.attempt} player {request.player} {role.value:9s} "
                      f"team {list(request.subject)} evil on {evil_on} -> {'approve' if approve else 'reject'}"
                      f" {verdict} ({time.perf_counter() - started:.1f} s)", flush=True)
            votes_seen += 1
            first_vote = (requests[0].round, requests[0].attempt)
            state, requests = play_until(
                lambda s, rs, fv=first_vote: any(r.kind == "vote_team" and (r.round, r.attempt) > fv for r in rs),
                seed=seed)
    print(f"informed votes right: {informed[0]}/{informed[1]}; "
          f"Percival and Servants approving clean teams: {uninformed_clean[0]}/{uninformed_clean[1]}; "
          f"vote_check={vote_check}: {reasks} votes asked again, {calls} calls")


if __name__ == "__main__":
    main()
