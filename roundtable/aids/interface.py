"""The one interface between a kind and the aids (docs/agents/aids.md#the-aids-step).

A kind's step answers as its paper says and hands what it answered, as an `Answer`, to the aids' step, which the
kind draws as a node of its own graph (``aids``), between the step that answered and the next, so Studio stops on
it and shows what it changed. `check` returns the state update: nothing, a re-ask (the Host's note in
``recheck``, the answer cleared so the step that gave it runs again), an overrule, or words with sentences dropped;
each intervention is named in ``checks`` (`Decision.checks`). A kind imports the aids only from here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from roundtable.aids.cleaning import clean_words
from roundtable.aids.games import game_aids
from roundtable.aids.options import CheckOptions, check_prompts
from roundtable.aids.review import heard_lines, other_team, words_update
from roundtable.aids.sampling import AGAIN_TEMPERATURE, DRY_SAMPLING, speech_sampling, speech_temperature
from roundtable.aids.settled import Settled, settled_update
from roundtable.aids.switch import auto_switch, with_aids
from roundtable.detectors.words import named_kill_target
from roundtable.games.protocol import PlayerView, Request
from roundtable.prompts.rendering import PromptContext
from roundtable.tables.protocol import GameTable

__all__ = [
    "AGAIN_TEMPERATURE", "Answer", "CheckOptions", "DRY_SAMPLING", "Settled", "auto_switch",
    "check", "check_prompts", "checked_of", "clean_words", "heard_lines", "knowledge_note", "other_team",
    "record_checks", "speech_sampling", "speech_temperature", "table_settled", "with_aids",
]


def table_settled(table: GameTable, checked: Mapping[int, bool] | None = None, statement: str | None = None,
                  action: Mapping[str, Any] | None = None) -> Settled | None:
    """What the player's own knowledge (and its own words) settle for the decision at ``table``, by the game's aids
    (`roundtable.aids.games.GameAids.settled`: Avalon's team vote, `roundtable.aids.avalon.avalon_settled`;
    Werewolf's day vote, night kill and Seer's check, `roundtable.aids.werewolf.werewolf_day_settled`); ``None``
    in a game whose aids settle nothing. The aids are per game, so the kind tells no game apart.

    Args:
        table: the decision's table.
        checked: the player's remembered private results (`record_checks`: a Werewolf Seer's checks; None: none).
        statement: the player's last words at the table (None: none).
        action: the answer in hand, or None.
    """
    return game_aids(table.view.game).settled(table, checked or {}, statement, action)


def knowledge_note(context: PromptContext, view: PlayerView, request: Request, checked: Mapping[int, bool]) -> str:
    """The Host's lines beside the request restating what the player's knowledge settles, by the game's aids
    (`roundtable.aids.games.GameAids.knowledge_note`: Werewolf's `roundtable.aids.werewolf.knowledge_note`;
    ``""`` in a game with none or when the player knows nothing that matters)."""
    return game_aids(view.game).knowledge_note(context, view, request, checked)


def record_checks(view: PlayerView, known: Mapping[str, bool], events: Iterable[Mapping[str, Any]]) -> dict[str, bool]:
    """``known`` with the player's private results among ``events`` added, by the game's aids
    (`roundtable.aids.games.GameAids.remember`: a Werewolf Seer's checks), ``{str(player): bool}``, JSON-ready."""
    return game_aids(view.game).remember(known, events, view.player)


def checked_of(known: Mapping[str, bool] | None) -> dict[int, bool]:
    """The remembered private results (`record_checks`) with player numbers as keys."""
    return {int(player): bool(value) for player, value in (known or {}).items()}


@dataclass(frozen=True)
class Answer:
    """What one step of a kind answered, and what the aids need to check it.

    Attributes:
        context: the kind's prompt context (the Host's notes are its templates).
        view: the deciding player's view. request: the request answered.
        options: the seat's aid options (`CheckOptions`; ``aided`` says whether the aids are on).
        action: the answer read (``players``, ``choice``), or None.
        words: the words the step wrote for the table, or None when it wrote none to check.
        heard: ``[("Player 3", text), ...]``: what the player heard (its own words among them).
        thoughts: the private notes the step's prompt showed (a copy of them said aloud is a fault).
        settled: what the player's own knowledge settles for this decision (`roundtable.aids.settled`), or None.
        reviewed: the answer in hand is already the second (no third is asked).
        response_words: the word limit of the words.
        chose: the step chose ``action`` in this answer (a choice kept from a first answer is not checked again),
            so it is checked against ``settled``.
        checked: a Werewolf Seer's own checks (player: werewolf), for the words check of a day statement.
    """

    context: PromptContext
    view: PlayerView
    request: Request
    options: CheckOptions
    action: dict[str, Any] | None
    words: str | None
    heard: Sequence[tuple[str, str]] = field(default_factory=tuple)
    thoughts: Sequence[str] = field(default_factory=tuple)
    settled: Settled | None = None
    reviewed: bool = False
    response_words: int = 20
    chose: bool = False
    checked: Mapping[int, bool] | None = None


def check(answer: Answer) -> dict[str, Any]:
    """The aids' state update for ``answer`` (``{}`` when no check is on, as with the aids off, or nothing is found).

    First a choice the step made is compared with what is settled (`roundtable.aids.settled.settled_update`; a
    night kill overruled takes the village player the words name to kill, when they name one): on a problem the
    whole answer is asked for again (``action`` cleared) or overruled. Otherwise the words are checked
    (`roundtable.aids.review.words_update`) against the action that stands (an overruled one's replacement): asked
    for again (the action kept), kept, or said with their failing sentences dropped (``utterance`` set). Asking
    again clears ``utterance``, so the step that answered runs once more. ``checks`` holds both checks' lines.
    """
    opts, request, settled = answer.options, answer.request, answer.settled
    if settled is not None and request.kind == "kill" and answer.words:
        settled = settled.preferring(named_kill_target(answer.words))  # an overrule takes the victim the words name
    update: dict[str, Any] = {}
    if answer.chose:
        update = settled_update(answer.context, answer.view, request, settled, answer.action, opts.vote_check,
                                answer.reviewed, opts.overrules())
    if answer.words is not None and not update.get("recheck"):
        chosen = (update.get("action") or answer.action or {}).get("players")  # an overruled choice: the one kept
        spoken = words_update(answer.context, answer.view, request, answer.words, chosen, heard=answer.heard,
                              thoughts=answer.thoughts, checks=opts.word_checks, response_words=answer.response_words,
                              reviewed=answer.reviewed, drop=opts.drops_sentences(), checked=answer.checked)
        update = update | spoken | {"checks": [*(update.get("checks") or []), *(spoken.get("checks") or [])]}
    if update.get("recheck"):
        update["utterance"] = None
    if not update.get("checks"):
        update.pop("checks", None)
    return update
