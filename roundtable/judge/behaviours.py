"""The questions every game's behaviours are built from (docs/judge.md#behaviours): a speaker's stance towards
the players its words name, the role or side a speaker claims for itself, and whether a player's words disclose
what it privately knows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from roundtable.judge.answers import Item
from roundtable.judge.protocol import Behaviour
from roundtable.judge.transcript import Transcript, named_players

STANCES = ("trust", "distrust", "neither")
"""A speaker's stance towards a player it names: trust (teamwork), distrust (confrontation), neither."""

NO_CLAIM = "none"
"""The claim of an utterance in which the speaker claims no role or side for itself."""

DISCLOSED = ("disclosed", "not_disclosed")
"""Whether a player's words give a fact it privately knows away."""


def stance_items(transcript: Transcript) -> list[Item]:
    """One question per public utterance that names another player by number: the speaker's stance
    (`STANCES`) towards each player named (fields ``player_N``). An utterance naming nobody asks nothing."""
    items = []
    for u in transcript.utterances:
        targets = named_players(u.text, transcript.players, u.speaker)
        if targets:
            items.append(Item(key=f"u{u.index}", fields=tuple(f"player_{p}" for p in targets), choices=STANCES,
                              variables={"speaker": u.speaker, "round": u.round, "phase": u.phase, "text": u.text,
                                         "targets": targets}))
    return items


def stance_behaviour(description: str) -> Behaviour:
    """The ``stance`` behaviour (template ``judge/stance``, questions `stance_items`), described in the game's
    words (Avalon's teamwork and confrontation, Werewolf's trust and confrontation)."""
    return Behaviour("stance", "judge/stance", description, stance_items)


def claim_choices(roles: Iterable[str], sides: Iterable[str]) -> tuple[str, ...]:
    """The words a claim is answered with: every role of the game, every side, then `NO_CLAIM`."""
    return (*roles, *sides, NO_CLAIM)


def claim_items(transcript: Transcript, choices: tuple[str, ...], aliases: Mapping[str, str],
                rounds: Iterable[int] | None = None) -> list[Item]:
    """One question per public utterance (of ``rounds`` only, when given): the role or side the speaker claims
    for itself (field ``claim``, one of ``choices``; `NO_CLAIM` for none).

    Args:
        transcript: the record's words.
        choices: `claim_choices` of the game.
        aliases: other names of the choices (role titles: ``Loyal Servant of Arthur`` for ``servant``).
        rounds: the rounds asked about (``None``: all).
    """
    wanted = None if rounds is None else set(rounds)
    return [Item(key=f"u{u.index}", fields=("claim",), choices=choices, aliases=aliases,
                 variables={"speaker": u.speaker, "round": u.round, "phase": u.phase, "text": u.text})
            for u in transcript.utterances if wanted is None or u.round in wanted]


def sharing_items(transcript: Transcript, roles: Iterable[str], known_as: Mapping[str, str],
                  role_titles: Mapping[str, str], round_: int = 1) -> list[Item]:
    """One question per player of ``roles`` who knows something and spoke in round ``round_``: for each fact
    it knows (fields ``player_N``, the player the fact is about), whether its words in that round disclose it
    (`DISCLOSED`). A player who said nothing in that round disclosed nothing, and is asked nothing.

    Args:
        transcript: the record's words and knowledge.
        roles: the roles whose knowledge is judged (Avalon: Merlin, Percival).
        known_as: ``{what a knowledge event says a player is: words}`` (``evil``: ``on the evil side``).
        role_titles: ``{role: its title}``.
        round_: the round judged (Lan et al.: the first).
    """
    wanted = set(roles)
    items = []
    for player, known in sorted(transcript.knowledge.items()):
        lines = [u.text for u in transcript.in_round(round_) if u.speaker == player]
        role = transcript.roles.get(player, "")
        if role not in wanted or not lines:
            continue
        facts = [{"player": other, "is": known_as.get(what, what)} for other, what in known]
        items.append(Item(key=f"p{player}", fields=tuple(f"player_{other}" for other, _ in known), choices=DISCLOSED,
                          variables={"speaker": player, "round": round_, "role": role,
                                     "role_title": role_titles.get(role, role), "facts": facts, "lines": lines}))
    return items


def game_terms(game: str, title: str, round_name: str, roles: Iterable[tuple[str, str, str]],
               sides: Iterable[str]) -> dict[str, object]:
    """The variables every prompt of a game gets (`roundtable.judge.protocol.GameJudge.terms`).

    Args:
        game: the game's name.
        title: the game's name in words (``The Resistance: Avalon``).
        round_name: what a round is called (``quest``, ``day``).
        roles: ``[(role, title, side)]``.
        sides: the sides' names.
    """
    return {"game": game, "title": title, "round_name": round_name,
            "roles": [{"name": name, "title": role_title, "side": side} for name, role_title, side in roles],
            "sides": list(sides)}


def title_aliases(roles: Iterable[tuple[str, str, str]]) -> dict[str, str]:
    """``{role title: role}`` for the titles that differ from the role's name (how a prose reply may write a
    claimed role)."""
    return {title: name for name, title, _ in roles if title.lower() != name}
