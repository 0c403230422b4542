"""Node functions of the ``lga`` agent graph (Lan et al., EMNLP 2024), one concern per file.

``observe`` (memory storage), ``summarize``, ``analyze``, ``plan``, ``act``,
``respond``, ``decide``; `routing` chooses the next step. Model-calling nodes
are built by ``make_<node>(models)`` over a `roundtable.tools.model_calls.ModelProvider`.
"""

from .act import make_act
from .analyze import make_analyze
from .decide import decide
from .observe import observe
from .options import LgaOptions
from .plan import make_plan
from .respond import make_respond
from .routing import STEPS, next_step, route_after
from .state import LgaState
from .summarize import make_summarize

__all__ = [
    "LgaOptions", "LgaState", "STEPS", "decide", "make_act", "make_analyze",
    "make_plan", "make_respond", "make_summarize", "next_step", "observe", "route_after",
]
