"""Measures computed from game records with no model: play quality, and the papers' metrics (AvalonPlay's,
AvalonBench's deduction accuracy, Xu et al.'s Werewolf outcomes, also against experience pool size)."""

from roundtable.metrics.avalonplay import AvalonPlayMetrics, avalonplay_metrics, game_metrics
from roundtable.metrics.deduction import deductions
from roundtable.metrics.play_quality import PlayQuality, Share, play_quality
from roundtable.metrics.pools import pool_size
from roundtable.metrics.tables import deduction_accuracy
from roundtable.metrics.werewolf import WerewolfOutcomes, game_days, werewolf_outcomes, werewolf_pool_table

__all__ = ["AvalonPlayMetrics", "PlayQuality", "Share", "WerewolfOutcomes", "avalonplay_metrics", "deduction_accuracy",
           "deductions", "game_days", "game_metrics", "play_quality", "pool_size", "werewolf_outcomes",
           "werewolf_pool_table"]
