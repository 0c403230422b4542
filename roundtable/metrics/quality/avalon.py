"""Avalon's part of the play-quality measures (docs/measures.md#play-quality): self-exposure, Merlin exposed,
knowledge-settled team votes, leaders' words against their proposals, and games ended by five rejected teams."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from roundtable.detectors.exposure import claims_role, exposes, named_role_holders
from roundtable.detectors.knowledge import knowledge_vote
from roundtable.detectors.plain import plain_names
from roundtable.detectors.words import named_team, stated_stance
from roundtable.games.avalon import FifthRejection, Role, knowledge_of, rejection_wins
from roundtable.games.avalon.rules import FIVE_REJECTIONS
from roundtable.metrics.quality.parts import QualityPart
from roundtable.metrics.quality.result import PlayQuality
from roundtable.metrics.quality.talk import public, seat_roles, utterances


def settled_vote(roles: Sequence[Role], voter: int, team: Iterable[int], last_chance: bool = False,
                 exposed: int | None = None) -> bool | None:
    """The vote the voter's own knowledge decides on ``team``, or None when it decides nothing
    (`roundtable.detectors.knowledge.knowledge_vote` over what the roles reveal to the voter and the Assassin a missed
    mid-game shot exposed to everyone: a good player approving a team with him goes against what it knows); on a
    team whose rejection wins the game for evil (``last_chance``: the fifth proposal under
    ``fifth_rejection=evil_wins``, docs/games/avalon.md#fifth_rejection) the rule decides every vote: good
    approves, evil rejects.

    Args:
        roles: the roles by seat (``roles[p - 1]`` is player ``p``'s).
        voter: the voting player, 1-based.
        team: the proposed team.
        last_chance: a rejection of this team ends the game with evil's win.
        exposed: the Assassin's seat once a missed mid-game shot exposed him before this vote
            (``assassination=after_each_quest``; `exposed_assassin`), else None.
    """
    if last_chance:
        return roles[voter - 1].side.value == "good"
    return knowledge_vote(roles[voter - 1], voter, knowledge_of(tuple(roles), voter), team, exposed=exposed)


def exposed_assassin(event: dict[str, Any]) -> int | None:
    """The Assassin's seat when ``event`` is a missed mid-game shot that exposed him to the table
    (an ``assassination`` entry marked ``exposed``), else None."""
    if event.get("type") == "assassination" and event.get("exposed"):
        return int(event["assassin"])
    return None


def last_chance(record: dict[str, Any], attempt: int) -> bool:
    """Whether rejecting proposal ``attempt`` of a round of the recorded game wins the game for evil."""
    rules = (record.get("config") or {}).get("rules") or {}
    return rejection_wins(attempt, rules.get("fifth_rejection", FifthRejection.EVIL_WINS))



def count_avalon(record: dict[str, Any], quality: PlayQuality) -> None:
    """Count Avalon's measures of one game record into ``quality``.

    Raises:
        KeyError, ValueError: the record has no roles or an unknown role.
    """
    roles = seat_roles(record, Role)
    count_words(record, roles, quality)
    count_votes(record, roles, quality)
    count_five_rejections(record, quality)


def count_words(record: dict[str, Any], roles: Sequence[Role], quality: PlayQuality) -> None:
    """Self-exposure and Merlin exposed over the public utterances (`exposes` with the speaker's number;
    `named_role_holders` of ``merlin`` among the good side's words, "the leader" standing for the leader of the
    team the words were said about, Merlin's own left to self-exposure; a Merlin
    who claimed the role at the table, `claims_role`, is exposed by himself, not by those who name him after)."""
    merlins = {p for p, role in enumerate(roles, start=1) if role is Role.MERLIN}
    leaders = {(e.get("round"), e.get("attempt")): e.get("leader") for e in record.get("events") or []
               if e.get("type") == "leader"}
    for event in utterances(record):
        if not public(event):
            continue
        text, speaker = event["text"], int(event["speaker"])
        if claims_role(text, "merlin"):
            merlins.discard(speaker)
        role = roles[speaker - 1]
        seen = [int(k["player"]) for k in knowledge_of(tuple(roles), speaker) if k["is"] == "evil"]
        leader = leaders.get((event.get("round"), event.get("attempt")))
        why = exposes(text, role, seen, player=speaker, leader=leader)
        quality.count("self_exposure", why is not None)
        if why:
            quality.example("self_exposure", f"P{speaker} ({role.value}, {why}): {text!r}")
        if role.side.value == "good":
            named = set(named_role_holders(text, "merlin", leader)) & merlins if role is not Role.MERLIN else set()
            quality.count("merlin_exposed", bool(named))
            quality.count("plain_named", role is not Role.MERLIN and bool(plain_names(text, "merlin") & merlins))
            if named:
                quality.example("merlin_exposed", f"P{speaker} ({role.value}) names Merlin: {text!r}")


def count_votes(record: dict[str, Any], roles: Sequence[Role], quality: PlayQuality) -> None:
    """Knowledge-settled team votes (`settled_vote`); for words and actions, the leaders' final proposals against
    the team their last words of that proposal named (`named_team`), and the team votes against the stance the
    voter's own public words stated while that team was on the table (`stated_stance`)."""
    last_words: dict[tuple[int, int, int], str] = {}
    on_table: dict[tuple[int, int], list[int]] = {}  # the team proposed last in each proposal's talk
    stances: dict[tuple[int, int, int], tuple[str, list[int]]] = {}  # a speaker's words and the team they were on
    teams: dict[tuple[int, int], list[int]] = {}
    exposed: int | None = None  # the Assassin, once a missed mid-game shot exposed him to every player
    for event in record.get("events") or []:
        kind = event.get("type")
        exposed = exposed_assassin(event) or exposed
        if kind == "utterance" and (event.get("text") or "").strip():
            key = (event["round"], event["attempt"], event["speaker"])
            last_words[key] = event["text"]
            table = on_table.get((event["round"], event["attempt"]))
            if public(event) and table is not None and stated_stance(event["text"]) is not None:
                stances[key] = (event["text"], table)
        if kind == "proposal":
            on_table[(event["round"], event["attempt"])] = list(event["team"])
        if kind == "proposal" and event.get("final"):
            team = list(event["team"])
            teams[(event["round"], event["attempt"])] = team
            said = last_words.get((event["round"], event["attempt"], event["leader"]))
            named = named_team(said or "", len(team))
            if named is not None:
                quality.count("words_and_actions", set(named) == set(team))
                if set(named) != set(team):
                    quality.example("words_and_actions", f"P{event['leader']} said {said!r}, proposed {team}")
        elif kind == "vote_team":
            voted_on = teams.get((event["round"], event["attempt"]))
            count_stance(event, stances.get((event["round"], event["attempt"], event["player"])), voted_on, quality)
            expected = (settled_vote(roles, int(event["player"]), voted_on, last_chance(record, int(event["attempt"])),
                                     exposed=exposed)
                        if voted_on is not None else None)
            if expected is not None:
                right = bool(event["approve"]) == expected
                quality.count("settled_decisions", right, "team vote")
                if not right:
                    quality.example("settled_decisions", f"P{event['player']} ({roles[event['player'] - 1].value}) "
                                                         f"{'approved' if event['approve'] else 'rejected'} {voted_on}")


def count_stance(vote: dict[str, Any], said: tuple[str, list[int]] | None, voted_on: list[int] | None,
                 quality: PlayQuality) -> None:
    """One team vote against the stance its voter stated on that team (``said``: its words and the team on the
    table when it spoke; a stance on a team the leader then changed is no case)."""
    if said is None or voted_on is None or set(said[1]) != set(voted_on):
        return
    stance = stated_stance(said[0])
    quality.count("words_and_actions", stance == bool(vote["approve"]))
    if stance != bool(vote["approve"]):
        quality.example("words_and_actions", f"P{vote['player']} said {said[0]!r}, voted "
                                             f"{'approve' if vote['approve'] else 'reject'} on {voted_on}")


def count_five_rejections(record: dict[str, Any], quality: PlayQuality) -> None:
    """A finished game (one with its ``game_over`` event) is a case; a hit when it ended by five rejected teams
    (``end_reason`` ``five_rejected_proposals``), whose quest (the round of its last proposal) is kept."""
    events = record.get("events") or []
    over = next((e for e in events if e.get("type") == "game_over"), None)
    if over is None:
        return
    rejected = (record.get("end_reason") or over.get("reason")) == FIVE_REJECTIONS
    quality.count("five_rejections", rejected)
    if rejected:
        rounds = [int(e["round"]) for e in events if e.get("type") in ("proposal", "round_start") and "round" in e]
        quest = max(rounds, default=0)
        quality.five_rejection_quests.append(quest)
        quality.example("five_rejections", f"{record.get('game_id', 'game')} ended by five rejected teams in "
                                           f"quest {quest}")


PART = QualityPart("avalon", count_avalon, labels={"merlin_exposed": "Merlin exposed",
                                                       "plain_named": "plain: role word near Merlin's number"})
"""Avalon's part of the play-quality measures (the ``roundtable.quality`` entry point ``avalon``)."""
