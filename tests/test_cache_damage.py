"""Damaged cache entries are detected and rebuilt, never used."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from tiny_videos import tiny_video

from tools.errors import IndexError_
from tools.index import META, get_index, index_dir, load


@pytest.fixture(scope="module")
def videos(tmp_path_factory):
    root = tmp_path_factory.mktemp("tiny")
    return tiny_video(root / "a.mp4", 3.0), tiny_video(root / "b.mp4", 5.0)


@pytest.fixture()
def indexed(videos, tmp_path):
    """A cache holding the indexes of both videos; (video, its index dir, cache)."""
    cache = tmp_path / "cache"
    for v in videos:
        get_index(v, cache_dir=cache, progress=False, clip=False)
    return videos[0], index_dir(videos[0], cache), cache


def _rebuilt(video, cache) -> bool:
    again = get_index(video, cache_dir=cache, progress=False, clip=False)
    assert again.info.n_frames == 75 and len(again.frames["t"]) == 75
    return not again.meta.get("cached")


def test_meta_records_rows_and_checksums(indexed):
    video, d, cache = indexed
    meta = json.loads((d / META).read_text())
    assert meta["tables"]["frames"]["rows"] == 75
    assert len(meta["tables"]["samples"]["blake2b"]) == 32
    assert get_index(video, cache_dir=cache, progress=False, clip=False).meta["cached"]


@pytest.mark.parametrize("text", ["null", "[1, 2, 3]", '"text"', "{}"])
def test_meta_that_is_not_an_index_object_is_rebuilt(indexed, text):
    video, d, cache = indexed
    (d / META).write_text(text)
    with pytest.raises(IndexError_):
        load(d)
    assert _rebuilt(video, cache)
    assert load(d).info.n_frames == 75  # the rebuilt entry is whole again


@pytest.mark.parametrize("key", ["info", "scenes", "events"])
def test_meta_lacking_a_field_is_rebuilt(indexed, key):
    video, d, cache = indexed
    meta = json.loads((d / META).read_text())
    meta.pop(key)
    (d / META).write_text(json.dumps(meta))
    with pytest.raises(IndexError_, match=key):
        load(d)
    assert _rebuilt(video, cache)


def test_meta_with_wrong_info_fields_is_rebuilt(indexed):
    video, d, cache = indexed
    meta = json.loads((d / META).read_text())
    meta["info"] = {"path": "x", "colour": "blue"}
    (d / META).write_text(json.dumps(meta))
    with pytest.raises(IndexError_):
        load(d)
    assert _rebuilt(video, cache)


def test_frames_of_another_video_are_not_trusted(indexed, videos):
    video, d, cache = indexed
    other = index_dir(videos[1], cache)
    (d / "frames.parquet").write_bytes((other / "frames.parquet").read_bytes())
    with pytest.raises(IndexError_, match="checksum"):
        load(d)
    assert _rebuilt(video, cache)


def test_empty_frames_table_is_not_trusted(indexed):
    video, d, cache = indexed
    cols = pq.read_table(d / "frames.parquet").schema
    pq.write_table(pa.Table.from_pylist([], schema=cols), d / "frames.parquet")
    with pytest.raises(IndexError_):
        load(d)
    assert _rebuilt(video, cache)


def test_index_without_checksums_is_judged_by_its_length(indexed, videos):
    """Indexes written before checksums: a frame table of another length is refused."""
    video, d, cache = indexed
    meta = json.loads((d / META).read_text())
    meta.pop("tables")
    (d / META).write_text(json.dumps(meta))
    assert load(d).info.n_frames == 75  # the right table still loads
    other = index_dir(videos[1], cache)
    (d / "frames.parquet").write_bytes((other / "frames.parquet").read_bytes())
    with pytest.raises(IndexError_, match="125 frame rows for a video of 75 frames"):
        load(d)
    assert _rebuilt(video, cache)
