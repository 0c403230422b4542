"""Node functions of the ``cga`` agent graph (Xu et al. 2023; SPEC.md §3.3), one concern per file.

``observe``, ``freshness``, ``informativeness`` (`history`), ``questions``,
``retrieve``, ``answer``, ``reflect`` (`answer`), ``suggest``, ``think``,
``decide``; the experience pool in `experience`, the memory and its retrieval
in `memory`. Model-calling nodes are built by ``make_<node>(models)``.
"""

from .answer import make_answer, make_reflect, retrieve
from .decide import decide
from .history import freshness, informativeness, observe
from .options import CgaOptions
from .questions import make_questions
from .state import CgaState
from .suggest import make_suggest
from .think import make_think

__all__ = [
    "CgaOptions", "CgaState", "decide", "freshness", "informativeness", "make_answer", "make_questions",
    "make_reflect", "make_suggest", "make_think", "observe", "retrieve",
]
