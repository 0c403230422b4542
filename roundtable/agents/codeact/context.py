"""Runtime context of the ``codeact`` and ``cot`` agent graphs: every model-facing text and the two temperatures.

Like `roundtable.agents.lga.context.LgaContext`: each prompt field defaults to its
template file and carries Studio's prompt metadata (``langgraph_nodes``), so a
prompt is edited in Studio and a node rerun. The rules, role cards, the Host's
instruction, the answer formats and the narrator are the game's table's
templates, which every kind reads; where a game leaves a piece to the kind,
this kind's neutral ``codeact/table/<piece>``. Temperatures follow Shi et al.:
0 for code, 0.7 for text; the belief probe's parser call runs at 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pydantic import create_model

from roundtable.aids.interface import check_prompts
from roundtable.prompts.rendering import TemperatureFields, TemplateContext, context_fields, template_fields
from roundtable.tables.protocol import table_prompt_fields

KINDS = ("codeact", "cot")
TEXT_NODES = ["think", "react", "believe"]
CODE_NODES = ["write", "debug"]
ALL_NODES = [*TEXT_NODES, *CODE_NODES]

# field name -> (template name, nodes that use it, description)
CODEACT_PROMPT_FIELDS: dict[str, tuple[str, list[str], str]] = {
    "rules_prompt": ("avalon/rules", ALL_NODES,
                     "System prompt with the aids on: the rules of Avalon for the game's role set and variants."),
    "global_prompt": ("codeact/global", ALL_NODES,
                      "System prompt (Shi et al.'s global prompt): the game rule, the role assignment, the role "
                      "identification."),
    "memory_prompt": ("codeact/memory", ALL_NODES, "Global memory: the key information, the last k messages."),
    "think_prompt": ("codeact/think", ["think"],
                     "The moderator's note or the Host's question, then a JSON with the reasoning and the answer."),
    "facts_prompt": ("codeact/facts", ["write", "debug", "react"],
                     "Leader memory: the private and the public information, one statement a line."),
    "write_prompt": ("codeact/write", ["write", "debug"],
                     "CodeAct (Shi et al.'s Figure 3): a program that selects the players most likely good."),
    "debug_prompt": ("codeact/debug", ["debug"], "Self-debug: the previous program and the issue; revise the code."),
    "react_prompt": ("codeact/react", ["react"], "ReAct leader: thought, action (Check/Finish), observation."),
    "observation_prompt": ("codeact/observation", ["react"], "What a ReAct Check[players] observes."),
    "believe_prompt": ("codeact/believe", ["believe"], "AvalonBench's belief question at game over."),
    "parse_beliefs_prompt": ("codeact/parse_beliefs", ["believe"],
                             "AvalonBench's parser of the belief question: a score per player."),
    "aids_memory_prompt": ("aids/codeact/memory", ALL_NODES,
                           "With the aids on: global memory: role, key information, the last k messages."),
    "aids_think_prompt": ("aids/codeact/think", ["think"],
                          "With the aids on: chain of thought: reason in prose, then the answer (and words)."),
    "aids_facts_prompt": ("aids/codeact/facts", ["write", "debug", "react", "believe"],
                          "With the aids on: leader memory: each gathered fact as a plain statement."),
    "aids_write_prompt": ("aids/codeact/write", ["write", "debug"],
                          "With the aids on: write a program from our scoring skeleton and print the team."),
    "aids_debug_prompt": ("aids/codeact/debug", ["debug"],
                          "With the aids on: the previous program, its error and what went wrong; write a new one."),
    "aids_react_prompt": ("aids/codeact/react", ["react"],
                          "With the aids on: ReAct leader: thought, action (Check/Finish), observation."),
    "aids_believe_prompt": ("aids/codeact/believe", ["believe"],
                            "With the aids on: the belief probe: think step by step, then how likely each other "
                            "player is on the table's first probe side."),
    "aids_avalon_believe_prompt": ("aids/codeact/avalon/believe", ["believe"],
                                   "With the aids on, in Avalon: the belief probe: think step by step over the "
                                   "quests, then how likely each other player is good."),
    "extract_system_prompt": ("extraction/system", ["believe"], "The belief probe parser's system prompt."),
    "extract_belief_prompt": ("extraction/belief", ["believe"],
                              "The belief probe's parser: a probability per player of being on the table's first "
                              "probe side, from the answer."),
    "avalon_extract_belief_prompt": ("extraction/avalon/belief", ["believe"],
                                     "The belief probe's parser in Avalon: a probability of being good per player, "
                                     "from the answer."),
    "instruction_prompt": ("avalon/instruction", ["think"], "The Host's instruction for each kind of request."),
    "table_global_prompt": ("codeact/table/global", ALL_NODES,
                            "System prompt in a game Shi et al. do not play (aids off): the table's rules, the seat, "
                            "the role card and the knowledge."),
    "table_rules_prompt": ("codeact/table/rules", ALL_NODES,
                           "The rules of a game that leaves them to the kind (a neutral text from the table's facts)."),
    "table_role_prompt": ("codeact/table/role", ALL_NODES,
                          "The role card in a game that leaves it to the kind (a neutral text)."),
    "table_instruction_prompt": ("codeact/table/instruction", ["think"],
                                 "The Host's instruction in a game that leaves it to the kind (from the request)."),
    "table_speech_prompt": ("codeact/table/speech", ["think"],
                            "How the words are said in a game that leaves it to the kind: to whom, how long."),
    "choice_help_prompt": ("answers/choice_help", ["think"], "How the answer's choice is written (per answer shape)."),
    "speech_prompt": ("avalon/speech", ["think"], "How the words are said: to whom, how long, what to keep secret."),
    "decided_prompt": ("avalon/decided", ["think"], "The action already chosen (by a program), in words."),
    "answer_fields_prompt": ("answers/field", ["think"], "Descriptions of the fields of JSON answer schemas."),
    "narration_prompt": ("avalon/narration", ["observe"], "The narrator: each event as one line of the memory."),
    "knowledge_prompt": ("avalon/knowledge", ALL_NODES, "What the player learned at the reveal, in words."),
    "team_knowledge_prompt": ("avalon/team_knowledge", ["think"],
                              "What the player's knowledge says about the team in hand."),
    "team_record_prompt": ("avalon/team_record", ["think"], "What the public record says about the team in hand."),
    "leader_lines_prompt": ("avalon/leader_lines", ["think"],
                            "What the leader's knowledge and the record say about whom its side wants on the team."),
} | check_prompts(["think"], ["think"]) | table_prompt_fields(ALL_NODES)

TEMPERATURE_FIELDS: TemperatureFields = {
    "text_temperature": (0.7, TEXT_NODES, "Temperature of prose (Shi et al.: 0.7)."),
    "code_temperature": (0.0, CODE_NODES, "Temperature of code (Shi et al.: 0)."),
    "extraction_temperature": (0.0, ["believe"], "Temperature of the belief probe's parser call (0)."),
}
"""The context's temperatures (`roundtable.prompts.rendering.TemperatureFields`)."""

class _CodeActFields(TemplateContext):
    TEMPLATE_FIELDS: ClassVar[dict[str, str]] = template_fields(CODEACT_PROMPT_FIELDS)

    if TYPE_CHECKING:  # fields create_model adds below, declared for the type checker only
        text_temperature: float
        code_temperature: float
        extraction_temperature: float


CodeActContext = create_model(
    "CodeActContext",
    __base__=_CodeActFields,
    __doc__="""Per-run settings of the ``codeact`` and ``cot`` agent graphs (their ``context_schema``).

    Attributes:
        *_prompt: Jinja2 template texts; default: the template files (docs/agents/codeact.md).
        text_temperature: sampling temperature of prose (chain of thought, ReAct, words, the belief probe's
            answer): 0.7 (Shi et al.).
        code_temperature: sampling temperature of programs (write, debug): 0 (Shi et al.).
        extraction_temperature: the belief probe's parser call: 0.
    """,
    **context_fields(KINDS, CODEACT_PROMPT_FIELDS, TEMPERATURE_FIELDS),
)
