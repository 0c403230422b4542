"""A rule bot's words from a model: the ``naive`` seat option ``words=model`` (docs/agents/naive.md#words-from-a-model).

Source: AvalonBench (Light et al. 2023, §5.1, *With or Without Discussion*): "since the naive agents do not have
language capabilities themselves, we extend them with a 'detached' LLM model that is fed the same
dialogue-generating prompts [...]. However, this LLM will not be prompted for actions – actions will be produced
solely by the naive strategy instead." Its discussion prompt (Appendix A.3, *Discuss*) asks for one sentence.

Here the bot decides exactly as with template words (`roundtable.games.protocol.RuleBot.decide`, same view, same
seed, so the same decision and the same draws); then, when the request wants words, one call (module ``speak``,
the context's temperature, AvalonBench's 0.1) turns the bot's plain sentence into the model's own (template
``naive/words``, a prompt field of `roundtable.agents.naive.context.NaiveContext`). The prompt holds only the
player's view: its role, side and private knowledge, the lines it has seen and heard (`remember`), the players it
chose and its plain sentence. The reply is cleaned (`roundtable.aids.cleaning.clean_words`) and cut to its
first sentence (`roundtable.detectors.words.first_sentence`; a cut is named in ``checks``).

The template's sentence is said instead, and the reason named in `Decision.fallback` (the raw reply kept in
``raw``, the call counted in ``usage``), when the reply is unusable: no words left once cleaned, a player named
who is not at the table, another team than the one chosen (`roundtable.aids.review.other_team`), or no
reply at all (the model server down, an error: `fallback_errors`). The words never change the game's actions:
the rule bots read an utterance only when their ``remembers`` keeps it (Werewolf's bots: a public claim to be the
Seer, `roundtable.games.werewolf.bots.naive.remembers`), so template words the bots act on are said as they are
with no model asked (named in ``checks``), and model words the bots would act on when the template's are not
fall back to the template's.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage

from roundtable.agents.common.memory import new_events
from roundtable.agents.common.model_calls import (
    ModelProvider,
    call_text,
    seeded_calls,
    total_usage,
    unusable_reply_errors,
    usage_of,
)
from roundtable.agents.common.options import max_tokens_for
from roundtable.agents.naive.context import NaiveContext
from roundtable.agents.protocol import player_slot
from roundtable.aids.interface import clean_words, other_team
from roundtable.detectors.words import first_sentence
from roundtable.games import GAMES
from roundtable.games.protocol import Decision, PlayerView, Request
from roundtable.models.errors import ModelError
from roundtable.prompts.narrator import narrate

MODULE = "speak"
"""The module the words call names (`roundtable.agents.common.model_calls.MODULE_METADATA`): AvalonBench's
*Discuss*, as the ``react`` kind names its own."""
STEP = "naive:speak"
"""The step the call's seed is derived from (`roundtable.agents.common.model_calls.seeded_calls`)."""
WORDS = 40
"""The word cap of the sentence (the prompt asks for at most this many; the table hears at most this many)."""
HEARD_LINES = 40
"""How many of the lines the player has seen and heard the pool keeps, and the prompt shows (the latest)."""
@functools.cache
def fallback_errors() -> tuple[type[BaseException], ...]:
    """The errors after which the template words are said instead: no usable reply, or no reply at all. A
    function, so that the ``openai`` SDK is loaded only when a call has failed."""
    import openai

    return (ModelError, openai.APIError, *unusable_reply_errors())
"""A words call that raises one of these (the model layer's errors, the endpoint down among them, after the model
layer's bounded retries; an API error; an unusable reply) falls back to the template's words."""

_PLAYERS = re.compile(r"\bplayers?\s*#?\s*(\d+(?:\s*(?:,|and|&|or|\+)\s*(?:players?\s*)?#?\s*\d+)*)", re.IGNORECASE)
_NUMBER = re.compile(r"\d+")


def remember(pool: dict[str, Any], view: PlayerView) -> dict[str, Any]:
    """The pool's ``seen`` and ``heard`` after ``view``'s new events: one line per event the game's narrator tells
    the player (its ``<game>/narration`` template with ``me`` the player), talk as ``Player 3: ...`` (the player's own
    as ``Player 3 (you): ...``), the rest as ``Host: ...``; the latest `HEARD_LINES` kept.

    Args:
        pool: the seat's pool so far (``{}`` at first; its ``seen`` and ``heard`` are read).
        view: the player's view (the whole visible log or only the events not delivered before,
            `roundtable.agents.common.memory.new_events`).

    Returns:
        ``{"seen": visible events read, "heard": [line, ...]}``.
    """
    events, seen = new_events(pool, view)
    heard = list(pool.get("heard") or [])
    for event in events:
        text = narrate(view.game, event, view.player, view.rules)
        if not text:
            continue
        if event.get("type") == "utterance":
            speaker = event.get("speaker")
            heard.append(f"Player {speaker}{' (you)' if speaker == view.player else ''}: {text}")
        else:
            heard.append(f"Host: {text}")
    return {"seen": seen, "heard": heard[-HEARD_LINES:]}


