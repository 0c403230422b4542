"""Each game's part of an experiment report (`roundtable.experiments.reports.game.GameReport`), found through
the ``roundtable.reports`` entry points, and the formatting they share."""
