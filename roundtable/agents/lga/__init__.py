"""Node functions of the ``lga`` agent graph (Lan et al., EMNLP 2024), one concern per file.

``observe`` (memory storage), ``summarize``, ``analyze``, ``plan``, ``act``,
``respond``, ``decide``; `routing` chooses the next step. Model-calling nodes
are built by ``make_<node>(models)`` over a `roundtable.agents.common.model_calls.ModelProvider`.
"""

from roundtable.agents.lga.act import make_act
from roundtable.agents.lga.analyze import make_analyze
from roundtable.agents.lga.believe import make_believe
from roundtable.agents.lga.decide import decide
from roundtable.agents.lga.observe import observe
from roundtable.agents.lga.options import LgaOptions
from roundtable.agents.lga.plan import make_plan
from roundtable.agents.lga.respond import make_respond
from roundtable.agents.lga.routing import STEPS, next_step, route_after
from roundtable.agents.lga.state import LgaState
from roundtable.agents.lga.summarize import make_summarize

__all__ = [
    "LgaOptions", "LgaState", "STEPS", "decide", "make_act", "make_analyze", "make_believe",
    "make_plan", "make_respond", "make_summarize", "next_step", "observe", "route_after",
]
