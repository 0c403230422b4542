"""Secret Hitler's part of roundtable's play-quality measures (docs/games/secret-hitler.md#play-quality), declared
under the ``roundtable.quality`` entry point ``secret_hitler``.

Counted from the record's facts alone (its ``roles`` and ``events``: the draws, discards, hands passed, policies
enacted, nominations, votes, investigations, executions and utterances), never from what an agent's own checks
found: the words are read by the few plain patterns of this module, none of roundtable's detectors, aids or agents
(what filtered a player's words must not count them). Into roundtable's measures
(`roundtable.metrics.quality.result.PlayQuality`, docs/measures.md#play-quality):

- ``self_exposure``: a public utterance is a case; a hit when a Fascist or Hitler states its own role or side
  ("I am Hitler", "as a Fascist, I ...", "we Fascists"), names the Hitler its reveal showed it ("Player 1 is
  Hitler"), or calls a teammate its reveal showed its teammate (`exposes`);
- ``settled_decisions`` (by rule, `count_settled`): what the player's own knowledge settles: a Liberal President
  discarding, or a Liberal Chancellor enacting, a Fascist policy when it held a Liberal one and a Fascist one
  (right: the Liberal policy kept); a Liberal voting on, or as President nominating, a government with a player
  its own investigation showed Fascist (right: nein; another nominee); a Liberal President executing a player
  its own investigation showed Liberal (right: anyone else); a Fascist or Hitler voting on Hitler as Chancellor
  once three Fascist policies are enacted, an immediate win (right: ja);
- ``words_and_actions``: a vote whose voter said in that round's talk how it would vote ("I will vote ja") is a
  case; a hit when the vote is the one it said (`stated_vote`);
- ``dead_named``: a pick (nomination, investigation, special election, execution) made once a player is dead is
  a case; a hit when it names a dead player: its recorded answer, or a player its fallback says could not be
  chosen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from roundtable.metrics.quality.dead import count_dead_named
from roundtable.metrics.quality.parts import QualityPart
from roundtable.metrics.quality.result import PlayQuality
from roundtable.metrics.quality.talk import public, seat_roles
from roundtable_secret_hitler.deck import FASCIST, LIBERAL
from roundtable_secret_hitler.powers import HITLER_ZONE
from roundtable_secret_hitler.roles import Role, knowledge

PICKS = {"nominate": "chancellor", "investigate": "target", "execute": "target", "choose_president": "president"}
"""The request kinds that name one player, and the key its decision entry records the player under."""

"""How a decision's fallback names a player its answer could not name (`roundtable.games.fallbacks`)."""

_SENTENCE = re.compile(r"[^.!?]+[.!?]?")
_OWN = re.compile(r"\b(?:i\s+am|i'm|i’m|im)\s+(?:(?:actually|really|secretly|in\s+fact|indeed)\s+)?"
                  r"(?:a\s+|the\s+)?(hitler|fascist)\b", re.IGNORECASE)
_AS = re.compile(r"\bas\s+(?:a\s+|the\s+)?(hitler|fascist)\s*,?\s+(?:i|we)\b", re.IGNORECASE)
_WE = re.compile(r"\b(?:we|us)\s+fascists\b|\b(?:my|our)\s+fellow\s+fascists?\b|\bour\s+fascist\s+team\b",
                 re.IGNORECASE)
_MATE = re.compile(r"\b(?:my|our)\s+(?:fascist\s+)?(?:team-?mates?|partners?|ally|allies)\b", re.IGNORECASE)
_HEARSAY = re.compile(r"\b(?:if|think|thinks|thought|say|says|said|claim|claims|accuse|accuses|accused|believe|"
                      r"believes|suspect|suspects|call|calls|called|whether|pretend|unless)\b", re.IGNORECASE)
_NAMED_HITLER = re.compile(r"\b(?:player\s*#?\s*(\d+)|p(\d+))\s+is\s+(?:(?:surely|clearly|definitely|really)\s+)?"
                           r"(?:the\s+)?hitler\b", re.IGNORECASE)
_PLAYER = re.compile(r"\bplayer\s*#?\s*(\d+)\b|\bp(\d+)\b", re.IGNORECASE)
_VOTE = re.compile(r"\bi(?:'ll|’ll|\s+will|\s+shall|\s+am\s+going\s+to|'m\s+going\s+to|\s+am|'m|’m)?\s+"
                   r"(?:vote|voting)\s+(ja|nein|yes|no)\b|\bmy\s+vote\s+is\s+(ja|nein|yes|no)\b", re.IGNORECASE)


