"""Running a benchmark: item answering on each track, grading, results files, and execution
(serial, worker processes, Ray), one concern per module.

- ``config``: RunConfig, how items are answered.
- ``tracks``: the tracks' shared vocabulary (Prediction, names, frame budget).
- ``uniform_track``, ``samples``, ``uniform_rules``: single-pass uniform sampling.
- ``agent_track``: the LangGraph agent.
- ``video``: one video's items answered in order (what every executor runs).
- ``grading``: one item's record graded against its gold answer.
- ``results``, ``summary``: the per-item JSONL and the run summary.
- ``execute``: the run (pending items, resume); ``parallel`` and ``ray_jobs`` place its jobs.
- ``indexes``: build every video's index ahead of a run.
"""
