"""Node functions of the ``cga`` agent graph (Xu et al. 2023; docs/agents/cga.md), one concern per file.

``observe``, ``freshness``, ``informativeness`` (`history`), ``questions``,
``retrieve``, ``answer``, ``reflect`` (`answer`), ``suggest``, ``think``,
``believe`` (the belief probe at game over), ``decide``; the experience pool
in `experience`, the memory and its retrieval in `memory`. Model-calling
nodes are built by ``make_<node>(models)``.
"""

from roundtable.agents.cga.answer import make_answer, make_reflect, retrieve
from roundtable.agents.cga.believe import make_believe
from roundtable.agents.cga.decide import decide
from roundtable.agents.cga.history import freshness, informativeness, observe
from roundtable.agents.cga.options import CgaOptions
from roundtable.agents.cga.questions import make_questions
from roundtable.agents.cga.state import CgaState
from roundtable.agents.cga.suggest import make_suggest
from roundtable.agents.cga.think import make_think

__all__ = [
    "CgaOptions", "CgaState", "decide", "freshness", "informativeness", "make_answer", "make_believe",
    "make_questions", "make_reflect", "make_suggest", "make_think", "observe", "retrieve",
]
