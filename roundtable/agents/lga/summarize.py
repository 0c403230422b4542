"""Summarization (Lan et al. 2024, module 2): once a round ends, ``M_t = SMR(M_{t-1}, round t records)``.

With ``merge_summary`` (the default for the embedded model) the same call also
writes the new round's analysis and plan, so a round's refresh is one call per
agent; a part the reply leaves out is asked for by its own node afterwards.
"""

from __future__ import annotations

import logging
from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.common.extraction import notes_schema, schema_tokens
from roundtable.agents.common.model_calls import ModelProvider, call_structured, call_text
from roundtable.agents.common.text import clean_text, split_sections
from roundtable.agents.lga import memory as mem
from roundtable.agents.lga.analyze import scope_players
from roundtable.agents.lga.calls import agent_model, uses_json_schema
from roundtable.agents.lga.context import LgaContext
from roundtable.agents.lga.state import LgaState
from roundtable.agents.lga.turn import Turn

log = logging.getLogger(__name__)


def make_summarize(models: ModelProvider):
    """The ``summarize`` node over ``models``.

    The node compresses the previous summary and the records of the rounds
    that ended (all players' words and the Host's statements the player saw)
    into a new summary of at most ``summary_words`` words; those records leave
    the memory, their key Host facts stay on the board. One model call; under
    ``merge_summary`` its reply has the parts ``Summary:``, ``Analysis:`` and
    ``Plan:`` (those not ablated), and the analysis and plan count as this
    round's when present. Where the endpoint supports JSON schemas, the merged
    answer is a JSON object with one bounded string per part, so a model that
    runs long on its summary still writes every part.
    """

    def summarize(state: LgaState, runtime: Runtime[LgaContext]) -> dict[str, Any]:
        turn = Turn.of(state, runtime, models)
        old = mem.stale_records(turn.memory, turn.view.round)
        if not old:
            log.info("player %s: summarize skipped (summary current)", turn.view.player)
            return {}
        rounds = sorted({r["round"] for r in old})
        opts = turn.options
        parts = ["summary"]
        if opts.merges_summary():
            parts += [name for name, off in (("analysis", opts.no_analysis), ("plan", opts.no_plan)) if not off]
        limits = {"summary": opts.summary_words, "analysis": opts.analysis_words, "plan": opts.plan_words}
        structured = len(parts) > 1 and uses_json_schema(models, turn)
        variables = turn.base_variables(ended=True) | {
            "rounds": rounds,
            "words": opts.summary_words,
            "parts": parts,
            "analysis_words": opts.analysis_words,
            "plan_words": opts.plan_words,
            "scope": opts.analysis_scope,
            "scope_players": scope_players(turn),
        }
        words = sum(limits[name] for name in parts)
        notes: dict[str, str] | None = None
        usages: list[dict[str, Any]] = []
        if structured:  # bounded strings: every part fits; room for the JSON around them
            prompt = turn.context.render(turn.template("summarize"), **variables, format="json")
            model = models.chat(turn.seat.model, turn.temperature, schema_tokens(words, len(parts)),
                                slot=turn.slot)
            schema = notes_schema({n: limits[n] for n in parts}, describe=turn.context.describe)
            notes, _, usage = call_structured(model, turn.messages(prompt), schema, "summarize")
            usages.append(usage)
        if notes is None:  # prose endpoint, or an unusable JSON answer: ask for labelled parts
            prompt = turn.context.render(turn.template("summarize"), **variables, format="prose")
            text, usage = call_text(agent_model(models, turn, words), turn.messages(prompt), "summarize")
            notes = split_sections(text, parts)
            usages.append(usage)
        memory = mem.after_summary(turn.memory, turn.view.round, clean_text(notes["summary"], opts.summary_words))
        for name in parts[1:]:
            note = clean_text(notes[name], limits[name])
            if note:  # else the analyze / plan node asks for it on its own
                memory |= {name: note, f"{name}_round": turn.view.round}
        return {"pool": memory, "usage": usages}

    return summarize

