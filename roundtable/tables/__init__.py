"""The games' tables as the model-driven agents read them: rules text, role cards, knowledge, the instruction and
answer format of each request, narration (docs/architecture.md).

Below the agents and the aids, above the games and the prompt registry: a kind renders its prompts from a table,
and an aid reads what the table says the player knows.
"""