def exposes(text: str, role: Role, team: set[int]) -> str | None:
    """Why ``text``, said by a player of ``role`` whose reveal showed it ``team``, exposes its Fascist side, or
    None: a Fascist or Hitler stating its own role or side ("I am Hitler", "I'm a Fascist", "as a Fascist, I",
    "we Fascists", "my fellow Fascists"), a Fascist naming the Hitler it knows ("Player 1 is Hitler"), or
    calling a player of ``team`` its teammate, partner or ally. A
    sentence that asks, supposes or reports ("if I were Hitler", "you think I am a Fascist?") exposes nothing;
    a Liberal's words never do."""
    if role is Role.LIBERAL:
        return None
    for sentence in _SENTENCE.findall(text):
        if sentence.strip().endswith("?"):
            continue
        for pattern, why in ((_OWN, "states its role"), (_AS, "speaks as its role"), (_WE, "speaks as a Fascist")):
            found = pattern.search(sentence)
            if found and not _HEARSAY.search(sentence[: found.start()]):
                return why
        hitler = {int(a or b) for a, b in _NAMED_HITLER.findall(sentence)} & team
        if role is Role.FASCIST and hitler and not _HEARSAY.search(sentence):
            return "names Hitler"
        if _MATE.search(sentence):
            named = {int(a or b) for a, b in _PLAYER.findall(sentence)}
            if named & team:
                return "names its teammate"
    return None


def stated_vote(text: str) -> bool | None:
    """The vote ``text`` says its speaker will cast, ``True`` for ja ("I will vote ja", "I'm voting nein", "my
    vote is yes"; the last one said), or None when it says none."""
    found = [(a or b).lower() for a, b in _VOTE.findall(text)]
    return found[-1] in ("ja", "yes") if found else None


@dataclass
class _Table:
    """What the walk over the events knows at each moment."""

    roles: list[Role]
    alive: set[int]
    found: dict[int, dict[int, str]] = field(default_factory=dict)  # each President's investigations: party found
    fascist: int = 0  # Fascist policies enacted
    government: tuple[int, int] | None = None  # the President and the nominee under vote
    drawn: dict[int, list[str]] = field(default_factory=dict)  # the President's three policies, by round
    passed: dict[int, list[str]] = field(default_factory=dict)  # the Chancellor's two, by round

    def role(self, player: int) -> Role:
        return self.roles[player - 1]

    def team(self, player: int) -> set[int]:
        """The players ``player``'s reveal showed it (a Liberal's: none)."""
        return {int(k["player"]) for k in knowledge(tuple(self.roles), player)}

    def known(self, player: int, party: str) -> set[int]:
        """The living players ``player``'s own investigations showed of ``party``."""
        return {q for q, found in self.found.get(player, {}).items() if found == party and q in self.alive}


def count_secret_hitler(record: dict[str, Any], quality: PlayQuality) -> None:
    """Count Secret Hitler's measures of one game record into ``quality``, walking its events in order (see the
    module docstring).

    Raises:
        KeyError, ValueError: the record has no roles or an unknown role.
    """
    roles = seat_roles(record, Role)
    table = _Table(roles, set(range(1, len(roles) + 1)))
    said: dict[tuple[int, int], tuple[bool, str]] = {}  # (round, speaker): the vote its words stated, the words
    for event in record.get("events") or []:
        kind = event.get("type")
        if kind == "round_start":
            table.alive = set(event.get("alive") or table.alive)
            table.fascist = int(event.get("fascist", table.fascist))
        elif kind == "execution":
            count_settled_execution(event, table, quality)
            table.alive.discard(int(event["target"]))
        elif kind == "investigation":
            table.found.setdefault(int(event["player"]), {})[int(event["target"])] = str(event["party"])
        elif kind in ("enact", "chaos"):
            table.fascist = int(event.get("fascist", table.fascist))
            if kind == "enact":
                count_settled_enact(event, table, quality)
        elif kind == "nomination":
            table.government = (int(event["president"]), int(event["chancellor"]))
            count_settled_nomination(table, quality)
        elif kind == "utterance" and (event.get("text") or "").strip():
            count_words(event, table, quality)
            vote = stated_vote(event["text"])
            if vote is not None and public(event):
                said[(int(event.get("round") or 0), int(event["speaker"]))] = (vote, event["text"])
        elif kind == "vote":
            count_settled_vote(event, table, quality)
            words = said.pop((int(event.get("round") or 0), int(event["player"])), None)
            if words is not None:
                agree = bool(event["ja"]) == words[0]
                quality.count("words_and_actions", agree)
                if not agree:
                    quality.example("words_and_actions", f"P{event['player']} said {words[1]!r}, voted "
                                                         f"{'ja' if event['ja'] else 'nein'}")
        elif kind == "draw":
            table.drawn[int(event["round"])] = list(event.get("policies") or ())
        elif kind == "discard":
            count_settled_discard(event, table, quality)
        elif kind == "pass_policies":
            table.passed[int(event["round"])] = list(event.get("policies") or ())
        elif kind == "decision" and event.get("kind") in PICKS:
            count_dead_named_pick(event, table, quality)


