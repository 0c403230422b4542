"""Measures computed from game records with no model (play quality; the papers' metrics join here)."""

from .play_quality import PlayQuality, Share, play_quality

__all__ = ["PlayQuality", "Share", "play_quality"]
