"""Werewolf's part of the play-quality measures (docs/measures.md#play-quality): a werewolf exposing itself, the
Seer exposed by the village, decisions the player's own knowledge settles, picks naming a dead player, day
statements naming a vote target against the day's vote, and a werewolf's night words naming a victim against its
kill vote."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from roundtable.detectors.exposure import claims_role, named_good, named_role_holders, werewolf_exposes
from roundtable.detectors.plain import plain_names
from roundtable.detectors.words import named_kill_target, named_vote_target
from roundtable.games.werewolf import Role
from roundtable.metrics.quality.dead import count_dead_named
from roundtable.metrics.quality.parts import QualityPart
from roundtable.metrics.quality.result import PlayQuality
from roundtable.metrics.quality.talk import public, seat_roles

PICKS = ("kill", "protect", "poison", "see", "eliminate")
"""The Werewolf request kinds that name one player."""

"""How a decision's fallback or checks name a player its answer could not name."""


@dataclass
class _Table:
    """What the walk over the events knows at each moment: roles, the living, the Seer's checks and clears."""

    roles: list[Role]
    alive: set[int]
    checked: dict[int, bool] = field(default_factory=dict)
    cleared: set[int] = field(default_factory=set)
    claimed: set[int] = field(default_factory=set)  # players who claimed the Seer at the table
    in_turn: bool = False
    tonight: list[int | None] = field(default_factory=list)  # kill votes cast so far tonight (in turn only)

    def of(self, role: Role) -> set[int]:
        return {p for p, r in enumerate(self.roles, start=1) if r is role}



def count_werewolf(record: dict[str, Any], quality: PlayQuality) -> None:
    """Count Werewolf's measures of one game record into ``quality``, walking its events in order.

    Raises:
        KeyError, ValueError: the record has no roles or an unknown role.
    """
    roles = seat_roles(record, Role)
    rules = (record.get("config") or {}).get("rules") or {}
    table = _Table(roles, set(range(1, len(roles) + 1)), in_turn=rules.get("werewolf_night") == "sequential")
    said: dict[tuple[int, int], tuple[int, str]] = {}
    night: dict[tuple[int, int], tuple[int, str]] = {}  # a werewolf's words to its teammates before its kill vote
    voted: dict[tuple[int, int], int | None] = {}
    for event in record.get("events") or []:
        kind = event.get("type")
        if kind == "night_start":
            table.alive = set(event.get("alive") or table.alive)
            table.tonight = []
        elif kind == "deaths":
            table.alive -= set(event.get("players") or ())
        elif kind == "vote_result" and event.get("eliminated") is not None:
            table.alive.discard(int(event["eliminated"]))
        elif kind == "seer_result":
            table.checked[int(event["target"])] = bool(event["werewolf"])
        elif kind == "utterance" and (event.get("text") or "").strip():
            count_words(event, table, quality)
            if event.get("phase") == "day_talk" and (target := named_vote_target(event["text"])) is not None:
                said.setdefault((int(event["day"]), int(event["speaker"])), (target, event["text"]))
            elif event.get("phase") == "werewolves" and (target := named_kill_target(event["text"])) is not None:
                night[(int(event["day"]), int(event["speaker"]))] = (target, event["text"])
        elif kind == "decision" and event.get("kind") in PICKS:
            count_dead_named_pick(event, table, quality)
        elif kind in ("kill", "eliminate", "poison"):
            count_settled(event, table, quality)
            if kind == "kill" and table.in_turn:
                table.tonight.append(event.get("target"))
            if kind == "kill" and (words := night.pop((int(event["day"]), int(event["by"])), None)) is not None:
                agree(quality, int(event["by"]), f"night {event['day']}", words, event.get("target"), "to kill")
            if kind == "eliminate":
                voted[(int(event["day"]), int(event["player"]))] = event.get("target")
    for (day, speaker), words in said.items():
        if (day, speaker) in voted:
            agree(quality, speaker, f"day {day}", words, voted[(day, speaker)], "for")


def agree(quality: PlayQuality, speaker: int, when: str, words: tuple[int, str], target: int | None,
          verb: str) -> None:
    """Count whether the player ``words`` name (``(player, text)``) is the ``target`` the speaker then voted
    (``None``: passed)."""
    named, text = words
    quality.count("words_and_actions", target == named)
    if target != named:
        quality.example("words_and_actions", f"P{speaker} {when} said {text!r}, voted "
                                             f"{'to pass' if target is None else f'{verb} {target}'}")


