"""The games' tables as the model-driven agents read them: rules text, role cards, knowledge, the instruction and
answer format of each request, narration, the round's name, secret phases and paper-specific hooks
(`roundtable.tables.protocol.GameTable`, docs/architecture.md#a-games-table).

Below the agents and the aids, above the games and the prompt registry: a kind renders its prompts from a table,
and an aid reads what the table says the player knows. A game registers its table through
`roundtable.games.protocol.GameRules.table`; Avalon's is `roundtable.tables.avalon`, Werewolf's
`roundtable.tables.werewolf`.
"""
