"""Experiments: the papers' settings as batches of games (docs/experiments.md#the-shipped-experiments).

A TOML configuration (`config`) names the conditions to compare; `runner`
plays their games in parallel and resumably into one directory; `manifest`
says where it stands; `retention` keeps the checkpoint database small;
`learning` carries what ``lga`` learners learned from game to game; `report`
turns the records into tables and plots (`roundtable.metrics`).
"""
