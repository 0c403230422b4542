"""Runtime context of the ``codeact`` and ``cot`` agent graphs: every model-facing text and the two temperatures.

Like `roundtable.agents.lga.context.LgaContext`: each prompt field defaults to its
template file and carries Studio's prompt metadata (``langgraph_nodes``), so a
prompt is edited in Studio and a node rerun. The rules, role cards, the Host's
instruction, the answer formats and the narrator are the same templates the
``lga`` agent reads. Temperatures follow Shi et al.: 0 for code, 0.7 for text; the belief probe's parser
call runs at 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pydantic import create_model

from roundtable.aids.options import check_prompts
from roundtable.prompts.rendering import TemperatureFields, TemplateContext, context_fields, template_fields
from roundtable.tables.avalon import role_card_prompts

KINDS = ("codeact", "cot")
TEXT_NODES = ["think", "react", "believe"]
CODE_NODES = ["write", "debug"]
ALL_NODES = [*TEXT_NODES, *CODE_NODES]

# field name -> (template name, nodes that use it, description)
CODEACT_PROMPT_FIELDS: dict[str, tuple[str, list[str], str]] = {
    "rules_prompt": ("avalon/rules", ALL_NODES,
                     "System prompt: the rules of Avalon for the game's role set and variants."),
    "memory_prompt": ("codeact/memory", ALL_NODES, "Global memory: role, key information, the last k messages."),
    "think_prompt": ("codeact/think", ["think"], "Chain of thought: reason in prose, then the answer (and words)."),
    "facts_prompt": ("codeact/facts", ["write", "debug", "react", "believe"],
                     "Leader memory: each gathered fact as a plain statement."),
    "write_prompt": ("codeact/write", ["write", "debug"],
                     "CodeAct: write a program that encodes the facts and prints the team."),
    "debug_prompt": ("codeact/debug", ["debug"], "Self-debug: the previous program and its error; write a new one."),
    "react_prompt": ("codeact/react", ["react"], "ReAct leader: thought, action (Check/Finish), observation."),
    "observation_prompt": ("codeact/observation", ["react"], "What a ReAct Check[players] observes."),
    "believe_prompt": ("codeact/believe", ["believe"],
                       "The belief probe at game over: think step by step, then how likely each other player is good."),
    "extract_system_prompt": ("extraction/system", ["believe"], "The belief probe parser's system prompt."),
    "extract_belief_prompt": ("extraction/belief", ["believe"],
                              "The belief probe's parser: a probability of being good per player, from the answer."),
    "instruction_prompt": ("avalon/instruction", ["think"], "The Host's instruction for each kind of request."),
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
} | check_prompts(["think"], ["think"]) | role_card_prompts(ALL_NODES)

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
