"""95% confidence intervals: Wilson's score interval for proportions, a seeded percentile bootstrap otherwise.

Sources: E. B. Wilson, *Probable inference, the law of succession, and
statistical inference*, JASA 22 (1927): for ``k`` successes in ``n`` trials,
``p = k/n`` and ``z = 1.96``, the interval is
``(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)``.
B. Efron, *Bootstrap methods: another look at the jackknife*, Ann. Stat. 7
(1979): the percentile interval of a statistic over resamples with
replacement. The bootstrap's generator is seeded, so the same data give the
same interval (reports are byte-identical across runs).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

Z95 = 1.959963984540054
"""The standard normal's 97.5th percentile (two-sided 95%)."""


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of the proportion ``k / n``.

    Returns:
        ``(low, high)`` in [0, 1]; ``(0.0, 1.0)`` when ``n == 0`` (nothing observed).

    Raises:
        ValueError: ``k`` outside ``0..n``.
    """
    if not 0 <= k <= n:
        raise ValueError(f"a proportion needs 0 <= k <= n, not k={k}, n={n}")
    if n == 0:
        return 0.0, 1.0
    p = k / n
    denominator = 1 + z * z / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low = 0.0 if k == 0 else max(0.0, (centre - spread) / denominator)
    high = 1.0 if k == n else min(1.0, (centre + spread) / denominator)
    return low, high


def mean(values: Sequence[float]) -> float:
    """The arithmetic mean (0.0 for no values)."""
    return sum(values) / len(values) if values else 0.0


def bootstrap(values: Sequence[float], statistic: Callable[[Sequence[float]], float] = mean,
              resamples: int = 2000, seed: int = 0, level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of ``statistic(values)``.

    Args:
        values: the observations (e.g. one game length per game).
        statistic: of a sample (default the mean).
        resamples: number of resamples.
        seed: the resampling generator's seed.
        level: the coverage.

    Returns:
        ``(low, high)``; both equal to the statistic for one value, ``(nan, nan)`` for none.
    """
    if not values:
        return math.nan, math.nan
    if len(values) == 1:
        value = statistic(values)
        return value, value
    rng = random.Random(seed)
    n = len(values)
    stats = sorted(statistic([values[rng.randrange(n)] for _ in range(n)]) for _ in range(resamples))
    tail = (1 - level) / 2
    return stats[int(math.floor(tail * (resamples - 1)))], stats[int(math.ceil((1 - tail) * (resamples - 1)))]
