"""Both checks of an answer read in one step, for a kind whose one call gives the choice and the words together
(``cga``'s and ``cot``'s ``think``; docs/agents/checks.md).

No model call. First a choice read in this step is compared with what the player's knowledge settles
(`roundtable.aids.settled`): on a problem the whole answer is asked for again, or overruled (a night kill
vote overruled takes the village player its own words name to kill, when they name one). Otherwise the words are
checked (`roundtable.aids.review`) against the action that stands (an overruled one's replacement): on a
problem only the words are asked for again, the action kept.
Asking again clears the words, so the step that asked runs once more.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from roundtable.aids.options import CheckOptions
from roundtable.aids.review import words_update
from roundtable.aids.settled import Settled, settled_update
from roundtable.detectors.words import named_kill_target
from roundtable.games.protocol import PlayerView, Request
from roundtable.prompts.rendering import PromptContext


def check_answer(context: PromptContext, view: PlayerView, request: Request, options: CheckOptions, *,
                 settled: Settled | None, action: Mapping[str, Any] | None, chose: bool, words: str | None,
                 heard: Iterable[tuple[str, str]], thoughts: Iterable[str], response_words: int,
                 reviewed: bool, overrule: bool = False, drop: bool = False,
                 checked: Mapping[int, bool] | None = None) -> dict[str, Any]:
    """The checks' state update after a step read an answer.

    Args:
        context: the kind's prompt context (its notes' templates).
        view: the deciding player's view.
        request: the request answered.
        options: the seat's check switches (``vote_check``, ``word_checks``).
        settled: what the player's knowledge settles about the request (None: nothing).
        action: the action the decision now holds (None: none).
        chose: the step chose that action (a choice kept from a first answer is not checked again).
        words: the words read (None: none asked or given).
        heard: the utterances the player heard, ``(speaker, text)``.
        thoughts: the player's private texts behind the decision, the step's own reasoning included.
        response_words: the words' cap.
        reviewed: the answer in hand is already the second one.
        overrule: replace a choice against what is settled rather than ask again (`CheckOptions.overrules`).
        drop: drop the failing sentences of second words that still fail a check (`CheckOptions.drops_sentences`).
        checked: a Werewolf Seer's own checks (player: werewolf), for the words check of a day statement.

    Returns:
        As `roundtable.aids.asking.ask_again`, both checks' ``checks`` lines together, with
        ``utterance: None`` when asking again (and ``action: None`` after a choice against what is settled).
    """
    update: dict[str, Any] = {}
    if settled is not None and request.kind == "kill" and words:
        settled = settled.preferring(named_kill_target(words))  # an overrule takes the victim the words name
    if chose:
        update = settled_update(context, view, request, settled, action, options.vote_check, reviewed, overrule)
    if request.wants_words and not update.get("recheck"):
        chosen = (update.get("action") or action or {}).get("players")  # an overruled choice: the one that stands
        spoken = words_update(context, view, request, words, chosen, heard=heard,
                              thoughts=thoughts, checks=options.word_checks, response_words=response_words,
                              reviewed=reviewed, drop=drop, checked=checked)
        update = update | spoken | {"checks": [*(update.get("checks") or []), *(spoken.get("checks") or [])]}
    if update.get("recheck"):
        update["utterance"] = None
    return update
