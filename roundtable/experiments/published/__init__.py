"""The papers' published figures for the measures we compute, shipped as data (docs/published.md).

One TOML file per paper (``lan2024.toml``, ``light2023.toml``, ``shi2023.toml``, ``xu2023.toml``), checked by
`roundtable.experiments.published.model` and read by `roundtable.experiments.published.load`. An experiment's
``published`` key names the figures its conditions correspond to (docs/experiments.md#published-figures), and its
report sets each beside ours (`roundtable.experiments.reports.published`).
"""
