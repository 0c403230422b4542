"""Node functions of the ``codeact`` and ``cot`` agent graphs (Shi et al., *Cooperation on the Fly*, 2023).

``observe`` (global memory), ``gather_facts`` (leader memory), ``write``,
``run`` and ``debug`` (CodeAct's loop over the sandboxed ``Python_REPL``),
``react`` (the ReAct leader), ``answer`` (the team, or the fallback),
``think`` (chain of thought), ``aids`` (the small-model aids' checks), ``believe`` (the belief probe at game over),
``decide``; `routing` chooses the next step.
"""

from roundtable.agents.codeact.aids import aids
from roundtable.agents.codeact.answer import answer
from roundtable.agents.codeact.believe import make_believe
from roundtable.agents.codeact.code import make_debug, make_write, run
from roundtable.agents.codeact.decide import decide
from roundtable.agents.codeact.observe import gather_facts, observe
from roundtable.agents.codeact.options import CodeActOptions, CotOptions
from roundtable.agents.codeact.react import make_react
from roundtable.agents.codeact.routing import (
    after_aids,
    after_answer,
    after_gather,
    after_observe,
    after_react,
    after_run,
    after_think,
)
from roundtable.agents.codeact.state import CodeActState
from roundtable.agents.codeact.think import make_think

__all__ = [
    "CodeActOptions", "CodeActState", "CotOptions", "after_aids", "after_answer", "after_gather", "after_observe",
    "after_react", "after_run", "after_think", "aids", "answer", "decide", "gather_facts", "make_believe",
    "make_debug", "make_react", "make_think", "make_write", "observe", "run",
]
