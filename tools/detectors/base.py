"""The detector interface: what every detector reads (a Context) and what it is (a Detector).

A detector reads the index's signals through the Context and returns its events. Detectors run
in the registry's order (tools/detectors/__init__.py), and an earlier one can explain a later
one's deviations away: it marks the samples its events cover in `Context.explained` under its
kind, and a later detector that names that kind in `explained_by` neither sets its baseline
nor raises events there (noise raises the Laplacian, blocking adds edges, low contrast
flattens it).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from tools.model import Event, Scene

if TYPE_CHECKING:
    from tools.detectors.spatial_spec import SpatialSpec

# An event is reported when its severity reaches this (0..1); weaker ones are dropped.
REPORT_SEVERITY = 0.3
# Shortest spatial event (seconds, from its first sample to one sample past its last), and
# the gap (seconds) across which flagged runs of samples join into one event.
MIN_EVENT_S = 1.5
MERGE_GAP_S = 2.0


def scene_ids(t: np.ndarray, scenes: list[Scene]) -> np.ndarray:
    """The index of the scene each time falls in (0 when there are no scenes)."""
    starts = np.array([s.start_s for s in scenes]) if scenes else np.zeros(1)
    return np.clip(np.searchsorted(starts, t, side="right") - 1, 0, max(0, len(scenes) - 1))


# The kind under which the damaged stretches (decoder errors) are explained for everyone.
DAMAGE = "damage"


@dataclass
class Context:
    """Everything a detector reads: the signals, the shots, and what earlier ones explained.

    `frame_scenes` and `sample_scenes` are the scene index of every frame and every sample;
    `explained` maps a kind (a detector's type, or "temporal" for the tone swings of flicker)
    to the samples it covers.
    """

    frames: dict[str, np.ndarray]
    samples: dict[str, np.ndarray]
    scenes: list[Scene]
    fps: float
    detectors: tuple[Detector, ...] = ()
    frame_scenes: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    sample_scenes: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    explained: dict[str, np.ndarray] = field(default_factory=dict)

    @classmethod
    def build(cls, frames: dict[str, np.ndarray], samples: dict[str, np.ndarray],
              scenes: list[Scene], fps: float, detectors: tuple[Detector, ...] = ()) -> Context:
        """A context with the scene ids of frames and samples filled in."""
        ft = frames.get("t", np.zeros(0))
        st = samples.get("t", np.zeros(0))
        return cls(frames, samples, scenes, fps, tuple(detectors),
                   scene_ids(ft, scenes) if len(ft) else np.zeros(0, dtype=np.int64),
                   scene_ids(st, scenes))

    @property
    def has_frames(self) -> bool:
        """Whether per-frame signals were measured (temporal detectors need them)."""
        return bool(len(self.frames.get("t", [])))

    @property
    def sample_times(self) -> np.ndarray:
        """The times of the spatial samples (empty when none)."""
        return self.samples.get("t", np.zeros(0))

    def explaining(self, kinds: tuple[str, ...]) -> np.ndarray:
        """The samples any of these kinds has explained so far (and always the damaged
        stretches: a smeared or grey picture is no detector's reference or evidence)."""
        mask = np.zeros(len(self.sample_times), dtype=bool)
        for kind in (DAMAGE, *kinds):
            if kind in self.explained:
                mask |= self.explained[kind]
        return mask

    def explain(self, kind: str, mask: np.ndarray) -> None:
        """Mark samples as explained by `kind` (for the detectors that run after)."""
        if kind in self.explained:
            self.explained[kind] = self.explained[kind] | mask
        else:
            self.explained[kind] = mask.copy()

    def explainers(self, kind: str) -> tuple[str, ...]:
        """The kinds that explain a type's deviations away (its detector's `explained_by`)."""
        for d in self.detectors:
            if kind in d.types:
                return d.explained_by
        return ()

    def specs(self) -> tuple[SpatialSpec, ...]:
        """Every registered spatial spec, in order of evaluation (with the specs a detector
        judges over the whole video only: `whole_specs`)."""
        return tuple(s for d in self.detectors
                     for s in (*getattr(d, "specs", ()), *getattr(d, "whole_specs", ())))


class Detector(ABC):
    """One kind of degradation, found in an index's signals.

    `name` names it, `types` are the event types it may return, `explained_by` the kinds
    whose stretches (marked in Context.explained by detectors that ran before) it ignores.
    """

    name: str = ""
    types: tuple[str, ...] = ()
    explained_by: tuple[str, ...] = ()

    @abstractmethod
    def detect(self, ctx: Context) -> list[Event]:
        """The raw events of this detector (before the cross-detector revisions)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"