def count_words(event: dict[str, Any], table: _Table, quality: PlayQuality) -> None:
    """Self-exposure (`werewolf_exposes`) and the Seer exposed (`named_role_holders` of ``seer`` in a village
    player's words, the Seer's own left out: a Seer may claim its role, and once it has, `claims_role`, naming it
    gives nothing away) of one utterance, and the Seer's public
    clears (`named_good` in the real Seer's words, of players it checked as not werewolves)."""
    if not public(event):
        return
    text, speaker = event["text"], int(event["speaker"])
    role = table.roles[speaker - 1]
    if claims_role(text, "seer"):
        table.claimed.add(speaker)
    wolves = table.of(Role.WEREWOLF)
    why = werewolf_exposes(text, role, speaker, wolves - {speaker})
    quality.count("self_exposure", why is not None)
    if why:
        quality.example("self_exposure", f"P{speaker} ({role.value}, {why}): {text!r}")
    if role is Role.WEREWOLF:
        return
    named = (set(named_role_holders(text, "seer")) & table.of(Role.SEER)) - table.claimed if role is not Role.SEER \
        else set()
    quality.count("merlin_exposed", bool(named))
    quality.count("plain_named", role is not Role.SEER and bool(plain_names(text, "seer") & table.of(Role.SEER)))
    if named:
        quality.example("merlin_exposed", f"P{speaker} ({role.value}) names the Seer: {text!r}")
    if role is Role.SEER:
        table.cleared |= {p for p in named_good(text) if table.checked.get(p) is False}


def count_settled(event: dict[str, Any], table: _Table, quality: PlayQuality) -> None:
    """Count one kill, eliminate or poison action that its player's knowledge settles (docs/measures.md#play-quality).

    The cases and what is right:

    * a werewolf's kill vote (always a case: it may name itself or its teammate): right when it names a village
      player, a pass killing no one (``"werewolf kill"``); its elimination vote while a teammate lives: right
      unless it names a werewolf (``"werewolf vote"``); at a
      ``werewolf_night=sequential`` night, a kill vote after a teammate's vote for a living village player is
      right only when it names that player too, since Xu et al.'s rule kills nobody without a consensus
      (docs/games/werewolf.md#werewolf_night);
    * the Seer's elimination vote while a player it checked is alive: right when it names a living player it
      checked as a werewolf, or, with none alive, when it names no player it checked as good (``"seer vote"``);
    * the Witch's poison on the first night, before anyone has spoken: right when she passes (``"witch first
      night"``: she knows nothing of anyone, and a poison then kills a village player twice as often as a
      werewolf in ``xu7``);
    * the Witch's poison while a living player other than her was publicly cleared by the real Seer (a Seer
      utterance, after a check that found the player good, saying it is good): right unless it poisons a
      cleared player (``"witch poison"``).
    """
    kind = event["type"]
    player = int(event["player"] if kind == "eliminate" else event["by"])
    target = event.get("target")
    role = table.roles[player - 1]
    wolves = table.of(Role.WEREWOLF)
    joined = {t for t in table.tonight if t is not None and t not in wolves and t in table.alive}
    if role is Role.WEREWOLF and kind == "kill" and len(joined) == 1:
        rule, right = "werewolf joins kill", target in joined
    elif role is Role.WEREWOLF and kind == "kill":  # a pass kills no one: the werewolves win only by killing
        rule, right = "werewolf kill", target is not None and target not in wolves
    elif role is Role.WEREWOLF and kind == "eliminate" and (wolves & table.alive) - {player}:
        rule, right = "werewolf vote", target not in wolves
    elif role is Role.SEER and kind == "eliminate" and set(table.checked) & table.alive - {player}:
        bad = {p for p, wolf in table.checked.items() if wolf and p in table.alive}
        good = {p for p, wolf in table.checked.items() if not wolf and p in table.alive}
        rule, right = "seer vote", (target in bad if bad else target not in good)
    elif role is Role.WITCH and kind == "poison" and int(event.get("day") or 0) == 1:
        rule, right = "witch first night", target is None
    elif role is Role.WITCH and kind == "poison" and table.cleared & table.alive - {player}:
        rule, right = "witch poison", target not in table.cleared
    else:
        return
    quality.count("settled_decisions", right, rule)
    if not right:
        quality.example("settled_decisions", f"P{player} ({role.value}) {rule}: "
                                             f"{'passed' if target is None else f'named {target}'}")


def count_dead_named_pick(decision: dict[str, Any], table: _Table, quality: PlayQuality) -> None:
    """One pick decision made once a player has died (`roundtable.metrics.quality.dead.count_dead_named`), its
    answer the recorded target."""
    target = decision.get("target")
    count_dead_named(decision, set(range(1, len(table.roles) + 1)) - table.alive,
                     int(target) if target is not None else None, quality)


PART = QualityPart("werewolf", count_werewolf, labels={"merlin_exposed": "Seer exposed",
                                                           "plain_named": "plain: role word near the Seer's number"})
"""Werewolf's part of the play-quality measures (the ``roundtable.quality`` entry point ``werewolf``)."""
