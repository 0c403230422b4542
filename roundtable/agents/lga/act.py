"""Action (Lan et al. 2024, module 5): the next action from summary, analysis, plan, role and the Host's instruction.

Runs per request that asks for an answer (a ``pick`` or a ``yes_no``); a good
player's quest card, which has one legal value, needs no call. When the request also wants words and
``separate_response`` is
off, the same call returns them (module 6 merged into one structured call: a
JSON object ``{<action>, "words"}``), which halves the calls of talk turns.

With the aids' checks on, the answer is marked ``unchecked`` and the graph's
``aids`` step checks it (`roundtable.agents.lga.aids`): words said in the same
call that fail a words check are asked for again by the respond step, which
keeps the action and states it in the prompt; a choice against what the
player knows (the game's aids settle it: Avalon's team vote, Werewolf's votes,
kill and check) is asked for again by this step, with the Host's note, and
without the reason first.

Where the endpoint supports JSON schemas the answer is schema-bounded
(`roundtable.agents.common.extraction.answer_schema`); otherwise it is prose with a
``Choice:`` line, read by `read_labelled` or by the extractor.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.common.extraction import (
    answer_from_schema,
    answer_from_text,
    answer_schema,
    bounded_words,
    read_labelled,
)
from roundtable.agents.common.model_calls import UNUSABLE, ModelProvider, call_structured, call_text
from roundtable.agents.lga.aids import settled_of
from roundtable.agents.lga.calls import agent_model, uses_json_schema
from roundtable.agents.lga.context import LgaContext
from roundtable.agents.lga.reading import extract_action, settle
from roundtable.agents.lga.state import LgaState
from roundtable.agents.lga.turn import Turn

ACTION_TOKENS = 24
"""Room for the action part of a reply, in words' worth of ``max_tokens``."""
REASON_TOKENS = 40
"""Room for the short reason asked before an answer (`roundtable.agents.common.extraction.REASON_CHARS`)."""


def make_act(models: ModelProvider):
    """The ``act`` node over ``models``: one call (plus an extractor call when the reply is unreadable)."""

    def act(state: LgaState, runtime: Runtime[LgaContext]) -> dict[str, Any]:
        turn = Turn.of(state, runtime, models)
        request, opts = turn.request, turn.options
        attempt = int(state.get("attempts") or 0)
        with_words = request.wants_words and not opts.separate_response
        structured = uses_json_schema(models, turn)
        # a vote asked for again answers right after the Host's note: a reason written first drifted back to the
        # suspicions that had decided the first vote, and the answer followed it (docs/measurements.md#team-votes)
        # a final proposal names a team already reasoned about (the request's subject): no reason again
        reason = (structured and request.kind in opts.reason_before and not state.get("reviewed")
                  and not (request.answer == "pick" and request.subject))
        prompt = turn.context.render(
            turn.template("act"),
            **turn.base_variables(),
            instruction=turn.instruction(),
            choice_help=turn.choice_help(structured, reason),
            with_words=with_words,
            words=opts.response_words,
            format="json" if structured else "prose",
            retry_note=state.get("recheck") or (turn.retry_note(attempt) if state.get("retry") else ""),
            speech=turn.speech(),
        )
        extra = REASON_TOKENS if reason else 0
        model = agent_model(models, turn, (opts.response_words if with_words else 0) + ACTION_TOKENS + extra,
                            speaking=with_words)
        messages = turn.messages(prompt)
        words: str | None = None
        if structured:
            schema = answer_schema(request, turn.view.players, opts.response_words if with_words else None,
                                   reason=reason, describe=turn.context.describe)
            parsed, raw, usage = call_structured(model, messages, schema, "act")
            action = answer_from_schema(request, parsed)
            if parsed is not None and with_words:
                words = bounded_words(parsed.get("words"), opts.response_words)
        else:
            raw, usage = call_text(model, messages, "act")
            choice, said = read_labelled(raw)
            action = answer_from_text(request, choice) if choice else {}
            words = said if with_words else None
        raws, usages = [raw], [usage]
        if not action and not raw.startswith(UNUSABLE):
            action, more_raw, more_usage = extract_action(models, turn, raw, structured)
            raws += more_raw
            usages += more_usage
        update = settle(turn, action, attempt) | {"raw": raws, "usage": usages, "recheck": None}
        if with_words and not update["retry"]:
            update["utterance"] = words
        if not update["retry"] and opts.checks_answers() and (
                with_words or settled_of(turn, update.get("action")) is not None):
            update["unchecked"] = "act"  # the aids step checks it next (roundtable.agents.lga.aids)
        return update

    return act
