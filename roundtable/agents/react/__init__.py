"""Node functions of the ``react`` agent graph (Light et al., *AvalonBench*, 2023), one concern per file.

``observe`` (the minutes), ``summarize`` (the running summary), ``think`` (zero-shot reasoning), ``parse`` (the
parser), ``speak`` (one sentence), ``believe`` (the belief probe at game over), ``decide``; `routing` chooses the
next step. Model-calling nodes are built by ``make_<node>(models)`` over a
`roundtable.agents.common.model_calls.ModelProvider`.
"""

from roundtable.agents.react.believe import make_believe
from roundtable.agents.react.decide import decide
from roundtable.agents.react.observe import observe
from roundtable.agents.react.options import ReactOptions
from roundtable.agents.react.parse import make_parse
from roundtable.agents.react.routing import after_aids, after_observe, after_parse, after_speak, after_summarize
from roundtable.agents.react.speak import make_speak
from roundtable.agents.react.state import ReactState
from roundtable.agents.react.summarize import make_summarize
from roundtable.agents.react.think import make_think

__all__ = [
    "ReactOptions", "ReactState", "after_aids", "after_observe", "after_parse", "after_speak", "after_summarize",
    "decide", "make_believe", "make_parse", "make_speak", "make_summarize", "make_think", "observe",
]
