"""The agent kinds: one folder per kind (its ``KIND`` record, graph, nodes, context, options and prompts).

`roundtable.agents.protocol` is what every kind shares with the game graph
(its input, output and registry record), `roundtable.agents.registry` finds
the kinds through the ``roundtable.agents`` entry points, and
`roundtable.agents.common` holds what several kinds share. No kind imports
another kind.
"""
