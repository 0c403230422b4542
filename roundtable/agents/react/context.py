"""Runtime context of the ``react`` agent graph: every model-facing text and both temperatures, overridable per run.

Built as every kind's context is (`roundtable.prompts.rendering.context_fields`): each prompt field defaults to its
template file and carries Studio's prompt metadata (``langgraph_nodes``), so a prompt is edited in Studio and a node
rerun; inside a game graph it is the ``react`` field of the game's context (``{"react": {"think_prompt": ...}}``).
The rules, role cards, knowledge, the Host's instruction, how words are said and the narrator are the game's table's
templates, which every kind reads (Avalon's, `roundtable.tables.avalon`); where a game leaves a piece to the kind,
this kind's neutral ``react/table/<piece>``. Temperatures follow AvalonBench
(Light et al. 2023, §5: 0.1) for the model's own text and 0 for the parser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pydantic import create_model

from roundtable.aids.interface import check_prompts
from roundtable.prompts.rendering import TemperatureFields, TemplateContext, context_fields, template_fields
from roundtable.tables.protocol import table_prompt_fields

KINDS = ("react",)
WRITING_NODES = ["summarize", "think", "speak", "believe"]
"""The react graph's nodes whose calls write the model's own text (the parser only reads it)."""
TABLE_NODES = ["think", "speak"]
"""The nodes whose prompts end on the Host's request."""

