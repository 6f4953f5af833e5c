"""Index one video with a temporary cache and print one JSON line: frames and duration, or the
error's one-line message (run in a subprocess so a crash or hang costs only its row)."""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path


def index_one(video: str) -> dict:
    """The outcome of indexing `video`: ok with frames and duration, or the error message."""
    from tools.errors import LvqError
    from tools.index import get_index

    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="lvq-rel-") as cache:
        try:
            index = get_index(video, cache_dir=Path(cache), progress=False, clip=False)
        except LvqError as exc:
            return {"ok": False, "error": str(exc), "kind": type(exc).__name__,
                    "s": time.perf_counter() - t0}
        except Exception as exc:  # noqa: BLE001 - reported as an unexpected failure (a bug)
            return {"ok": False, "error": f"unexpected {type(exc).__name__}: {exc}",
                    "kind": "bug", "s": time.perf_counter() - t0}
    info = index.info
    return {"ok": True, "frames": info.n_frames, "duration": info.duration_s, "fps": info.fps,
            "codec": info.codec, "size": f"{info.width}x{info.height}",
            "decoded": len(index.frames["t"]), "warnings": index.meta.get("warnings", []),
            "s": time.perf_counter() - t0}


def main(argv: list[str] | None = None) -> None:
    """`python -m bench.reliability.index_one VIDEO`: one JSON line on stdout."""
    args = sys.argv[1:] if argv is None else argv
    print(json.dumps(index_one(args[0])))


if __name__ == "__main__":
    main()
