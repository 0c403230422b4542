"""The phase machinery every game graph shares: setup, phase nodes, asking agents, applying answers.

A game graph is built from a rules module record (`roundtable.games.protocol.GameRules`)
by `roundtable.graphs.game.build_game_graph`; nothing here knows a game's rules.
"""
