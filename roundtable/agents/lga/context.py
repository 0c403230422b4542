"""Runtime context of the ``lga`` agent graph: every model-facing text, overridable per run.

`LgaContext` is the agent graph's ``context_schema``, and the ``lga`` field of
a game graph's context (`roundtable.graphs.game.game_context`). Each prompt field
defaults to the text of its template file and carries LangGraph Studio's prompt
metadata (``json_schema_extra={"langgraph_nodes": [...], "langgraph_type":
"prompt"}``), so a prompt engineer edits it in Studio, reruns a node from a
checkpoint, and compares. The sampling temperatures live here too (a seat's
``options`` override them for that seat).

Pass it as ``graph.invoke(input, config, context=LgaContext(act_prompt=...))``
or as a dict (LangGraph coerces it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pydantic import create_model

from roundtable.aids.interface import check_prompts
from roundtable.prompts.rendering import TemperatureFields, TemplateContext, context_fields, template_fields
from roundtable.tables.protocol import table_prompt_fields

KINDS = ("lga",)
MODEL_NODES = ["summarize", "analyze", "plan", "act", "respond", "believe"]
"""The lga graph's nodes that call a model (prompt metadata names nodes of the lga graph, drawn inside the
game graph's ``lga`` node)."""

# field name -> (template name, nodes that use it, description)
PROMPT_FIELDS: dict[str, tuple[str, list[str], str]] = {
    "system_prompt": ("lga/system", MODEL_NODES,
                      "Lan et al.'s system prompt (aids off): the game, its rules, the player's role and strategy."),
    "role_prompt": ("lga/role", MODEL_NODES, "Lan et al.'s role information: introduction, goal, initial strategy."),
    "summarize_prompt": ("lga/summarize", ["summarize"], "Lan et al.'s summarization (the aids off)."),
    "analyze_prompt": ("lga/analyze", ["analyze"], "Lan et al.'s analysis (the aids off)."),
    "plan_prompt": ("lga/plan", ["plan"], "Lan et al.'s planning (the aids off)."),
    "act_prompt": ("lga/act", ["act"], "Lan et al.'s action (the aids off)."),
    "respond_prompt": ("lga/respond", ["respond"], "Lan et al.'s response (the aids off)."),
    "believe_prompt": ("lga/believe", ["believe"], "The belief probe at game over (the aids off)."),
    "rules_prompt": ("avalon/rules", MODEL_NODES,
                     "System prompt: the rules of Avalon for the game's role set and variants."),
    "table_rules_prompt": ("lga/table/rules", MODEL_NODES,
                           "The rules in a game that leaves them to the kind and has no rules template of its own "
                           "(Werewolf): its seats, roles and variants."),
    "table_role_prompt": ("lga/table/role", MODEL_NODES,
                          "The role card in a game that leaves its role cards to the kind (Werewolf)."),
    "table_instruction_prompt": ("lga/table/instruction", ["act", "respond"],
                                 "The Host's instruction in a game that leaves it to the kind (Werewolf)."),
    "table_speech_prompt": ("lga/table/speech", ["act", "respond"],
                            "How the words are said in a game that leaves it to the kind (Werewolf)."),
    "aids_shared_prompt": ("aids/lga/shared", MODEL_NODES,
                           "The public part every prompt starts with: earlier rounds' facts and this round's records."),
    "aids_private_prompt": ("aids/lga/private", MODEL_NODES,
                            "The player's private part: role card, knowledge, how it answers, summary (this round's "
                            "private records follow the public part)."),
    "aids_standing_prompt": ("aids/lga/standing", MODEL_NODES,
                             "How the player answers the Host in every call (in the cached private part): its words' "
                             "manner (a game without a wording of its own)."),
    "aids_avalon_standing_prompt": ("aids/lga/avalon/standing", MODEL_NODES,
                                    "How the player answers the Host in Avalon: its words' manner, what to keep "
                                    "secret, by side and role; the rule of a team vote."),
    "aids_context_prompt": ("aids/lga/context", MODEL_NODES,
                            "What precedes every task: the private and public parts and the notes, in the order the "
                            "prompt cache wants (layout)."),
    "aids_summarize_prompt": ("aids/lga/summarize", ["summarize"],
                              "Summarization: previous summary + the last round's records -> new summary."),
    "aids_avalon_summarize_prompt": ("aids/lga/avalon/summarize", ["summarize"],
                                     "Summarization in Avalon: what to keep of the quests and the teams."),
    "aids_analyze_prompt": ("aids/lga/analyze", ["analyze"],
                            "With the aids on: the other players' likely roles and strategies."),
    "aids_plan_prompt": ("aids/lga/plan", ["plan"], "Planning for the rest of the game."),
    "aids_avalon_plan_prompt": ("aids/lga/avalon/plan", ["plan"],
                                "Planning for the rest of the game in Avalon: whom to put on teams."),
    "aids_believe_prompt": ("aids/lga/believe", ["believe"],
                            "The belief probe at game over: how likely each other player is to be on the table's "
                            "first probe side."),
    "aids_avalon_believe_prompt": ("aids/lga/avalon/believe", ["believe"],
                                   "The belief probe at game over in Avalon: how likely each other player is to be "
                                   "good (Merlin, Percival or a Loyal Servant of Arthur)."),
    "instruction_prompt": ("avalon/instruction", ["act", "respond"],
                           "The Host's instruction for each kind of request."),
    "aids_act_prompt": ("aids/lga/act", ["act"], "Action (and the words, when asked, in the same call)."),
    "aids_respond_prompt": ("aids/lga/respond", ["respond"], "Response: the words said to the table."),
    "choice_help_prompt": ("answers/choice_help", ["act", "respond"],
                           "How the answer's choice is written (per answer shape)."),
    "retry_note_prompt": ("answers/retry_note", ["act", "respond"], "The Host's note when asking again for players."),
    "speech_prompt": ("avalon/speech", ["act", "respond"],
                      "How the words of the request in hand are said: to whom, how long."),
    "decided_prompt": ("avalon/decided", ["respond"], "The chosen action in words, for the response."),
    "answer_fields_prompt": ("answers/field", ["summarize", "act"],
                             "Descriptions of the fields of JSON answer schemas."),
    "extract_system_prompt": ("extraction/system", ["act", "respond", "believe"], "The extractor's system prompt."),
    "extract_pick_prompt": ("extraction/pick", ["act", "respond"],
                            "Extractor with worked examples: the players a reply names."),
    "extract_yes_no_prompt": ("extraction/yes_no", ["act", "respond"],
                              "Extractor with worked examples: which of the game's two words a reply chooses."),
    "extract_belief_prompt": ("extraction/belief", ["believe"],
                              "The belief probe's parser: a probability per player of being on the table's first "
                              "probe side, from the answer."),
    "avalon_extract_belief_prompt": ("extraction/avalon/belief", ["believe"],
                                     "The belief probe's parser in Avalon: a probability of being good per player, "
                                     "from the answer."),
    "narration_prompt": ("avalon/narration", ["observe"],
                         "The narrator: each event as one line of the player's records."),
    "knowledge_prompt": ("avalon/knowledge", MODEL_NODES, "What the player learned at the reveal, in words."),
    "team_knowledge_prompt": ("avalon/team_knowledge", ["act", "respond"],
                              "What the player's knowledge says about the team in hand."),
    "team_record_prompt": ("avalon/team_record", ["act", "respond"],
                           "What the public record says about the team in hand: members on failed quests, own "
                           "proposal, a fifth team."),
    "leader_lines_prompt": ("avalon/leader_lines", ["act"],
                            "What the leader's knowledge and the public record say about whom its side wants on the "
                            "team it proposes."),
} | check_prompts(["act", "respond"], ["act"]) | table_prompt_fields(MODEL_NODES)



TEMPERATURE_FIELDS: TemperatureFields = {
    "temperature": (0.3, MODEL_NODES, "Temperature of the agent modules (Lan et al.: 0.3)."),
    "extraction_temperature": (0.0, ["act", "respond", "believe"], "Temperature of extractor and parser calls (0)."),
}
"""The context's temperatures (`roundtable.prompts.rendering.TemperatureFields`)."""

class _LgaFields(TemplateContext):
    TEMPLATE_FIELDS: ClassVar[dict[str, str]] = template_fields(PROMPT_FIELDS)

    if TYPE_CHECKING:  # fields create_model adds below, declared for the type checker only
        temperature: float
        extraction_temperature: float


LgaContext = create_model(
    "LgaContext",
    __base__=_LgaFields,
    __doc__="""Per-run settings of the ``lga`` agent graph (its ``context_schema``).

    Attributes:
        *_prompt: Jinja2 template texts; default: the template files (docs/agents/lga.md).
        temperature: sampling temperature of the agent modules (Lan et al.: 0.3).
        extraction_temperature: temperature of extractor calls (docs/games/protocol.md#reading-answers-from-replies: 0).
    """,
    **context_fields(KINDS, PROMPT_FIELDS, TEMPERATURE_FIELDS),
)
