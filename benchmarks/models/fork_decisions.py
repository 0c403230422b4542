"""Decisions of recorded games made again, from their checkpoints, by the code checked out now.

For every decision point of one kind in the given games (in game order, so
each player's server slot still holds its last prompt), the game is forked at
the checkpoint just before it (`roundtable.play.forks.fork_game`,
``until_decision``): the players answer again with the same memory and the
same call seeds, through the real game and agent graphs, with the prompts of
the current code.

- ``--kind vote_team`` (default): every team vote; prints the recorded and
  the new answer of each, then approvals before and after, overall, by who
  votes (an evil player, Merlin, a good player whose knowledge settles
  nothing, the team's leader) and by proposal number, and the votes that a
  player's knowledge or a game-ending fifth team settles
  (`roundtable.metrics.play_quality.settled_vote`) answered right.
- ``--kind propose_team``: every leader's first proposal of a proposal;
  prints the recorded and the new team with the evil players on each, then
  how many good leaders' teams hold no evil player and how many evil
  leaders' teams hold one, before and after.

    ROUNDTABLE_HOME=DIR python benchmarks/models/fork_decisions.py GAME_ID... [--kind K] [--limit N]

The games must be in ``DIR`` (the data directory of the run that played them,
e.g. a ``bench_lga_game.py --home DIR``); the forks are written there too.
Measured figures and their commands: docs/measurements.md#team-votes.
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from roundtable.games.avalon import Role
from roundtable.metrics.play_quality import last_chance, settled_vote
from roundtable.play.forks import fork_game
from roundtable.play.runner import open_runner
from roundtable.store.records import read_record

PHASE = {"vote_team": "vote_team", "propose_team": "proposal"}


def fork_steps(game_id: str, kind: str) -> list[int]:
    """The steps of the checkpoints just before the requests of each decision point of ``kind`` are written."""
    with open_runner("avalon") as runner:
        return [e["step"] for e in runner.history(game_id) if e.get("next") == [PHASE[kind]]]


def tally_votes(tally: dict[str, Counter], roles: list[Role], record: dict[str, Any], fork: dict[str, Any]) -> None:
    """Add the fork's last proposal's votes, against the recorded ones, to ``tally``."""
    proposals = {(p["round"], p["attempt"]): p for p in record["proposals"] if p.get("final", True)}
    votes = fork["votes"]
    if not votes:
        return
    last = max((v["round"], v["attempt"]) for v in votes)
    recorded = {(v["round"], v["attempt"], v["player"]): bool(v["approve"]) for v in record["votes"]}
    for v in votes:
        if (v["round"], v["attempt"]) != last or (v["round"], v["attempt"], v["player"]) not in recorded:
            continue
        old, new, player = recorded[(v["round"], v["attempt"], v["player"])], bool(v["approve"]), v["player"]
        proposal = proposals[last]
        role = roles[player - 1]
        who = "evil" if role.side.value == "evil" else "merlin" if role is Role.MERLIN else "uninformed"
        right = settled_vote(roles, player, proposal["team"], last_chance(record, v["attempt"]))
        keys = ["all", who + (" leader" if proposal["leader"] == player else ""), f"proposal {v['attempt']}"]
        for key in keys:
            tally.setdefault(key, Counter()).update(votes=1, before=int(old), after=int(new))
        if right is not None:
            tally.setdefault("settled", Counter()).update(votes=1, before=int(old == right), after=int(new == right))
        print(f"q{v['round']}.{v['attempt']} player {player} {role.value:9s} team {proposal['team']} leader "
              f"{proposal['leader']}: {'approve' if old else 'reject'} -> {'approve' if new else 'reject'}", flush=True)


def tally_proposals(tally: dict[str, Counter], roles: list[Role], record: dict[str, Any], fork: dict[str, Any]) -> None:
    """Add the fork's last first proposal, against the recorded one, to ``tally``."""
    if not fork["proposals"] or fork["proposals"][-1].get("final"):
        return  # the fork point was a final proposal's
    new = fork["proposals"][-1]
    old = next((p for p in record["proposals"] if not p.get("final") and (p["round"], p["attempt"]) ==
                (new["round"], new["attempt"])), None)
    if old is None:
        return
    leader = new["leader"]
    evil = {p for p in range(1, len(roles) + 1) if roles[p - 1].side.value == "evil"}
    side = roles[leader - 1].side.value
    key = f"{side} leaders' teams " + ("with no evil player" if side == "good" else "with an evil player")
    wanted = (lambda team: not evil & set(team)) if side == "good" else (lambda team: bool(evil & set(team)))
    tally.setdefault(key, Counter()).update(votes=1, before=int(wanted(old["team"])), after=int(wanted(new["team"])))
    print(f"q{new['round']}.{new['attempt']} leader {leader} {roles[leader - 1].value:9s}: {old['team']} "
          f"(evil {sorted(evil & set(old['team']))}) -> {new['team']} (evil {sorted(evil & set(new['team']))})",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="+")
    parser.add_argument("--kind", default="vote_team", choices=sorted(PHASE))
    parser.add_argument("--limit", type=int, default=0, help="at most this many decision points per game (0: all)")
    args = parser.parse_args()
    tally: dict[str, Counter] = {}
    for game_id in args.games:
        record = read_record(game_id)
        roles = [Role(record["roles"][str(p)]) for p in range(1, len(record["roles"]) + 1)]
        for step in fork_steps(game_id, args.kind)[:args.limit or None]:
            fork = read_record(fork_game(game_id, step, until_decision=True))
            (tally_votes if args.kind == "vote_team" else tally_proposals)(tally, roles, record, fork)
    print("\nrecorded -> now (votes: approvals; settled: right answers):")
    for key, t in sorted(tally.items()):
        print(f"  {key:40s} {t['before']}/{t['votes']} -> {t['after']}/{t['votes']}")


if __name__ == "__main__":
    main()
