"""The agent's check of its own words before it says them: one re-ask when they would spoil the game.

No model call here. Words from the act or respond step, as the table would hear
them (after `sanitize_utterance` drops lines posing as the Host), are checked against
what the player has heard and what it chose (`roundtable.agents.common.words`):

- **near copy**: more than half of their word 4-grams repeat one utterance in
  the player's records (another player's or its own);
- **words and team disagree**: a leader's or a suggesting speaker's words name
  a team of the right size other than the players it chose;
- **self-exposure**: in public, an evil player names its side, role or intent
  to fail, or Merlin says outright whom he sees as evil.

On a problem the words are asked for once more, with the Host's note
(template ``lga/review_note``) after the instruction, by the respond step
(the action already chosen is kept and stated in its prompt); words asked
for again after a near copy are sampled at a higher temperature
(`roundtable.agents.lga.calls.AGAIN_TEMPERATURE`). The second
answer is kept whatever it says. Each check that fired is named in `Decision.checks`
(``"near copy of Player 3: asked again"``), so a benchmark counts them and a
reader of the record sees them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from roundtable.agents.common.words import COPY_SHARE, copy_share, exposes, named_team
from roundtable.agents.lga.memory import HOST
from roundtable.agents.lga.turn import Turn
from roundtable.games.avalon import Role
from roundtable.games.fallbacks import sanitize_utterance


@dataclass(frozen=True)
class Review:
    """What the check found: ``reasons`` (for `Decision.checks`), the Host's ``note`` for the re-ask, and whether
    the words ``copied`` an utterance (the re-ask is then sampled to turn away from it, `agent_model`)."""

    reasons: tuple[str, ...]
    note: str
    copied: bool = False


def copied_speaker(turn: Turn, words: str) -> str | None:
    """The speaker (``"Player 3"``) of the first utterance in the player's records that ``words`` nearly copy."""
    for record in turn.memory.get("records") or []:
        if record.get("speaker") != HOST and copy_share(words, str(record.get("text") or "")) > COPY_SHARE:
            return str(record["speaker"])
    return None


def review(turn: Turn, words: str | None, players: list[int] | None) -> Review | None:
    """Check the words the player is about to say (and the players it chose), or None when all is well.

    Args:
        turn: the decision in hand (its pool has the records heard so far).
        words: the words read from the reply (None or empty: nothing to check).
        players: the players chosen for a ``pick`` request, when any.
    """
    request, view = turn.request, turn.view
    words, _ = sanitize_utterance(words, view.player, turn.options.response_words)  # what the table would hear
    if not words:
        return None
    reasons: list[str] = []
    copied = copied_speaker(turn, words)
    if copied:
        reasons.append(f"near copy of {copied}")
    named = None
    if players and len(players) > 1 and request.kind in ("propose_team", "speak"):
        named = named_team(words, len(players))
        if named is not None and set(named) == set(players):
            named = None
        elif named is not None:
            reasons.append(f"words name players {', '.join(map(str, named))}, team is {', '.join(map(str, players))}")
    exposure = None
    if request.audience is None:  # said to the whole table
        seen = [int(k["player"]) for k in view.knowledge if k.get("is") == "evil"]
        exposure = exposes(words, Role(view.role), seen)
        if exposure:
            reasons.append(f"words expose the speaker ({exposure})")
    if not reasons:
        return None
    me = f"Player {view.player}"
    note = turn.context.render("lga/review_note", copied=copied, yourself=copied == me, named=list(named or []),
                               team=list(players or []), exposure=exposure, side=view.side)
    return Review(tuple(reasons), note, copied=copied is not None)


def review_update(turn: Turn, state: Mapping[str, Any], words: str | None,
                  players: list[int] | None) -> dict[str, Any]:
    """The state update of a step that spoke: ask again once with the note, or record what a re-ask left.

    Returns:
        ``{"recheck": note, "reviewed": True, "copied": bool, "checks": [...: asked again]}`` when the words must be
        asked for again; after a re-ask, ``{"recheck": None, "checks": [...: kept]}`` for problems that
        remain (or ``{"recheck": None}``); ``{}`` when nothing was found on a first answer.
    """
    found = review(turn, words, players)
    if state.get("reviewed"):
        kept = [f"{reason}: kept after asking again" for reason in found.reasons] if found else []
        return {"recheck": None, "checks": kept}
    if found is None:
        return {}
    return {"recheck": found.note, "reviewed": True, "copied": found.copied,
            "checks": [f"{r}: asked again" for r in found.reasons]}