def count_words(event: dict[str, Any], table: _Table, quality: PlayQuality) -> None:
    """Self-exposure of one utterance with words (`exposes`); words said to part of the table are no case."""
    if not public(event):
        return
    speaker = int(event["speaker"])
    role = table.role(speaker)
    why = exposes(event["text"], role, table.team(speaker))
    quality.count("self_exposure", why is not None)
    if why:
        quality.example("self_exposure", f"P{speaker} ({role.value}, {why}): {event['text']!r}")


def _settled(quality: PlayQuality, rule: str, right: bool, player: int, role: Role, what: str) -> None:
    quality.count("settled_decisions", right, rule)
    if not right:
        quality.example("settled_decisions", f"P{player} ({role.value}) {rule}: {what}")


def count_settled_discard(event: dict[str, Any], table: _Table, quality: PlayQuality) -> None:
    """``liberal discard``: a Liberal President who drew both kinds of policy is right to discard a Fascist one."""
    president, policy = int(event["player"]), str(event["policy"])
    drawn = table.drawn.get(int(event["round"]), [])
    if table.role(president) is Role.LIBERAL and {LIBERAL, FASCIST} <= set(drawn):
        _settled(quality, "liberal discard", policy == FASCIST, president, Role.LIBERAL,
                 f"drew {', '.join(drawn)}, discarded {policy}")


def count_settled_enact(event: dict[str, Any], table: _Table, quality: PlayQuality) -> None:
    """``liberal enact``: a Liberal Chancellor passed one policy of each kind is right to enact the Liberal one."""
    chancellor, policy = int(event["chancellor"]), str(event["policy"])
    held = table.passed.get(int(event["round"]), [])
    if table.role(chancellor) is Role.LIBERAL and {LIBERAL, FASCIST} <= set(held):
        _settled(quality, "liberal enact", policy == LIBERAL, chancellor, Role.LIBERAL,
                 f"held {', '.join(held)}, enacted {policy}")


def count_settled_nomination(table: _Table, quality: PlayQuality) -> None:
    """``liberal nomination``: a Liberal President whose own investigation showed a living player Fascist is right
    to nominate anyone else."""
    assert table.government is not None
    president, nominee = table.government
    bad = table.known(president, FASCIST)
    if table.role(president) is Role.LIBERAL and bad:
        _settled(quality, "liberal nomination", nominee not in bad, president, Role.LIBERAL,
                 f"nominated Player {nominee}, whom it investigated as Fascist")


def count_settled_vote(event: dict[str, Any], table: _Table, quality: PlayQuality) -> None:
    """``liberal vote``: a Liberal voting on a government with a player its own investigation showed Fascist is
    right to vote nein; ``fascist elects hitler``: a Fascist or Hitler voting on Hitler as Chancellor once three
    Fascist policies are enacted (elected, he wins at once) is right to vote ja."""
    if table.government is None:
        return
    voter, ja = int(event["player"]), bool(event["ja"])
    role = table.role(voter)
    president, chancellor = table.government
    bad = table.known(voter, FASCIST) & {president, chancellor}
    if role is Role.LIBERAL and bad:
        _settled(quality, "liberal vote", not ja, voter, role,
                 f"voted ja on Players {president} and {chancellor}, investigated Player "
                 f"{min(bad)} as Fascist")
    elif role is not Role.LIBERAL and table.fascist >= HITLER_ZONE and table.role(chancellor) is Role.HITLER \
            and (role is Role.HITLER or chancellor in table.team(voter)):
        _settled(quality, "fascist elects hitler", ja, voter, role,
                 f"voted nein on Hitler (Player {chancellor}) as Chancellor after {table.fascist} Fascist policies")


def count_settled_execution(event: dict[str, Any], table: _Table, quality: PlayQuality) -> None:
    """``liberal execution``: a Liberal President whose own investigation showed a living player Liberal is right
    to execute anyone else."""
    president, target = int(event["president"]), int(event["target"])
    good = table.known(president, LIBERAL) - {president}
    if table.role(president) is Role.LIBERAL and good:
        _settled(quality, "liberal execution", target not in good, president, Role.LIBERAL,
                 f"executed Player {target}, whom it investigated as Liberal")


def count_dead_named_pick(decision: dict[str, Any], table: _Table, quality: PlayQuality) -> None:
    """One pick made once a player is dead (roundtable's `roundtable.metrics.quality.dead.count_dead_named`), its
    answer the recorded pick of its request kind."""
    answer = decision.get(PICKS[str(decision["kind"])])
    count_dead_named(decision, set(range(1, len(table.roles) + 1)) - table.alive,
                     answer if isinstance(answer, int) else None, quality)


PART = QualityPart("secret_hitler", count_secret_hitler, labels={"merlin_exposed": "", "plain_named": ""})
"""Secret Hitler's part of the play-quality measures (the ``roundtable.quality`` entry point ``secret_hitler``)."""
