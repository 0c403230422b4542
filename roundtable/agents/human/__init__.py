"""Node of the ``human`` agent kind: a person answers at the seat (docs/agents/human.md).

`answer` turns a person's resume payload into a checked `Decision`;
`question` builds what the person is shown (the `interrupt` payload); `node`
is the game-graph node that pauses with LangGraph's ``interrupt()`` and
continues with ``Command(resume=...)``.
"""

from roundtable.agents.human.answer import AnswerError, decision_from_answer, example_answer
from roundtable.agents.human.node import human_node
from roundtable.agents.human.question import PERSON_MARK, is_question, question

__all__ = ["AnswerError", "PERSON_MARK", "decision_from_answer", "example_answer", "human_node", "is_question",
           "question"]