# field name -> (template name, nodes that use it, description)
REACT_PROMPT_FIELDS: dict[str, tuple[str, list[str], str]] = {
    "rules_prompt": ("avalon/rules", WRITING_NODES,
                     "System prompt with the aids on: the rules of Avalon for the game's role set and variants."),
    "paper_rules_prompt": ("react/rules", WRITING_NODES,
                           "System prompt (AvalonBench's Rules, its code's INTRODUCTION, with the game's facts)."),
    "role_prompt": ("react/role", WRITING_NODES,
                    "AvalonBench's Role, after its Rules in the system message: the identity and the reveal."),
    "context_prompt": ("react/context", WRITING_NODES,
                       "What every call of the player starts with, after the system message: its running summary "
                       "(Summary) and the round's minutes (Minutes)."),
    "summarize_prompt": ("react/summarize", ["summarize"],
                         "AvalonBench's Recap: the previous summary and the round's minutes -> the new summary."),
    "think_prompt": ("react/think", ["think"],
                     "AvalonBench's action request and its 'think about it step by step' line."),
    "parse_prompt": ("react/parse", ["parse"],
                     "AvalonBench's parser (Parse): the reasoning and the CHECK prompt in, the action out."),
    "speak_prompt": ("react/speak", ["speak"], "AvalonBench's Discuss: the leader's statement, or one sentence."),
    "believe_prompt": ("react/believe", ["believe"], "AvalonBench's belief question at game over."),
    "parse_beliefs_prompt": ("react/parse_beliefs", ["believe"],
                             "AvalonBench's parser of the belief question: a score per player."),
    "aids_context_prompt": ("aids/react/context", WRITING_NODES,
                            "With the aids on: what every call of the player starts with: its role and private "
                            "knowledge (Role), its running summary (Summary) and the round's minutes (Minutes)."),
    "aids_summarize_prompt": ("aids/react/summarize", ["summarize"],
                              "With the aids on: the previous summary, the round's minutes and its outcome -> the "
                              "new summary."),
    "aids_avalon_summarize_prompt": ("aids/react/avalon/summarize", ["summarize"],
                                     "With the aids on, in Avalon: the summary, keeping who led, proposed and backed "
                                     "which teams and which quests failed."),
    "aids_think_prompt": ("aids/react/think", ["think"],
                          "With the aids on: the action request, 'think step by step' and the answer's form."),
    "aids_parse_prompt": ("aids/react/parse", ["parse"],
                          "With the aids on: the parser with worked examples (players, yes or no, one player)."),
    "aids_avalon_parse_prompt": ("aids/react/avalon/parse", ["parse"],
                                 "With the aids on, in Avalon: the parser with worked examples of Avalon (a team, "
                                 "yes or no, one player)."),
    "aids_speak_prompt": ("aids/react/speak", ["speak"], "With the aids on: one sentence to the table."),
    "aids_believe_prompt": ("aids/react/believe", ["believe"],
                            "With the aids on: the belief probe, step by step, then how likely each other player "
                            "is to be on the table's first probe side."),
    "aids_avalon_believe_prompt": ("aids/react/avalon/believe", ["believe"],
                                   "With the aids on, in Avalon: the belief probe, step by step, then how likely "
                                   "each other player is to be good."),
    "parse_system_prompt": ("extraction/system", ["parse", "believe"], "The parser's system prompt."),
    "extract_belief_prompt": ("extraction/belief", ["believe"],
                              "The belief probe's parser: a probability per player of being on the table's first "
                              "probe side, from the answer."),
    "avalon_extract_belief_prompt": ("extraction/avalon/belief", ["believe"],
                                     "The belief probe's parser in Avalon: a probability of being good per player, "
                                     "from the answer."),
    "instruction_prompt": ("avalon/instruction", TABLE_NODES, "The Host's instruction for each kind of request."),
    "table_rules_prompt": ("react/table/rules", WRITING_NODES,
                           "The rules of a game that leaves them to the kind (a neutral text from the table's facts)."),
    "table_role_prompt": ("react/table/role", WRITING_NODES,
                          "The role card in a game that leaves it to the kind (a neutral text)."),
    "table_instruction_prompt": ("react/table/instruction", TABLE_NODES,
                                 "The Host's instruction in a game that leaves it to the kind (from the request)."),
    "table_speech_prompt": ("react/table/speech", ["speak"],
                            "How the words are said in a game that leaves it to the kind: to whom, how long."),
    "retry_note_prompt": ("answers/retry_note", ["think"], "The Host's note when asking again for players."),
    "speech_prompt": ("avalon/speech", ["speak"], "How the words are said: to whom, how long."),
    "decided_prompt": ("avalon/decided", ["speak"], "The action already chosen, in words."),
    "narration_prompt": ("avalon/narration", ["observe"], "The narrator: each event as one line of the minutes."),
    "knowledge_prompt": ("avalon/knowledge", WRITING_NODES, "What the player learned at the reveal, in words."),
    "team_knowledge_prompt": ("avalon/team_knowledge", TABLE_NODES,
                              "What the player's knowledge says about the team in hand."),
    "team_record_prompt": ("avalon/team_record", TABLE_NODES, "What the public record says about the team in hand."),
    "leader_lines_prompt": ("avalon/leader_lines", TABLE_NODES,
                            "What the leader's knowledge and the record say about whom its side wants on the team."),
} | check_prompts(["speak"], ["think"]) | table_prompt_fields(WRITING_NODES)

TEMPERATURE_FIELDS: TemperatureFields = {
    "temperature": (0.1, WRITING_NODES, "Temperature of the reasoning, the summary and the words (AvalonBench: 0.1)."),
    "parse_temperature": (0.0, ["parse", "believe"], "Temperature of the parser (0)."),
}
"""The context's temperatures (`roundtable.prompts.rendering.TemperatureFields`)."""


class _ReactFields(TemplateContext):
    TEMPLATE_FIELDS: ClassVar[dict[str, str]] = template_fields(REACT_PROMPT_FIELDS)

    if TYPE_CHECKING:  # fields create_model adds below, declared for the type checker only
        temperature: float
        parse_temperature: float


ReactContext = create_model(
    "ReactContext",
    __base__=_ReactFields,
    __doc__="""Per-run settings of the ``react`` agent graph (its ``context_schema``).

    Attributes:
        *_prompt: Jinja2 template texts; default: the template files (docs/agents/react.md#prompts).
        temperature: sampling temperature of the reasoning, the summary and the words (AvalonBench: 0.1).
        parse_temperature: sampling temperature of the parser (0).
    """,
    **context_fields(KINDS, REACT_PROMPT_FIELDS, TEMPERATURE_FIELDS),
)
