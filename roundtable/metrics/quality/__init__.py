"""Play quality, one concern per module: `result` (shares, a game's measures, the targets), `talk` (what every
game shares: parroting, thoughts said aloud, fallbacks, cost), `avalon` and `werewolf` (each game's own measures),
`checks` (the agents' own checks) and `table` (per-condition rows for reports). The entry point is
`roundtable.metrics.play_quality.play_quality`; docs/measures.md#play-quality defines every measure."""