def prompt(context: NaiveContext, view: PlayerView, request: Request, decision: Decision,
           heard: Sequence[str]) -> str:
    """The words call's prompt (template ``naive/words`` through the run's context), from the player's view, the
    request (who hears the words: ``audience`` the other players who do, None for everyone) and the bot's decision
    (the players it chose, its plain sentence) alone."""
    rules = GAMES[view.game]
    return context.render(
        "naive/words", game=view.game.title(), players=view.players, me=view.player,
        role=rules.role_title(view.role), side=view.side, knowledge=list(view.knowledge), heard=list(heard),
        kind=request.kind, chosen=list(decision.players or ()), plain=decision.utterance or "",
        audience=None if request.audience is None else [p for p in request.audience if p != view.player],
        words=WORDS)


def read_by_bots(view: PlayerView, request: Request, text: str) -> bool:
    """Whether any of the game's rule bots (every flavour) reads these words when the player says them for
    ``request``: its ``remembers`` keeps the utterance the game would log (`roundtable.games.protocol.RuleBot`)."""
    bot = GAMES[view.game].bot
    if bot is None:
        return False
    event = {"type": "utterance", "to": None if request.audience is None else list(request.audience),
             "speaker": view.player, "phase": request.phase, "round": request.round, "attempt": request.attempt,
             "text": text}
    return any(b.remembers is not None and b.remembers(event) for b in (bot, *bot.flavours.values()))


def strangers(text: str, players: int) -> list[int]:
    """The player numbers ``text`` names (``Player 7``, ``players 2, 9 and 4``) that are not at a table of
    ``players``, in order."""
    named = [int(n) for match in _PLAYERS.finditer(text) for n in _NUMBER.findall(match.group(1))]
    return list(dict.fromkeys(n for n in named if not 1 <= n <= players))


def unusable(view: PlayerView, request: Request, decision: Decision, said: str) -> str | None:
    """Why the cleaned sentence ``said`` cannot be said in place of the bot's plain words, or None."""
    if not said:
        return "no words left"
    away = strangers(said, view.players)
    if away:
        return f"names player {', '.join(map(str, away))}, who is not at the table"
    named = other_team(request, said, decision.players)
    if named:
        return f"words name players {', '.join(map(str, named))}, the team chosen is " \
               f"{', '.join(map(str, decision.players or ()))}"
    if read_by_bots(view, request, said):
        return "the rule bots would act on these words"
    return None


def model_words(models: ModelProvider, context: NaiveContext, model_spec: str, view: PlayerView, request: Request,
                decision: Decision, heard: Sequence[str], seed: int | None) -> Decision:
    """The bot's ``decision`` with its words from one model call, or with its plain words and the reason named
    (see the module docstring). Its action is left as the bot chose it.

    Args:
        models: where the chat model comes from.
        context: the run's `NaiveContext` (the prompt and temperature).
        model_spec: the seat's model spec.
        view: the player's view.
        request: the request, which wants words.
        decision: the bot's decision, its plain words among it.
        heard: the lines the player has seen and heard (`remember`).
        seed: the agent's seed for the call's sampling seed (None: unseeded).

    Returns:
        The decision: ``utterance`` the sentence said, ``raw`` the reply (or the error), ``fallback`` why the plain
        words were said, ``checks`` a cut to the first sentence or the template kept, ``usage`` the call's cost.
    """
    plain = decision.utterance or ""
    if read_by_bots(view, request, plain):
        kept = "template words kept, no model asked: the rule bots act on them"
        return decision.model_copy(update={"checks": (*decision.checks, kept)})
    chat = models.chat(model_spec, float(context.temperature), max_tokens_for(WORDS),
                       slot=player_slot(view.player, models.slots(model_spec)))
    messages: list[BaseMessage] = [HumanMessage(prompt(context, view, request, decision, heard))]
    start = time.perf_counter()
    try:
        with seeded_calls(seed, request.id, STEP):
            raw, record = call_text(chat, messages, MODULE)
    except fallback_errors() as error:
        record = usage_of(None, time.perf_counter() - start, failed=True) | {"module": MODULE}
        reason = f"no reply from the model ({type(error).__name__}): template words said"
        return decision.model_copy(update={"raw": f"(no reply: {type(error).__name__}: {str(error)[:200]})",
                                           "fallback": reason, "usage": total_usage([record], fallbacks=1)})
    clean, posing = clean_words(raw, view.player, WORDS)
    said, sentences = first_sentence(clean)
    problem = unusable(view, request, decision, said)
    if problem is not None:  # the plain words, and why
        reason = f"unusable words from the model ({problem}{f', {posing}' if posing else ''}): template words said"
        return decision.model_copy(update={"raw": raw, "fallback": reason,
                                           "usage": total_usage([record], fallbacks=1)})
    cut = [f"speak: {sentences} sentences cut to the first"] if sentences > 1 else []
    return decision.model_copy(update={  # a passage posing as the Host dropped is named, as every kind names it
        "utterance": said, "raw": raw, "fallback": posing, "checks": (*decision.checks, *cut),
        "usage": total_usage([record], fallbacks=1 if posing else 0)})
