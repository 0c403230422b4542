"""Detectors: what a player's words say, read by plain text heuristics, no model (docs/measures.md#play-quality).

They are instruments, shared by the small-model aids (which check an agent's words before they are said) and by
the measures (`roundtable.metrics`, which count over a finished game), and validated against hand labels apart
from both (`benchmarks/detector_agreement.py`, docs/measurements.md):

- `roundtable.detectors.words`: near copies of an earlier utterance, private thoughts said aloud, the team, vote
  or kill a text names, a stance on a team, a stated tactic, words that say nothing;
- `roundtable.detectors.exposure`: a player giving its own side or role away, and statements of who holds a role.

This package imports only the games' role types: anything above it may use it.
"""
