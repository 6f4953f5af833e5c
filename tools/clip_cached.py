"""Which CLIP models are in the Hugging Face cache, which one the index uses, and fetching one
ahead of time (checked by loading it)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from tools.clip_fetch import (
    Fetched,
    discard,
    fetch,
    hub_cache_root,
    hub_source,
    model_label,
)
from tools.clip_model import (
    HUB_CONFIG_NAME,
    HUB_WEIGHT_NAMES,
    ClipConfig,
    ClipError,
    WeightsUnavailable,
    load_clip,
    resolve_weights,
)


@dataclass(frozen=True)
class CachedModel:
    """One model in the hub cache: the names that ask for it, its repo, bytes and folder."""

    names: tuple[str, ...]
    repo: str
    size: int
    path: str
    in_use: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def config_for(name: str | None) -> ClipConfig:
    """A config for NAME as given on the command line ('ViT-B-32/openai', 'ViT-B-32',
    'hf-hub:org/repo', 'local-dir:/path'), else the configured one (LVQ_CLIP_*)."""
    if not name:
        return ClipConfig.from_env()
    if ":" in name or "/" not in name:
        return ClipConfig.from_env(model=name)
    arch, tag = name.rsplit("/", 1)
    return ClipConfig.from_env(model=arch, pretrained=tag)


def in_use(cfg: ClipConfig) -> dict[str, Any]:
    """The model the index uses: its name, hub repo, and whether its weights are on disk."""
    out: dict[str, Any] = {"name": model_label(cfg), "repo": None, "cached": False, "path": None}
    try:
        src = hub_source(cfg)
        out["repo"] = src.repo if src else None
        weights = resolve_weights(cfg)
        out.update(cached=True, path=weights.path or weights.model.removeprefix("local-dir:"))
    except ClipError as exc:
        out["reason"] = str(exc)
    return out


def cached_models(cfg: ClipConfig) -> list[CachedModel]:
    """open_clip models in cfg's hub cache (newest revision of each), the one in use marked."""
    root = hub_cache_root(cfg)
    if not root.is_dir():
        return []
    from huggingface_hub import scan_cache_dir

    repos = [r for r in scan_cache_dir(root).repos if r.repo_type == "model"]
    files = {r.repo_id: _newest(r) for r in repos}
    tags = _tag_names() if any(HUB_CONFIG_NAME not in f[1] for f in files.values()) else {}
    try:
        src = hub_source(cfg)
    except ClipError:
        src = None
    label = model_label(cfg)
    rows = []
    for repo in sorted(repos, key=lambda r: r.repo_id):
        revision, names = files[repo.repo_id]
        tag_files, tag_names = tags.get(repo.repo_id, (set(), []))
        asked = [f"hf-hub:{repo.repo_id}"] if HUB_CONFIG_NAME in names else []
        if names & tag_files:
            asked += tag_names
        if not asked or not names & (set(HUB_WEIGHT_NAMES) | tag_files):
            continue  # no open_clip weights in it
        if label in asked:  # the configured spelling first
            asked.insert(0, asked.pop(asked.index(label)))
        used = src is not None and src.repo == repo.repo_id
        path = str(revision.snapshot_path)
        rows.append(CachedModel(tuple(asked), repo.repo_id, revision.size_on_disk, path, used))
    return rows


def _newest(repo: Any) -> tuple[Any, set[str]]:
    """A cached repo's most recently modified revision and the file names it holds."""
    revision = max(repo.revisions, key=lambda r: r.last_modified)
    return revision, {f.file_name for f in revision.files}


def _tag_names() -> dict[str, tuple[set[str], list[str]]]:
    """open_clip's pretrained tags by hub repo: {repo: (weight file names, ['ARCH/tag', ...])}."""
    import open_clip

    from tools.clip_model import hub_weight_names

    out: dict[str, tuple[set[str], list[str]]] = {}
    for arch, tag in open_clip.list_pretrained():
        hub = open_clip.get_pretrained_cfg(arch, tag).get("hf_hub", "")
        if hub:
            repo, names = hub_weight_names(hub)
            files, asked = out.setdefault(repo, (set(), []))
            files.update(names)
            asked.append(f"{arch}/{tag}")
    return out


def pull(
    cfg: ClipConfig, progress: bool = True, force: bool = False, check: bool = True
) -> Fetched:
    """Fetch cfg's model into the hub cache now; with `check`, load it, and remove what was just
    downloaded if it does not load (so nothing broken is left to be loaded later)."""
    fetched = fetch(cfg, progress=progress, force=force)
    if check:
        try:
            load_clip(cfg, resolve_weights(cfg), threads=1)
        except WeightsUnavailable as exc:
            if fetched.downloaded:
                discard(fetched.downloaded)
                raise WeightsUnavailable(f"{exc}; the downloaded files were removed") from exc
            raise
    return fetched


def human_bytes(n: int) -> str:
    """1234567 -> '1.2 MB' (decimal units, as the hub shows sizes)."""
    size = float(n)
    for unit in ("B", "kB", "MB"):
        if size < 1000:
            return f"{n} B" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000
    return f"{size:.1f} GB"
