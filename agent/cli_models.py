"""`agent models`: the CLIP models in the Hugging Face cache, and fetching one ahead of time."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

models_app = typer.Typer(
    no_args_is_help=True,
    help="CLIP models for frame retrieval: list the cached ones, fetch one ahead of time.",
)
out = Console()
err = Console(stderr=True)

NameArg = Annotated[
    str | None,
    typer.Argument(
        help="ARCH/TAG (e.g. ViT-B-32/openai) or hf-hub:ORG/REPO [default: the configured "
        "model, LVQ_CLIP_MODEL / LVQ_CLIP_PRETRAINED, else ViT-B-32/openai]."
    ),
]


def _fail(message: str, code: int) -> None:
    err.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


@models_app.command("list")
def models_list(
    as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
) -> None:
    """List the open_clip models in the Hugging Face cache and the one the index uses."""
    from tools.clip_cached import cached_models, config_for, human_bytes, in_use
    from tools.clip_fetch import hub_cache_root
    from tools.clip_model import ClipError

    try:
        cfg = config_for(None)
        rows, used = cached_models(cfg), in_use(cfg)
    except ClipError as exc:
        _fail(str(exc), 2)
    root = str(hub_cache_root(cfg))
    if as_json:
        doc = {"cache": root, "in_use": used, "models": [r.to_dict() for r in rows]}
        sys.stdout.write(json.dumps(doc, indent=1) + "\n")
        return
    state = f"cached at {used['path']}" if used["cached"] else "not cached: `agent models pull`"
    repo = f" (hub {used['repo']})" if used["repo"] else ""
    out.print(f"index uses: [bold]{used['name']}[/]{repo}, {state}", highlight=False)
    if not rows:
        out.print(f"no open_clip models in the Hugging Face cache {root}", highlight=False)
        return
    table = Table(title=f"{len(rows)} cached in {root}", title_justify="left")
    for col in ("", "model", "hub repo", "size", "path"):
        table.add_column(col, overflow="fold", justify="right" if col == "size" else "left")
    for r in rows:
        table.add_row("*" if r.in_use else "", ", ".join(r.names), r.repo, human_bytes(r.size),
                      r.path)
    out.print(table)


@models_app.command("pull")
def models_pull(
    name: NameArg = None,
    force: Annotated[bool, typer.Option(help="Download again even if cached.")] = False,
    check: Annotated[bool, typer.Option(help="Load the model once fetched.")] = True,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")] = False,
) -> None:
    """Fetch a model's weights into the Hugging Face cache now (HF_ENDPOINT, HF_HUB_OFFLINE)."""
    from tools.clip_cached import config_for, human_bytes, pull
    from tools.clip_fetch import endpoint, model_label
    from tools.clip_model import ClipError, UnknownModel

    try:
        cfg = config_for(name)
        fetched = pull(cfg, progress=not quiet, force=force, check=check)
    except UnknownModel as exc:
        _fail(str(exc), 2)
    except ClipError as exc:
        _fail(str(exc), 1)
    doc = {
        "model": model_label(cfg),
        "repo": fetched.repo,
        "endpoint": endpoint(),
        "paths": list(fetched.paths),
        "downloaded": list(fetched.downloaded),
        "bytes": fetched.bytes,
        "seconds": round(fetched.seconds, 3),
        "checked": check,
    }
    if as_json:
        sys.stdout.write(json.dumps(doc, indent=1) + "\n")
        return
    where = fetched.paths[-1]
    if not fetched.downloaded:
        out.print(f"{doc['model']}: already cached{', loads' if check else ''}; at {where}",
                  highlight=False)
        return
    rate = fetched.bytes / fetched.seconds / 1e6 if fetched.seconds > 0 else 0.0
    out.print(
        f"{doc['model']}: fetched {len(fetched.downloaded)} file(s) of {fetched.repo} from "
        f"{doc['endpoint']}, {human_bytes(fetched.bytes)} in {fetched.seconds:.1f} s "
        f"({rate:.1f} MB/s){', loads' if check else ''}; at {where}",
        highlight=False,
    )
