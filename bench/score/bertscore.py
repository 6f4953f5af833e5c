"""BERTScore as LongVQUBench reports it (appendix D.1: BERTScore-F1 of an answer against its
reference), computed by the `bert-score` package with idf weighting (from the references) and
baseline rescaling. The model's files are fetched the way the CLIP weights are: huggingface_hub
into its standard cache, from HF_ENDPOINT when set, never when HF_HUB_OFFLINE is set.

Settings: LVQ_BERTSCORE_MODEL (a hub repo; default FacebookAI/roberta-large, bert-score's
English default), LVQ_BERTSCORE_LAYERS (default 17, bert-score's for roberta-large) and
LVQ_BERTSCORE_BASELINE (a baseline file "LAYER,P,R,F"; default the one bert-score ships for
the model) and LVQ_BERTSCORE_CACHE_DIR (default: the hub cache, HF_HOME / HF_HUB_CACHE).
When anything is missing, BertScoreMissing says what: no other score stands in.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

DEFAULT_REPO = "FacebookAI/roberta-large"
DEFAULT_LAYERS = 17
TOKENIZER_FILES = ("tokenizer_config.json", "tokenizer.json", "vocab.json", "merges.txt",
                   "vocab.txt", "special_tokens_map.json")
WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")


class BertScoreMissing(RuntimeError):
    """BERTScore cannot be computed here (no package, no weights, no baseline): says why."""


@dataclass(frozen=True)
class BertScoreModel:
    """Which model scores: hub repo, layer, baseline file (None: bert-score's own for it)."""

    repo: str = DEFAULT_REPO
    layers: int = DEFAULT_LAYERS
    baseline: str | None = None
    cache_dir: str | None = None


@dataclass(frozen=True)
class BertScores:
    """Per-pair precision, recall and F1, and how they were computed."""

    precision: list[float]
    recall: list[float]
    f1: list[float]
    idf: bool
    rescaled: bool
    model: str


def model_from_env() -> BertScoreModel:
    """The BERTScore model the environment asks for (defaults: roberta-large, layer 17)."""
    layers = os.environ.get("LVQ_BERTSCORE_LAYERS", "").strip()
    return BertScoreModel(repo=os.environ.get("LVQ_BERTSCORE_MODEL", "").strip() or DEFAULT_REPO,
                          layers=int(layers) if layers else DEFAULT_LAYERS,
                          baseline=os.environ.get("LVQ_BERTSCORE_BASELINE") or None,
                          cache_dir=os.environ.get("LVQ_BERTSCORE_CACHE_DIR") or None)


def baseline_file(model: BertScoreModel) -> str:
    """The rescaling baseline of a model: the given file, else the one bert-score ships."""
    if model.baseline:
        if not Path(model.baseline).is_file():
            raise BertScoreMissing(f"no baseline file {model.baseline}")
        return model.baseline
    import bert_score

    name = model.repo.split("/")[-1]
    shipped = Path(bert_score.__file__).parent / "rescale_baseline" / "en" / f"{name}.tsv"
    if not shipped.is_file():
        raise BertScoreMissing(f"no rescaling baseline for {model.repo}: set "
                               "LVQ_BERTSCORE_BASELINE to a LAYER,P,R,F file")
    return str(shipped)


def fetch_model(model: BertScoreModel) -> str:
    """The folder holding the model's config, tokenizer and weights (fetched when missing)."""
    from huggingface_hub import hf_hub_download
    from huggingface_hub.errors import EntryNotFoundError, LocalEntryNotFoundError

    from tools.clip_fetch import endpoint, offline, verify_download

    local = offline()

    def get(name: str) -> str:
        path = hf_hub_download(model.repo, name, cache_dir=model.cache_dir,
                               endpoint=None if local else endpoint(), local_files_only=local,
                               library_name="bert-score")
        verify_download(path)
        return path

    try:
        folder = Path(get("config.json")).parent
        for name in TOKENIZER_FILES:
            try:
                get(name)
            except (EntryNotFoundError, LocalEntryNotFoundError):
                continue
        for name in WEIGHT_FILES:
            try:
                get(name)
                return str(folder)
            except (EntryNotFoundError, LocalEntryNotFoundError):
                continue
        raise BertScoreMissing(f"{model.repo} has none of {', '.join(WEIGHT_FILES)}")
    except BertScoreMissing:
        raise
    except Exception as exc:  # noqa: BLE001 - any hub or network failure is one clear line
        why = "HF_HUB_OFFLINE is set and it is not cached" if local else \
            f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}"
        raise BertScoreMissing(f"no weights for {model.repo} ({why})") from None


def bertscore(candidates: Sequence[str], references: Sequence[str],
              model: BertScoreModel | None = None, *, idf: bool = True,
              rescale: bool = True) -> BertScores:
    """BERTScore of each candidate against its reference (idf from the references)."""
    if len(candidates) != len(references):
        raise ValueError("candidates and references differ in length")
    model = model or model_from_env()
    try:
        from bert_score import BERTScorer
    except ImportError as exc:
        raise BertScoreMissing("the bert-score package is not installed: "
                               "pip install 'lvq-agent[bench]'") from exc
    baseline = baseline_file(model) if rescale else None
    folder = fetch_model(model)
    if not candidates:
        return BertScores([], [], [], idf, rescale, model.repo)
    scorer = BERTScorer(model_type=folder, num_layers=model.layers, idf=idf,
                        idf_sents=list(references) if idf else None, lang="en", device="cpu",
                        nthreads=1, rescale_with_baseline=rescale, baseline_path=baseline)
    p, r, f = scorer.score(list(candidates), list(references))
    return BertScores([float(x) for x in p], [float(x) for x in r], [float(x) for x in f],
                      idf, rescale, model.repo)
