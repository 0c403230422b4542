"""What a game or agent-kind package tests itself with, as PettingZoo ships its ``api_test``: the game
conformance suite (`roundtable.testing.games`), the agent conformance suite (`roundtable.testing.agents`), the
rule policies every game is played with (`roundtable.testing.policies`) and the scripted chat model that answers
each agent step by its name (`roundtable.testing.scripted`)."""
