"""BERTScore with the bert-score package: a tiny randomly initialised BERT served by a hub
look-alike on 127.0.0.1, fetched into a hub cache, with idf and a baseline file made for it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("bert_score")

from huggingface_hub import constants as hub_constants  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from bench.cli import app  # noqa: E402
from bench.score.bertscore import (  # noqa: E402
    BertScoreMissing,
    BertScoreModel,
    bertscore,
)
from tests.hub_server import HubServer  # noqa: E402

REPO = "lvq/tiny-bert"
WORDS = ("the a video is blurry blur sharp noise noisy flicker flickers second half first minute "
         "frames quality good bad poor at from to in and of it clear dark bright scene cat dog "
         "park walks music recipe flour egg").split()
REFS = ["the video is blurry in the second half", "flicker in the first minute",
        "the quality is good", "noise in the dark scene"]
CANDS = ["the second half is blur", "it flickers at the first minute", "the quality is good",
         "a dog walks in the park"]


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory) -> Path:
    """A randomly initialised 2-layer BERT with a 50-word WordPiece vocabulary, saved."""
    from transformers import BertConfig, BertModel, BertTokenizer

    d = tmp_path_factory.mktemp("tiny-bert")
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS, ".", ","]
    (d / "vocab.txt").write_text("\n".join(vocab) + "\n")
    BertTokenizer(str(d / "vocab.txt"), model_max_length=64).save_pretrained(str(d))
    torch.manual_seed(3)
    cfg = BertConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=2,
                     num_attention_heads=2, intermediate_size=37, max_position_embeddings=64)
    BertModel(cfg).save_pretrained(str(d))
    return d


@pytest.fixture(scope="module")
def baseline(tiny_dir, tmp_path_factory) -> Path:
    """A rescaling baseline for the tiny model, made as bert-score makes its own: the mean
    score of unrelated sentence pairs, per layer (rows LAYER,P,R,F)."""
    from bert_score import BERTScorer

    a = ["the cat walks in the park", "music and a recipe", "flour and an egg", "a dog is dark"]
    b = ["the video is blurry", "flicker in the first minute", "noise is bad", "quality is good"]
    rows = ["LAYER,P,R,F"]
    for layer in range(3):
        p, r, f = BERTScorer(model_type=str(tiny_dir), num_layers=layer, lang="en").score(a, b)
        rows.append(f"{layer},{p.mean():.6f},{r.mean():.6f},{f.mean():.6f}")
    path = tmp_path_factory.mktemp("baseline") / "tiny-bert.tsv"
    path.write_text("\n".join(rows) + "\n")
    return path


@pytest.fixture()
def hub(tiny_dir, monkeypatch):
    """The tiny model on a hub look-alike; network allowed for huggingface_hub here."""
    files = {p.name: p.read_bytes() for p in tiny_dir.iterdir() if p.is_file()}
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    monkeypatch.setattr(hub_constants, "HF_HUB_OFFLINE", False)
    with HubServer({REPO: files}) as server:
        monkeypatch.setenv("HF_ENDPOINT", server.url)
        yield server


def _model(tmp_path: Path, baseline: Path | None) -> BertScoreModel:
    return BertScoreModel(repo=REPO, layers=2, baseline=str(baseline) if baseline else None,
                          cache_dir=str(tmp_path / "hub"))


def test_fetched_model_scores_with_idf_and_rescaling(hub, baseline, tmp_path) -> None:
    model = _model(tmp_path, baseline)
    raw = bertscore(CANDS, REFS, model, idf=False, rescale=False)
    assert hub.count("GET") >= 3  # config, tokenizer files, weights
    fetched = hub.count("GET")
    with_idf = bertscore(CANDS, REFS, model, idf=True, rescale=False)
    assert hub.count("GET") == fetched  # cached: nothing downloaded again
    assert raw.f1[2] == pytest.approx(1.0, abs=1e-5)  # a sentence against itself
    assert max(abs(x - y) for x, y in zip(raw.f1, with_idf.f1, strict=True)) > 1e-3
    assert with_idf.f1[2] == pytest.approx(1.0, abs=1e-5)
    resc = bertscore(CANDS, REFS, model, idf=True, rescale=True)
    layer2 = baseline.read_text().splitlines()[3].split(",")
    bp, br, bf = (float(x) for x in layer2[1:])
    for got, base, rows in ((resc.precision, bp, with_idf.precision),
                            (resc.recall, br, with_idf.recall), (resc.f1, bf, with_idf.f1)):
        for g, x in zip(got, rows, strict=True):  # bert-score: (score - b) / (1 - b)
            assert g == pytest.approx((x - base) / (1 - base), abs=1e-4)
    assert resc.idf and resc.rescaled and resc.model == REPO
    assert resc.f1[2] == pytest.approx(1.0, abs=1e-4)


def test_a_cached_model_needs_no_network(hub, baseline, tmp_path, monkeypatch) -> None:
    model = _model(tmp_path, baseline)
    first = bertscore(CANDS, REFS, model)
    gets = hub.count("GET")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    again = bertscore(CANDS, REFS, model)
    assert hub.count("GET") == gets and again.f1 == first.f1


def test_missing_weights_or_baseline_say_bertscore_missing(tmp_path, baseline,
                                                           monkeypatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(BertScoreMissing, match="HF_HUB_OFFLINE is set"):
        bertscore(CANDS, REFS, _model(tmp_path, baseline))
    with pytest.raises(BertScoreMissing, match="no rescaling baseline for lvq/tiny-bert"):
        bertscore(CANDS, REFS, _model(tmp_path, None))


def test_bench_score_writes_bertscore_and_summary_shows_table_s6(hub, baseline, tmp_path,
                                                                 monkeypatch) -> None:
    results = tmp_path / "run.jsonl"
    recs = [{"id": f"ndqa-{k}", "video": f"v{k % 2}.mp4", "format": "open", "question": "q?",
             "gold": ref, "prediction": cand, "level": "LQU" if k < 2 else "GQU"}
            for k, (cand, ref) in enumerate(zip(CANDS, REFS, strict=True))]
    results.write_text("".join(json.dumps(r) + "\n" for r in recs))
    monkeypatch.delenv("LVQ_JUDGE_MODEL", raising=False)
    monkeypatch.setenv("LVQ_BERTSCORE_MODEL", REPO)
    monkeypatch.setenv("LVQ_BERTSCORE_LAYERS", "2")
    monkeypatch.setenv("LVQ_BERTSCORE_BASELINE", str(baseline))
    monkeypatch.setenv("LVQ_BERTSCORE_CACHE_DIR", str(tmp_path / "hub"))
    r = CliRunner().invoke(app, ["score", str(results)])
    assert r.exit_code == 0, r.output
    assert "4 BERTScored" in r.output
    lines = [json.loads(x) for x in (tmp_path / "run.scores.jsonl").read_text().splitlines()]
    f1 = {x["id"]: x["f1"] for x in lines if x["kind"] == "bertscore"}
    direct = bertscore(CANDS, REFS, _model(tmp_path, baseline))
    assert [f1[f"ndqa-{k}"] for k in range(4)] == pytest.approx(direct.f1, abs=1e-4)
    s = json.loads(CliRunner().invoke(app, ["summary", str(results), "--json"]).output)
    table = s["longvqubench"]["open_bertscore_f1"]
    assert table["LQU"]["mean"] == pytest.approx((direct.f1[0] + direct.f1[1]) / 2, abs=1e-4)
    assert table["Overall"]["n"] == 4
    assert not any("BERTScore missing" in m for m in s["longvqubench"]["missing"])
