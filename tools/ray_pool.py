"""Ray placement: one task per piece of work on a Ray cluster, results as each finishes.

`ray_session` connects to a cluster (`auto`, `HOST:PORT`, `ray://HOST:10001`) or starts a
local Ray for the run ("local", with `num_cpus` CPUs or the machine's); `run_tasks` submits
one task per argument tuple and yields each result as its task finishes, so the caller can
write it at once; on an interrupt the tasks not finished are cancelled. Ray is optional
(`pip install 'lvq-agent[ray]'`): without it `--ray` is refused in one line.
"""

from __future__ import annotations

import logging
import os
import re
import signal
import socket
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from tools.errors import EndpointError, UsageError

LOCAL = "local"
_ADDRESS = re.compile(r"^(auto|local|ray://\S+|[\w.\-\[\]:]+:\d+)$")
# Environment a task needs to behave as the driver would (settings, keys, caches).
ENV_PREFIXES = ("LVQ_", "OPENAI_", "HF_", "XDG_CACHE_HOME", "TRANSFORMERS_")


def expand_ray_flag(argv: Sequence[str]) -> list[str]:
    """A bare `--ray` (no address after it) as `--ray=local`, so the address is optional."""
    out = list(argv)
    for i, arg in enumerate(out):
        if arg == "--ray":
            nxt = out[i + 1] if i + 1 < len(out) else ""
            if not _ADDRESS.match(nxt):
                out[i] = f"--ray={LOCAL}"
    return out


def task_env() -> dict[str, str]:
    """The driver's settings a remote task applies before it works (never logged)."""
    return {k: v for k, v in os.environ.items() if k.startswith(ENV_PREFIXES)}


def apply_env(env: dict[str, str]) -> None:
    """Set in a task the driver's settings from task_env()."""
    os.environ.update(env)


def check_reachable(address: str, timeout_s: float = 5.0) -> None:
    """Fail in one line, within seconds, when a HOST:PORT or ray://HOST:PORT address does not
    answer (ray.init itself would retry for minutes)."""
    hostport = address.removeprefix("ray://")
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit():
        return  # "auto": Ray finds the local cluster itself, and says so when there is none
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout_s).close()
    except OSError as exc:
        raise EndpointError(f"cannot reach the Ray cluster at {address}: "
                            f"{exc.strerror or exc}") from None


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise UsageError("--ray needs the ray package: pip install 'lvq-agent[ray]'") from None
    return ray


@contextmanager
def ray_session(address: str | None = LOCAL, num_cpus: int | None = None) -> Iterator[Any]:
    """Ray connected for the block (reused when already up); yields the ray module."""
    ray = _import_ray()
    address = address or LOCAL
    if address != LOCAL and num_cpus is not None:
        raise UsageError("--ray-cpus sets the CPUs of a local Ray; a cluster has its own")
    if num_cpus is not None and num_cpus < 1:
        raise UsageError("--ray-cpus must be at least 1")
    if address != LOCAL:
        check_reachable(address)
    if ray.is_initialized():  # a caller (or a test) connected already: use that Ray
        yield ray
        return
    kwargs: dict[str, Any] = {"include_dashboard": False, "logging_level": logging.WARNING,
                              "log_to_driver": False}
    if address == LOCAL:
        kwargs["num_cpus"] = num_cpus or os.cpu_count() or 1
    previous = signal.getsignal(signal.SIGTERM)
    try:
        ray.init(address=address, **kwargs)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise EndpointError(f"cannot reach the Ray cluster at {address}: "
                            f"{' '.join(str(exc).split())[:200]}") from None
    finally:
        signal.signal(signal.SIGTERM, previous)  # ray.init installs its own: keep ours
    try:
        yield ray
    finally:
        ray.shutdown()


def run_tasks(fn: Callable[..., Any], args: Sequence[tuple[Any, ...]],
              num_cpus: float = 1) -> Iterator[Any]:
    """fn(*a) for each a as a Ray task, yielding results in the order they finish.

    Must run inside ray_session. A task that raises re-raises here; on an interrupt (or when
    the caller stops early) the unfinished tasks are cancelled.
    """
    import ray

    remote = ray.remote(num_cpus=num_cpus, max_retries=1)(fn)
    pending = [remote.remote(*a) for a in args]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1, timeout=0.5)
            for ref in done:
                yield ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
