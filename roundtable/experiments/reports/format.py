"""What every game's report sections share: how a figure with its interval is written, markdown tables and
bar charts with error bars (matplotlib, written without metadata so the same records give the same bytes)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from roundtable.metrics.tables import Measure


def pct(row: Measure | None) -> str:
    """``38.2% [35.2, 41.3]`` (n = 0: ``-``)."""
    if row is None or row.value is None or row.low is None or row.high is None:  # all None together (n = 0)
        return "-"
    return f"{100 * row.value:.1f}% [{100 * row.low:.1f}, {100 * row.high:.1f}]"


def error_bar(row: Measure | None) -> tuple[float, float]:
    """The distances from ``row``'s value down to its interval's low end and up to its high end (0, 0 without a
    value)."""
    if row is None or row.value is None or row.low is None or row.high is None:
        return 0.0, 0.0
    return row.value - row.low, row.high - row.value


def num(row: Measure | None) -> str:
    """``1.25 [1.10, 1.40]``: a mean with its interval (no value: ``-``)."""
    if row is None or row.value is None:
        return "-"
    return f"{row.value:.2f} [{row.low:.2f}, {row.high:.2f}]"


def table(header: list[str], rows: Iterable[list[str]]) -> str:
    """A markdown table of ``header`` and ``rows`` (cells already written)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n"




def bars(path: Path, title: str, labels: list[str], series: dict[str, list[Measure | None]],
         inches: float = 1.2) -> None:
    """A grouped bar chart of proportions with their intervals as error bars, written without metadata
    (``inches``: the figure's width per bar)."""
    import matplotlib  # here, not at the top: half a second to import, and only reports draw

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(max(5.0, inches * len(labels) * max(1, len(series))), 3.6), dpi=100)
    width = 0.8 / max(1, len(series))
    for i, (name, values) in enumerate(series.items()):
        xs = [j + (i - (len(series) - 1) / 2) * width for j in range(len(labels))]
        heights = [(v.value or 0.0) if v else 0.0 for v in values]
        bars = [error_bar(v) for v in values]
        errors = [[down for down, _ in bars], [up for _, up in bars]]
        axes.bar(xs, heights, width, yerr=errors, capsize=3, label=name)
    axes.set_xticks(range(len(labels)), labels, fontsize=8)
    axes.set_ylim(0, 1)
    axes.set_title(title, fontsize=10)
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, format="png", metadata={"Software": None})
    plt.close(figure)
