"""Runtime context of the ``cga`` agent graph: every model-facing text and the temperatures
(docs/agents/cga.md#options).

Like `roundtable.agents.lga.context.LgaContext`: each prompt field defaults to its
template file and carries Studio's prompt metadata (``langgraph_nodes``), so a
prompt (or a role's question set) is edited in Studio and a node rerun.
Avalon's rules, role cards, Host instructions and answer formats are the
templates the ``lga`` agent reads; other games read ``<game>/rules`` and
``<game>/roles/<role>`` where they exist, else ``cga/rules`` and ``cga/role``,
and the Host's instruction ``cga/instruction``. Temperatures follow Xu et al.:
0 for the chain-of-thought answer, 0.3 for the other content.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import create_model

from roundtable.prompts.rendering import TemplateContext, prompt_field, temperature_field

KINDS = ("cga",)
MODEL_NODES = ["questions", "answer", "reflect", "suggest", "think"]
HISTORY_NODES = ["questions", "answer", "reflect", "think"]

# field name -> (template name, nodes that use it, description)
CGA_PROMPT_FIELDS: dict[str, tuple[str, list[str], str]] = {
    "rules_prompt": ("avalon/rules", MODEL_NODES,
                     "System prompt in Avalon: the rules for the game's role set and variants."),
    "other_rules_prompt": ("cga/rules", MODEL_NODES, "System prompt in a game without a rules template of its own."),
    "role_prompt": ("cga/role", HISTORY_NODES, "Role card in a game without role cards of its own (Werewolf roles)."),
    "history_prompt": ("cga/history", HISTORY_NODES, "The history: role card, informative messages, recent messages."),
    "questions_prompt": ("cga/questions", ["questions"],
                         "Question selection: choose from the role's set, ask your own."),
    "avalon_questions_prompt": ("cga/questions/avalon", ["questions"],
                                "Avalon question sets: asked, shared and per role."),
    "werewolf_questions_prompt": ("cga/questions/werewolf", ["questions"],
                                  "Werewolf question sets (Xu et al.): asked, shared and per role."),
    "answer_prompt": ("cga/answer", ["answer"],
                      "One question's answer from the retrieved messages (at most two sentences)."),
    "answers_prompt": ("cga/answers", ["answer"], "All answers and the reflection in one call (merge_answers)."),
    "reflect_prompt": ("cga/reflect", ["reflect"], "The reflection: As the <role>, I observed that ..."),
    "suggest_prompt": ("cga/suggest", ["suggest"], "The suggestion from the bad and the good experiences."),
    "think_prompt": ("cga/think", ["think"], "The chain-of-thought answer ending in the words and the action."),
    "instruction_prompt": ("avalon/instruction", ["think"], "The Host's instruction in Avalon."),
    "other_instruction_prompt": ("cga/instruction", ["think"],
                                 "The Host's instruction in other games (Werewolf's kinds)."),
    "choice_help_prompt": ("answers/choice_help", ["think"], "How the answer's choice is written (per answer shape)."),
    "speech_prompt": ("avalon/speech", ["think"], "How the words are said in Avalon."),
    "other_speech_prompt": ("cga/speech", ["think"], "How the words are said in other games."),
}

CGA_TEMPLATE_FIELDS: dict[str, str] = {t: f for f, (t, _, _) in CGA_PROMPT_FIELDS.items()}
"""Template name -> context field name."""


def _prompt(field: str) -> Any:
    template, nodes, description = CGA_PROMPT_FIELDS[field]
    return (str, prompt_field(template, description, KINDS, nodes))


class _Rendering(TemplateContext):
    TEMPLATE_FIELDS: ClassVar[dict[str, str]] = CGA_TEMPLATE_FIELDS


def _temperature(default: float, description: str, nodes: list[str]) -> Any:
    return (float, temperature_field(default, description, KINDS, nodes))


CgaContext = create_model(
    "CgaContext",
    __base__=_Rendering,
    __doc__="""Per-run settings of the ``cga`` agent graph (its ``context_schema``).

    Attributes:
        *_prompt: Jinja2 template texts; default: the files under ``roundtable/prompts``.
        temperature: content calls: answers, reflection, suggestion (Xu et al.: 0.3).
        question_temperature: the question step (docs/agents/cga.md#options: may run warmer; default 0.3).
        thought_temperature: the chain-of-thought answer (Xu et al.: 0).
        extraction_temperature: extractor calls (docs/games/protocol.md#reading-answers-from-replies: 0).
    """,
    **{name: _prompt(name) for name in CGA_PROMPT_FIELDS},
    temperature=_temperature(0.3, "Temperature of answers, reflection and suggestion (Xu et al.: 0.3).",
                             ["answer", "reflect", "suggest"]),
    question_temperature=_temperature(0.3, "Temperature of the question step.", ["questions"]),
    thought_temperature=_temperature(0.0, "Temperature of the chain-of-thought answer (Xu et al.: 0).", ["think"]),
    extraction_temperature=_temperature(0.0, "Temperature of extractor calls (0).", ["think"]),
)
