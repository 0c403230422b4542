"""Agent kind ``human``: a person takes the seat (docs/agents/human.md); no model.

The game pauses at the player's decision with LangGraph's ``interrupt()``,
whose value is the player's view and the request (`roundtable.agents.human.question`),
and continues with ``Command(resume=ANSWER)``, ANSWER a small JSON object
(`roundtable.agents.human.answer`): ``{"players": [2, 3]}``, ``{"choice": "approve"}``,
``{"utterance": "..."}``. An illegal answer is asked again with the reason.
"""

from roundtable.agents.human import human_node
from roundtable.agents.protocol import AgentKind
from roundtable.games import GAMES

KIND = AgentKind(
    name="human",
    description="A person at the table: the game pauses for their answer (terminal, Studio or any SDK client).",
    games=frozenset(GAMES),
    node=lambda models: human_node,
    asks_person=True,
)
