"""The game-graph node of the ``human`` kind: pause for the person's answer, check it, ask again if illegal."""

from __future__ import annotations

from langgraph.types import interrupt

from roundtable.agents.human.answer import AnswerError, decision_from_answer
from roundtable.agents.human.question import question
from roundtable.agents.protocol import AgentInput, AgentOutput, agent_output, parse_view
from roundtable.games.protocol import Request


def human_node(task: AgentInput) -> AgentOutput:
    """Ask the person at the seat (``interrupt(question(...))``) until the resume payload is a legal answer.

    Each refused answer is asked again with the reason in the payload's ``error``
    (nothing is applied). Returns the `AgentOutput` with the decision (no memory:
    the person keeps their own).
    """
    view = parse_view(task["view"])
    request = Request.model_validate(task["request"])
    error: str | None = None
    while True:
        answer = interrupt(question(view, request, error))
        try:
            return agent_output(decision_from_answer(request, answer))
        except AnswerError as refused:
            error = str(refused)


human_node.__name__ = "human"
