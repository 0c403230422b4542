"""Which llama.cpp build the embedded model runs, and the hint for a faster one (no model needed)."""

from __future__ import annotations

import logging
import sys
import types
from pathlib import Path

import pytest

from roundtable.models import local
from roundtable.models.local import NATIVE_BUILD_HINT, build_features, host_has_avx512

PREBUILT = ("CPU : SSE3 = 1 | SSSE3 = 1 | AVX = 1 | AVX2 = 1 | F16C = 1 | FMA = 1 | BMI2 = 1 | LLAMAFILE = 1 | "
            "REPACK = 1 | ")
NATIVE = PREBUILT.replace("BMI2 = 1 |", "BMI2 = 1 | AVX512 = 1 | AVX512_VNNI = 1 |")


def test_build_features_reads_the_flags_set_to_one() -> None:
    assert build_features(PREBUILT) >= {"AVX2", "FMA", "REPACK"}
    assert "AVX512" not in build_features(PREBUILT)
    assert {"AVX512", "AVX512_VNNI"} <= build_features(NATIVE)
    assert build_features("CPU : AVX2 = 0 | NEON = 1 | ") == {"NEON"}
    assert build_features("") == frozenset()


def test_host_has_avx512_reads_cpuinfo_flags(tmp_path: Path) -> None:
    with_avx512 = tmp_path / "a"
    with_avx512.write_text("processor : 0\nflags : fpu avx2 avx512f avx512_vnni\n\nprocessor : 1\n")
    without = tmp_path / "b"
    without.write_text("processor : 0\nflags : fpu avx2 avx512_fake\n")
    assert host_has_avx512(with_avx512)
    assert not host_has_avx512(without)
    assert not host_has_avx512(tmp_path / "missing")


class _FakeParams:
    """Accepts any attribute, like xllamacpp.CommonParams' nested structs."""

    def __getattr__(self, name: str) -> _FakeParams:
        value = _FakeParams()
        object.__setattr__(self, name, value)
        return value


class _FakeServer:
    listening_address = "http://127.0.0.1:1/"

    def __init__(self, params: object) -> None:
        pass


@pytest.mark.parametrize(("info", "avx512_cpu", "warned"), [
    (PREBUILT, True, True), (NATIVE, True, False), (PREBUILT, False, False)])
def test_the_server_warns_only_when_a_native_build_would_be_faster(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, info: str, avx512_cpu: bool,
        warned: bool) -> None:
    fake = types.SimpleNamespace(CommonParams=_FakeParams, Server=_FakeServer, get_system_info=lambda: info)
    monkeypatch.setitem(sys.modules, "xllamacpp", fake)
    monkeypatch.setattr(local, "host_has_avx512", lambda: avx512_cpu)
    with caplog.at_level(logging.WARNING, logger=local.__name__):
        server = local.LocalServer("/nowhere/model.gguf")
    assert server.features == build_features(info)
    assert (NATIVE_BUILD_HINT in caplog.text) is warned
