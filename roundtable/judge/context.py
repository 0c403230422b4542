"""Runtime context of the judge graph: its prompts and temperature, editable per run (docs/judge.md#the-prompts).

Like an agent kind's context (`roundtable.agents.lga.context.LgaContext`): one field per prompt template,
defaulting to the file's text and carrying Studio's prompt metadata (``langgraph_nodes``, ``langgraph_type:
prompt``), so a prompt is edited in Studio and a behaviour's node run again; editing a prompt changes the digest
its judgements are cached under (`roundtable.judge.store`), so they are made again. The fields are those of
every game's behaviours (`roundtable.judge.protocol.judges`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pydantic import create_model

from roundtable.judge.protocol import behaviour_names, judges
from roundtable.prompts.rendering import (
    PromptFields,
    TemperatureFields,
    TemplateContext,
    context_fields,
    template_fields,
)

KINDS: tuple[str, ...] = ()
"""No agent kind: the prompt fields name the judge graph's own nodes."""
SYSTEM = "judge/system"
"""The system prompt every judge call starts with."""


def _prompt_fields() -> dict[str, tuple[str, list[str], str]]:
    """``{field: (template, nodes, description)}``: the system prompt, then each behaviour template (one field
    per template, named after it: ``judge/stance`` -> ``stance_prompt``)."""
    fields: dict[str, tuple[str, list[str], str]] = {
        "system_prompt": (SYSTEM, behaviour_names(), "System prompt of every judge call: the game and its roles.")}
    for judge in judges().values():
        for behaviour in judge.behaviours.values():
            name = behaviour.template.rsplit("/", 1)[-1] + "_prompt"
            template, nodes, description = fields.get(name, (behaviour.template, [], behaviour.description))
            fields[name] = (template, [*nodes, behaviour.name] if behaviour.name not in nodes else nodes, description)
    return fields


PROMPT_FIELDS: PromptFields = _prompt_fields()

TEMPERATURE_FIELDS: TemperatureFields = {
    "temperature": (0.0, behaviour_names(), "Temperature of the judge's calls (Lan et al. judged at 0)."),
}


class _JudgeFields(TemplateContext):
    TEMPLATE_FIELDS: ClassVar[dict[str, str]] = template_fields(PROMPT_FIELDS)

    if TYPE_CHECKING:  # a field create_model adds below, declared for the type checker only
        temperature: float


JudgeContext = create_model(
    "JudgeContext",
    __base__=_JudgeFields,
    __doc__="""Per-run settings of the judge graph (its ``context_schema``).

    Attributes:
        system_prompt: the system prompt (template ``judge/system``).
        *_prompt: each behaviour's question (``judge/deception``, ``judge/stance``, ...; docs/judge.md#the-prompts).
        temperature: the judge's sampling temperature (0).
    """,
    **context_fields(KINDS, PROMPT_FIELDS, TEMPERATURE_FIELDS),
)
