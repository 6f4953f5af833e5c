"""The decord worker process: opens readers and decodes frames for its parent, one request at
a time, so a decord call that hangs can be stopped (a thread cannot be killed; a process can).

Run as `python -m tools.decord_child`. Requests and answers are length-prefixed pickles on
stdin/stdout (see tools/decord_worker.py). It imports only numpy and decord, ignores Ctrl-C
(the parent stops it), and ends itself with SIGALRM shortly after a request's deadline, so a
worker whose parent was killed does not run on.
"""

from __future__ import annotations

import math
import os
import pickle
import signal
import struct
import sys
from collections import OrderedDict

_HEAD = struct.Struct("<Q")
MAX_READERS = 4  # readers kept open: one video's probe, small and native readers, and one more


def _read_exact(fd: int, n: int) -> bytes | None:
    """n bytes from `fd`, or None at end of input (the parent has gone)."""
    parts, got = [], 0
    while got < n:
        chunk = os.read(fd, min(n - got, 1 << 20))
        if not chunk:
            return None
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def _write(fd: int, obj: object) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEAD.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


class _Readers:
    """Open decord readers, by (path, size, mtime, width, height, threads); the oldest closed."""

    def __init__(self) -> None:
        self.open: OrderedDict[tuple, object] = OrderedDict()

    def get(self, key: tuple) -> object:
        import decord

        if key in self.open:
            self.open.move_to_end(key)
            return self.open[key]
        path, _size, _mtime, width, height, threads = key
        reader = decord.VideoReader(path, width=width, height=height, num_threads=threads)
        self.open[key] = reader
        while len(self.open) > MAX_READERS:
            self.open.popitem(last=False)
        return reader


def _park(reader: object) -> None:
    """Stop the reader's decoding thread. After a read, decord goes on decoding the rest of the
    video in the background into an unbounded queue (seen: a full core and 4 GB for a 2-minute
    720p file while the index ran beside it); a seek to the last frame ends that at once, and
    the reader stays open for the next request."""
    try:
        reader.seek(len(reader) - 1)
    except Exception:  # noqa: BLE001 - a reader that cannot seek is closed by the next open
        pass


def _handle(readers: _Readers, op: str, key: tuple, arg: object) -> object:
    """One request: 'open' (length, average fps, frame times) or 'batch' (frames, RGB)."""
    import numpy as np

    reader = readers.get(key)
    if op == "open":
        n = len(reader)
        try:
            stamps = np.asarray(reader.get_frame_timestamp(np.arange(n)), dtype=np.float64)
        except Exception as exc:  # noqa: BLE001 - some containers lack per-frame timestamps
            stamps = f"{type(exc).__name__}: {exc}"
        return {"n": n, "fps": float(reader.get_avg_fps() or 0.0), "stamps": stamps}
    if op == "batch":
        try:
            return reader.get_batch(list(arg)).asnumpy()
        finally:
            _park(reader)
    raise ValueError(f"unknown request {op!r}")


def main() -> None:
    """Serve requests until the parent closes stdin."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    fd_in, fd_out = sys.stdin.fileno(), sys.stdout.fileno()
    sys.stdout = sys.stderr  # nothing else may write into the answer pipe
    import decord  # noqa: F401 - loaded before saying ready, so a broken install shows at once

    _write(fd_out, ("ready", None))
    readers = _Readers()
    while True:
        head = _read_exact(fd_in, _HEAD.size)
        body = _read_exact(fd_in, _HEAD.unpack(head)[0]) if head else None
        if body is None:
            return
        op, key, arg, deadline_s = pickle.loads(body)
        signal.alarm(int(math.ceil(deadline_s)) + 5)
        try:
            answer = ("ok", _handle(readers, op, key, arg))
        except Exception as exc:  # noqa: BLE001 - decord raises bare RuntimeError/DECORDError
            answer = ("error", f"{type(exc).__name__}: {exc}")
        signal.alarm(0)
        _write(fd_out, answer)


if __name__ == "__main__":
    main()
