"""The observation text: a player's view of one request as the model-driven agents read it, from the game's table
(`roundtable.tables.protocol.game_table`): the rules, the role card, what the player knows, the record of what it
has seen, the Host's instruction and how the answer is written (docs/envs.md#the-observation-text).

No text here is new: every line is a template of the game's table, rendered through a plain prompt context with the
neutral table pieces of the ``react`` kind (``react/table/<piece>``) for the pieces a game leaves to a kind
(Werewolf's). Only the few words saying how an action is typed (`ANSWER_LINE`, `WORDS_LINE`) are the
environment's own.
"""

from __future__ import annotations

from functools import cache

from roundtable.games.protocol import PlayerView, Request
from roundtable.prompts.rendering import TemplateContext
from roundtable.tables.protocol import GameTable, TableSettings, game_table

PIECES = "react/table/{piece}"
"""The template of a piece a game leaves to the kind (the ``react`` kind's neutral pieces)."""
ANSWER_LINE = "Answer with {help}."
"""How the answer's format is stated, ``help`` the table's own (`GameTable.choice_help`, prose)."""
WORDS_LINE = "Then, on the lines after your answer, say your words to the table: {speech}"
"""How a request that wants words says where they go, ``speech`` the table's own (`GameTable.speech`)."""
INVALID_LINE = "Your last action was invalid: {error}. Try again."
"""What an invalid action brings back, ``error`` the game's message."""


@cache
def _context() -> TemplateContext:
    return TemplateContext()


def table_of(view: PlayerView, request: Request, words: int = 20) -> GameTable:
    """The game's table of ``request`` under ``view`` (``words``: the word limit of the player's words).

    Raises:
        ConfigurationError: the game describes no table (`roundtable.tables.protocol.game_table`).
    """
    settings = TableSettings(response_words=words, prompt=lambda piece: PIECES.format(piece=piece))
    return game_table(view, request, _context(), settings)


Narrated = list[str | None]
"""The record lines of one player's visible events narrated before, by their index in its visible log (``None``:
the table says nothing of that event)."""


def record_lines(table: GameTable, narrated: Narrated | None = None) -> list[str]:
    """The player's record: one line per event of its view the table narrates, oldest first, each utterance with
    its speaker (``Player 3: ...``).

    Args:
        table: the game's table of the player's view.
        narrated: the lines of this player's visible events narrated before (`Narrated`), read and extended: the
            log only grows, and a table narrates an event the same way for the same player all game (the game's
            narrator reads the event, the player and the rule variants), so an environment narrates each event
            once per player, not at every observation; ``None``: narrate every event.
    """
    lines = []
    at = table.view.first_event
    for index, event in enumerate(table.view.events, start=at):
        if narrated is not None and index < len(narrated):
            line = narrated[index]
        else:
            line = table.narrate(event)
            if line and event.get("type") == "utterance" and "speaker" in event:
                line = f"Player {event['speaker']}: {line}"  # the narrator leaves the speaker to the kind's minutes
            if narrated is not None and index == len(narrated):
                narrated.append(line)
        if line:
            lines.append(line)
    return lines


def observation_text(view: PlayerView, request: Request, *, talk: bool = True, error: str | None = None,
                     narrated: Narrated | None = None) -> str:
    """The whole observation of ``request`` for ``view.player``: rules, role card, knowledge, record, instruction,
    the answer's format (and where the words go when the request wants words and ``talk``), and ``error``, the
    game's message on the last action, when it was invalid (``narrated``: the player's record lines narrated
    before, `record_lines`).

    Raises:
        ConfigurationError: the game describes no table.
    """
    table = table_of(view, request)
    parts = [table.rules_text().strip(), table.role_card().strip(), table.knowledge_text().strip(),
             "\n".join(record_lines(table, narrated)), table.instruction().strip()]
    if request.answer != "words":
        parts.append(ANSWER_LINE.format(help=table.choice_help(json=False).strip()))
    if request.wants_words and talk:
        parts.append(WORDS_LINE.format(speech=table.speech().strip()) if request.answer != "words"
                     else table.speech().strip())
    if error:
        parts.append(INVALID_LINE.format(error=error))
    return "\n\n".join(part for part in parts if part)
