"""What the judge reads of a finished game record: the words said at the table, who said them in which round,
and the roles, sides and private knowledge the measures group them by (docs/judge.md#what-the-judge-reads).

Only public utterances are read (what every player heard); words said to part of the table (the evil players'
talk before the assassination) are left out. A `Transcript` is small and JSON-ready, so the judge graph keeps it
in its state; its `Transcript.digest` is what the cached judgements are checked against.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Utterance(BaseModel):
    """One public utterance of a record.

    Attributes:
        index: its position in the record's ``events`` (a stable key: the log is append-only).
        speaker: the player who said it (1-based).
        round: the game's round it was said in (Avalon's quest, Werewolf's day; 1-based).
        phase: the game phase it was said in (``proposal``, ``discussion``, ``day_talk``, ...).
        text: the words.
    """

    model_config = ConfigDict(frozen=True)

    index: int
    speaker: int
    round: int
    phase: str
    text: str


class Transcript(BaseModel):
    """The judge's view of one finished record.

    Attributes:
        game_id: the record's game id.
        game: the game's name (a key of `roundtable.games.GAMES`).
        players: the number of players.
        roles: ``{player: role}`` (players 1-based).
        sides: ``{player: side}`` (``good``/``evil``, ``village``/``werewolves``).
        knowledge: ``{player: [(other player, what it is known as)]}`` from the private ``knowledge`` events
            (Merlin: ``evil``; Percival: ``merlin_or_morgana``; a werewolf: ``werewolf``); players who learned
            nothing are left out.
        utterances: the public utterances in log order.
        facts: the game's facts of the record beyond its words (`roundtable.judge.protocol.GameJudge.facts`),
            JSON-ready; ``{}``: none.
    """

    model_config = ConfigDict(frozen=True)

    game_id: str
    game: str
    players: int
    roles: dict[int, str]
    sides: dict[int, str]
    knowledge: dict[int, list[tuple[int, str]]]
    utterances: list[Utterance]
    facts: dict[str, Any] = Field(default_factory=dict)

    @property
    def digest(self) -> str:
        """SHA-256 (hex) of what the judge reads: the utterances, roles and knowledge, and the game's facts where
        it has any. A record whose words changed since it was judged has another digest, and is judged again."""
        data: list[Any] = [[[u.index, u.speaker, u.round, u.phase, u.text] for u in self.utterances],
                           sorted(self.roles.items()), sorted((p, k) for p, k in self.knowledge.items())]
        if self.facts:  # a game without facts keeps the digests its judgements were cached under
            data.append(self.facts)
        return hashlib.sha256(json.dumps(data, ensure_ascii=False).encode()).hexdigest()

    def in_round(self, round_: int) -> list[Utterance]:
        """The utterances of round ``round_``, in log order."""
        return [u for u in self.utterances if u.round == round_]


def transcript_of(record: Mapping[str, Any], round_field: str = "round",
                  facts: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None) -> Transcript:
    """The `Transcript` of a game record (`roundtable.store.records.build_record`'s shape).

    Args:
        record: a record with ``game_id``, ``game``, ``roles`` and ``events``.
        round_field: the utterance field holding the round (``round`` in Avalon, ``day`` in Werewolf).
        facts: the game's facts of a record (`roundtable.judge.protocol.GameJudge.facts`), or ``None``.

    Returns:
        The transcript; an utterance without the round field counts as round 1.
    """
    events = list(record.get("events") or [])
    roles = {int(p): str(r) for p, r in (record.get("roles") or {}).items()}
    sides = {int(e["player"]): str(e["side"]) for e in events if e.get("type") == "role" and "side" in e}
    knowledge = {int(e["player"]): [(int(k["player"]), str(k["is"])) for k in e.get("knows") or []]
                 for e in events if e.get("type") == "knowledge" and e.get("knows")}
    utterances = [Utterance(index=i, speaker=int(e["speaker"]), round=int(e.get(round_field) or 1),
                            phase=str(e.get("phase") or ""), text=str(e.get("text") or "").strip())
                  for i, e in enumerate(events)
                  if e.get("type") == "utterance" and e.get("to") is None and str(e.get("text") or "").strip()]
    players = len(roles) or max((u.speaker for u in utterances), default=0)
    return Transcript(game_id=str(record.get("game_id") or ""), game=str(record.get("game") or ""), players=players,
                      roles=roles, sides=sides, knowledge=knowledge, utterances=utterances,
                      facts=facts(record) if facts is not None else {})


_SEPARATOR = r"\s*(?:,\s*and|,\s*or|,|and|&|or|/)\s*(?:players?\s*)?#?\s*"
_NAMED = re.compile(r"\b(?:players?|p)\s*#?\s*(\d+(?:" + _SEPARATOR + r"\d+)*)\b", re.IGNORECASE)
"""``Player 3``, ``players 2 and 5``, ``Players 1, 3, and 4``, ``P4``, ``player #2``."""


def named_players(text: str, players: int, speaker: int | None = None) -> list[int]:
    """The players ``text`` names by number (``Player 3``, ``players 2 and 5``, ``P4``), in order of first
    mention, without ``speaker`` and numbers that are no player.

    Args:
        text: the words.
        players: the number of players (names outside 1..players are ignored).
        speaker: the player who said them (never its own target).

    Returns:
        Player numbers, each once.
    """
    found: list[int] = []
    for match in _NAMED.finditer(text):
        for number in re.findall(r"\d+", match.group(1)):
            player = int(number)
            if 1 <= player <= players and player != speaker and player not in found:
                found.append(player)
    return found
