"""Embeddings for retrieval: the offline MiniLM (no network, no torch) and a pluggable OpenAI-compatible endpoint."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

from roundtable.tools.embeddings import EndpointEmbedder, MiniLMEmbedder, embedder, minilm_files


def test_the_offline_model_ships_in_the_installed_packages_and_embeds_by_meaning():
    model, tokenizer = minilm_files()
    assert model.stat().st_size > 10_000_000 and tokenizer.name == "tokenizer.json"
    vectors = np.array(embedder().embed(["The seer checked player 3.", "Player 3 was checked by the seer.",
                                         "I like apples.", ""]))
    assert vectors.shape == (4, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-3)
    assert vectors[0] @ vectors[1] > 0.8 > vectors[0] @ vectors[2]
    assert isinstance(embedder("minilm"), MiniLMEmbedder) and embedder() is embedder("minilm")


def test_a_batch_embeds_each_text_as_it_would_alone():
    texts = ["short", "a much longer message about who the werewolves might be tonight"]
    together = np.array(embedder().embed(texts))
    alone = np.array([embedder().embed([t])[0] for t in texts])
    assert np.allclose(together, alone, atol=1e-4)  # padding to the batch's longest text changes nothing


def test_an_openai_compatible_endpoint_embeds_and_is_scaled_to_unit_length():
    seen: list[dict] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            body = json.loads(self.rfile.read(int(self.headers["content-length"])))
            seen.append(body)
            data = json.dumps({"object": "list", "model": body["model"],
                               "usage": {"prompt_tokens": 1, "total_tokens": 1},
                               "data": [{"object": "embedding", "index": i, "embedding": [3.0, 4.0 + i]}
                                        for i, _ in enumerate(body["input"])]}).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        endpoint = EndpointEmbedder(f"http://127.0.0.1:{server.server_address[1]}/v1#mini-embed")
        vectors = endpoint.embed(["a", "b"])
    finally:
        server.shutdown()
    assert seen and seen[0]["model"] == "mini-embed" and seen[0]["input"] == ["a", "b"]
    assert np.allclose(vectors[0], [0.6, 0.8]) and np.isclose(np.linalg.norm(vectors[1]), 1.0)


def test_xu_et_als_sentence_bert_models_are_chosen_by_name_and_refused_clearly_where_not_installed(monkeypatch):
    import importlib.util

    from roundtable.agents.cga.options import CgaOptions
    from roundtable.tools.embeddings import EmbeddingsUnavailableError, SentenceTransformerEmbedder

    spec = "sentence-transformers/all-mpnet-base-v2"
    assert CgaOptions.parse({"embeddings": spec}, "gpt-4o").embeddings == spec
    chosen = embedder(spec)
    assert isinstance(chosen, SentenceTransformerEmbedder) and chosen.name == spec
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "sentence_transformers" else real(name, *a))
    with pytest.raises(EmbeddingsUnavailableError, match="pip install sentence-transformers"):
        SentenceTransformerEmbedder(spec).embed(["the Seer is Player 3"])
