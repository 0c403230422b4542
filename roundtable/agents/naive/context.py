"""Runtime context of the ``naive`` kind: the prompt and temperature of its words from a model (seat option
``words=model``, docs/agents/naive.md#words-from-a-model), overridable per run.

Built as every kind's context is (`roundtable.prompts.rendering.context_fields`): the prompt field defaults to its
template file and carries Studio's prompt metadata (``langgraph_nodes``: the ``naive`` node of a game graph), so the
prompt is edited in Studio like the other kinds' prompts; inside a game graph it is the ``naive`` field of the
game's context (``{"naive": {"words_prompt": ...}}``, ``--context naive.temperature=0.3``). The template-words seats
read none of it. The temperature follows AvalonBench (Light et al. 2023, §5.1: 0.1 for every model call).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pydantic import create_model

from roundtable.prompts.rendering import TemperatureFields, TemplateContext, context_fields, template_fields

KINDS = ("naive",)
WORDS_NODES = ["speak"]
"""The step whose call writes the words (as Studio names it: ``speak``, ``naive:speak``, and the ``naive`` node)."""

# field name -> (template name, nodes that use it, description)
NAIVE_PROMPT_FIELDS: dict[str, tuple[str, list[str], str]] = {
    "words_prompt": ("naive/words", WORDS_NODES,
                     "A rule bot's words from a model (words=model; AvalonBench's Discuss): the bot's decision, its "
                     "role and what it knows, what it heard; one sentence."),
}

TEMPERATURE_FIELDS: TemperatureFields = {
    "temperature": (0.1, WORDS_NODES, "Temperature of the bots' words (words=model; AvalonBench: 0.1)."),
}
"""The context's temperatures (`roundtable.prompts.rendering.TemperatureFields`)."""


class _NaiveFields(TemplateContext):
    TEMPLATE_FIELDS: ClassVar[dict[str, str]] = template_fields(NAIVE_PROMPT_FIELDS)

    if TYPE_CHECKING:  # fields create_model adds below, declared for the type checker only
        words_prompt: str
        temperature: float


NaiveContext = create_model(
    "NaiveContext",
    __base__=_NaiveFields,
    __doc__="""Per-run settings of the ``naive`` kind's words from a model (seat option ``words=model``).

    Attributes:
        words_prompt: the Jinja2 template of the one call that writes a bot's words; default: the file
            ``roundtable/agents/naive/prompts/words.j2`` (docs/agents/naive.md#the-prompt).
        temperature: its sampling temperature (AvalonBench: 0.1).
    """,
    **context_fields(KINDS, NAIVE_PROMPT_FIELDS, TEMPERATURE_FIELDS),
)
