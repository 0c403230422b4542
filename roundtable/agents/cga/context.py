"""Runtime context of the ``cga`` agent graph: every model-facing text and the temperatures
(docs/agents/cga.md#options).

Like `roundtable.agents.lga.context.LgaContext`: each prompt field defaults to its
template file and carries Studio's prompt metadata (``langgraph_nodes``), so a
prompt (or a role's question set) is edited in Studio and a node rerun.
The game's table (`roundtable.tables.protocol.GameTable`) says which texts a decision reads: Avalon's rules,
role cards, Host instructions and answer formats are the templates the ``lga`` agent reads; a game that leaves
them to the kind (Werewolf) reads ``<game>/rules`` where it exists, else ``cga/rules``, and ``cga/role`` and the
Host's instruction ``cga/instruction``; the question sets are the ones the table names.
Each of cga's own prompts has two fields: ``X_prompt``
(``cga/X``, Xu et al.'s prompt, rendered with the seat's aids off: docs/agents/cga.md#paper-mode) and
``aids_X_prompt`` (``aids/cga/X``, tuned for the embedded model, rendered with them on). Temperatures follow
Xu et al.: 0 for the chain-of-thought answer (and the belief probe's answer), 0.3 for the other content.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pydantic import create_model

from roundtable.aids.interface import check_prompts
from roundtable.prompts.rendering import TemperatureFields, TemplateContext, context_fields, template_fields

KINDS = ("cga",)
MODEL_NODES = ["questions", "answer", "reflect", "suggest", "think", "believe"]
HISTORY_NODES = ["questions", "answer", "reflect", "think", "believe"]

# field name -> (template name, nodes that use it, description)
CGA_PROMPT_FIELDS: dict[str, tuple[str, list[str], str]] = {
    "rules_prompt": ("avalon/rules", MODEL_NODES,
                     "System prompt in Avalon: the rules for the game's role set and variants."),
    "other_rules_prompt": ("cga/rules", MODEL_NODES,
                           "System prompt in a game without a rules template of its own that cga does not word "
                           "itself (aids off)."),
    "werewolf_rules_prompt": ("cga/werewolf/rules", MODEL_NODES,
                              "System prompt in Werewolf: Xu et al.'s game rules and role descriptions (aids off)."),
    "werewolf_think_tip_prompt": ("cga/werewolf/think_tip", ["think"],
                                  "The tip of Xu et al.'s code for a choice in Werewolf, without a suggestion "
                                  "(aids off)."),
    "role_prompt": ("cga/role", HISTORY_NODES,
                    "Role card in a game without role cards of its own (Werewolf roles): the Moderator's word "
                    "(aids off)."),
    "history_prompt": ("cga/history", HISTORY_NODES,
                       "The history (aids off): role card, informative messages, recent messages."),
    "questions_prompt": ("cga/questions", ["questions"],
                         "Question selection (aids off): Xu et al.'s prompts to select questions and to ask one's "
                         "own."),
    "avalon_questions_prompt": ("cga/questions/avalon", ["questions"],
                                "Avalon question set (aids off): Xu et al.'s questions shared by every role."),
    "werewolf_questions_prompt": ("cga/questions/werewolf", ["questions"],
                                  "Werewolf question sets (aids off): Xu et al.'s Table 2."),
    "answer_prompt": ("cga/answer", ["answer"],
                      "One question's answer from the retrieved messages (aids off: Xu et al.'s prompt)."),
    "reflect_prompt": ("cga/reflect", ["reflect"], "The reflection (aids off): As the <role>, I observed that ..."),
    "suggest_prompt": ("cga/suggest", ["suggest"],
                       "The suggestion from the bad and the good experiences (aids off: Xu et al.'s prompt)."),
    "think_prompt": ("cga/think", ["think"],
                     "The chain-of-thought answer ending in the words and the action (aids off: Xu et al.'s final "
                     "prompt)."),
    "believe_prompt": ("cga/believe", ["believe"],
                       "The belief probe at game over (aids off): from the history and the reflection, how likely "
                       "each other player is on the table's first probe side."),
    "avalon_believe_prompt": ("cga/avalon/believe", ["believe"],
                              "The belief probe at game over in Avalon (aids off): how likely each other player is "
                              "good (loyal to Arthur)."),
    "extract_system_prompt": ("extraction/system", ["think", "believe"],
                              "The system prompt of the extractor and of the belief probe's parser."),
    "extract_belief_prompt": ("extraction/belief", ["believe"],
                              "The belief probe's parser: a probability per player of being on the table's first "
                              "probe side, from the answer."),
    "avalon_extract_belief_prompt": ("extraction/avalon/belief", ["believe"],
                                     "The belief probe's parser in Avalon: a probability of being good per player, "
                                     "from the answer."),
    "instruction_prompt": ("avalon/instruction", ["think"], "The Host's instruction in Avalon."),
    "other_instruction_prompt": ("cga/instruction", ["think"],
                                 "The Host's instruction in other games (Werewolf's kinds; aids off: the Moderator's "
                                 "words of Xu et al.'s games)."),
    "choice_help_prompt": ("answers/choice_help", ["think"], "How the answer's choice is written (per answer shape)."),
    "speech_prompt": ("avalon/speech", ["think"], "How the words are said in Avalon."),
    "decided_prompt": ("avalon/decided", ["think"], "The action already chosen, in words, when only the words are "
                                                    "asked for again (Avalon)."),
    "knowledge_note_prompt": ("werewolf/knowledge_note", ["think"],
                              "What a Werewolf player's own knowledge settles, beside the Host's instruction: fellow "
                              "werewolves, the Seer's own checks, the dead."),
    # the aids' prompts (docs/agents/aids.md): rendered instead of the paper's with the seat's aids on
    "aids_other_rules_prompt": ("aids/cga/rules", MODEL_NODES,
                                "System prompt in a game without a rules template of its own (aids on)."),
    "aids_werewolf_rules_prompt": ("aids/cga/werewolf/rules", MODEL_NODES,
                                   "System prompt in Werewolf, by its variants (aids on)."),
    "aids_werewolf_role_prompt": ("aids/cga/werewolf/role", HISTORY_NODES,
                                  "Role card of each Werewolf role, with a strategy (aids on)."),
    "aids_role_prompt": ("aids/cga/role", HISTORY_NODES,
                         "Role card in a game without role cards of its own, with a strategy (aids on)."),
    "aids_history_prompt": ("aids/cga/history", HISTORY_NODES,
                            "The history (aids on): role card, informative messages, recent messages."),
    "aids_questions_prompt": ("aids/cga/questions", ["questions"],
                              "Question selection (aids on): choose from the role's set, ask your own, one call."),
    "aids_avalon_questions_prompt": ("aids/cga/questions/avalon", ["questions"],
                                     "Avalon question sets (aids on): asked, shared and per role."),
    "aids_werewolf_questions_prompt": ("aids/cga/questions/werewolf", ["questions"],
                                       "Werewolf question sets (aids on): asked, shared and per role."),
    "aids_answer_prompt": ("aids/cga/answer", ["answer"],
                           "One question's answer from the retrieved messages (aids on: at most two sentences)."),
    "aids_answers_prompt": ("aids/cga/answers", ["answer"],
                            "All answers and the reflection in one call (merge_answers, an aid)."),
    "aids_reflect_prompt": ("aids/cga/reflect", ["reflect"],
                            "The reflection (aids on): As the <role>, I observed that ..."),
    "aids_suggest_prompt": ("aids/cga/suggest", ["suggest"],
                            "The suggestion from the bad and the good experiences (aids on)."),
    "aids_think_prompt": ("aids/cga/think", ["think"],
                          "The chain-of-thought answer ending in the words and the action (aids on)."),
    "aids_believe_prompt": ("aids/cga/believe", ["believe"],
                            "The belief probe at game over (aids on)."),
    "aids_avalon_believe_prompt": ("aids/cga/avalon/believe", ["believe"],
                                   "The belief probe at game over in Avalon (aids on)."),
    "aids_other_instruction_prompt": ("aids/cga/instruction", ["think"],
                                      "The Host's instruction in other games (aids on: the day's talk made concrete)."),
    "aids_other_speech_prompt": ("aids/cga/speech", ["think"], "How the words are said in other games (aids on)."),
} | check_prompts(["think"], ["think"])

TEMPERATURE_FIELDS: TemperatureFields = {
    "temperature": (0.3, ["answer", "reflect", "suggest"],
                    "Temperature of answers, reflection and suggestion (Xu et al.: 0.3)."),
    "question_temperature": (0.3, ["questions"], "Temperature of the question step."),
    "thought_temperature": (0.0, ["think", "believe"],
                            "Temperature of the chain-of-thought answer and the belief probe's (Xu et al.: 0)."),
    "extraction_temperature": (0.0, ["think", "believe"], "Temperature of extractor and parser calls (0)."),
}
"""The context's temperatures (`roundtable.prompts.rendering.TemperatureFields`)."""

class _CgaFields(TemplateContext):
    TEMPLATE_FIELDS: ClassVar[dict[str, str]] = template_fields(CGA_PROMPT_FIELDS)

    if TYPE_CHECKING:  # fields create_model adds below, declared for the type checker only
        temperature: float
        question_temperature: float
        thought_temperature: float
        extraction_temperature: float


CgaContext = create_model(
    "CgaContext",
    __base__=_CgaFields,
    __doc__="""Per-run settings of the ``cga`` agent graph (its ``context_schema``).

    Attributes:
        *_prompt: Jinja2 template texts; default: the template files (docs/agents/cga.md).
        temperature: content calls: answers, reflection, suggestion (Xu et al.: 0.3).
        question_temperature: the question step (docs/agents/cga.md#options: may run warmer; default 0.3).
        thought_temperature: the chain-of-thought answer and the belief probe's answer (Xu et al.: 0).
        extraction_temperature: extractor calls (docs/games/protocol.md#reading-answers-from-replies) and the
            belief probe's parser call: 0.
    """,
    **context_fields(KINDS, CGA_PROMPT_FIELDS, TEMPERATURE_FIELDS),
)
