"""Measures computed from game records with no model: play quality, and the papers' metrics (AvalonPlay's)."""

from .avalonplay import AvalonPlayMetrics, avalonplay_metrics, game_metrics
from .play_quality import PlayQuality, Share, play_quality

__all__ = ["AvalonPlayMetrics", "PlayQuality", "Share", "avalonplay_metrics", "game_metrics", "play_quality"]
