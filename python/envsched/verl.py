"""EnvSched as a verl curriculum sampler (docs/training-loop.md).

verl builds the sampler named by ``data.sampler.class_path`` / ``data.sampler.class_name`` with
``(data_source=dataset, data_config=data_config)``, draws dataset indices from it, and after each
training step calls ``update(batch)`` with the step's ``DataProto``. This module imports verl when
it is imported, never before (``import envsched`` does not need verl).

Settings, under ``data.sampler`` (``+data.sampler.graph=...`` on the command line):
``graph`` (required unless ``url``), ``config`` (a JSON file), ``log``, ``url``,
``task_key`` (the dataset field holding the task id, default ``task_id``; looked up in the row and
in its ``extra_info``), ``steps_per_epoch`` (default: ``len(dataset) // batch size``). Each step
yields exactly one dataloader batch (``data.gen_batch_size`` when set, for dynamic filtering, else
``data.train_batch_size``): EnvSched's B tasks, then its ranked extras when the batch is larger
than B (oversampling).
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping, Optional

from verl.experimental.dataset.sampler import AbstractCurriculumSampler

from .client import Scheduler


def _get(config: Any, key: str, default: Any = None) -> Any:
    if config is None:
        return default
    if isinstance(config, Mapping):
        return config.get(key, default)
    getter = getattr(config, "get", None)
    return getter(key, default) if callable(getter) else getattr(config, key, default)


def _row_task(row: Any, key: str) -> Optional[str]:
    if isinstance(row, Mapping):
        if key in row:
            return str(row[key])
        extra = row.get("extra_info")
        if isinstance(extra, Mapping) and key in extra:
            return str(extra[key])
    return None


def _dataset_task_ids(dataset: Any, key: str) -> list[Optional[str]]:
    """The task id of every dataset row: from a dataframe column when there is one, else per row."""
    frame = getattr(dataset, "dataframe", None)
    if frame is not None:
        try:
            return [_row_task(frame[i], key) for i in range(len(frame))]
        except (TypeError, KeyError, IndexError):
            pass
    return [_row_task(dataset[i], key) for i in range(len(dataset))]


class EnvSchedSampler(AbstractCurriculumSampler):
    """Yields the dataset indices of EnvSched's batch for each step; learns from ``update(batch)``."""

    def __init__(self, data_source: Any, data_config: Any, scheduler: Optional[Scheduler] = None):
        settings = _get(data_config, "sampler", {}) or {}
        self.task_key = str(_get(settings, "task_key", "task_id"))
        ids = _dataset_task_ids(data_source, self.task_key)
        self.index_of: dict[str, int] = {}
        for i, task in enumerate(ids):
            if task is not None and task not in self.index_of:
                self.index_of[task] = i
        if not self.index_of:
            raise ValueError(f"EnvSchedSampler: no dataset row has a {self.task_key!r} field (set data.sampler.task_key)")
        self.scheduler = scheduler or Scheduler(
            _get(settings, "graph"), config=_get(settings, "config"), log=_get(settings, "log"), url=_get(settings, "url")
        )
        B = int(self.scheduler.config()["B"])
        batch = int(_get(data_config, "gen_batch_size", 0) or _get(data_config, "train_batch_size", 0) or B)
        if batch < B:
            raise ValueError(f"EnvSchedSampler: the dataloader batch ({batch}) is smaller than the configuration's B ({B}): set B to it")
        self.batch_size = batch
        self.extras = batch - B
        self.steps_per_epoch = int(_get(settings, "steps_per_epoch", 0) or max(1, len(ids) // max(1, batch)))
        self.step = self.scheduler.snapshot()["lastStep"] + 1
        self.metrics: dict = {}

    def __len__(self) -> int:
        return self.steps_per_epoch * self.batch_size

    def __iter__(self) -> Iterator[int]:
        # Lazily, one step at a time: the batch of step t is asked for only when the dataloader
        # starts drawing it, after update() has observed step t - 1.
        for _ in range(self.steps_per_epoch):
            tasks = self.scheduler.next(self.step, extras=self.extras)
            last = self.scheduler.last or {}
            tasks += [p["task"] for p in last.get("extras", [])]
            if len(tasks) < self.batch_size:
                raise RuntimeError(f"EnvSchedSampler: step {self.step} has {len(tasks)} tasks for a batch of {self.batch_size} (the pool is too small)")
            missing = [t for t in tasks if t not in self.index_of]
            if missing:
                raise KeyError(f"EnvSchedSampler: tasks {missing[:3]} of the graph are not in the dataset")
            for task in tasks:
                yield self.index_of[task]

    def update(self, batch: Any) -> None:
        """Observes the step: responses grouped by ``uid``, each response's reward the sum of its token-level scores."""
        non_tensor = batch.non_tensor_batch
        uids = list(non_tensor["uid"])
        scores = batch.batch["token_level_scores"].sum(-1).tolist()
        tasks = self._tasks_of(batch, len(uids))
        rewards: dict[str, list[float]] = {}
        task_of_uid: dict[Any, str] = {}
        for uid, task, score in zip(uids, tasks, scores):
            task_of_uid.setdefault(uid, task)
            rewards.setdefault(task_of_uid[uid], []).append(float(score))
        result = self.scheduler.observe(self.step, rewards)
        self.metrics = {**self.scheduler.metrics, **result.get("metrics", {})}
        self.step += 1

    def _tasks_of(self, batch: Any, n: int) -> list[str]:
        non_tensor = batch.non_tensor_batch
        if self.task_key in non_tensor:
            return [str(t) for t in non_tensor[self.task_key]]
        extra = non_tensor.get("extra_info")
        if extra is not None:
            return [str(e[self.task_key]) for e in extra]
        raise KeyError(f"EnvSchedSampler.update: the batch has no {self.task_key!r} (or extra_info[{self.task_key!r}]) per response")

    def state_dict(self) -> dict:
        snap = self.scheduler.snapshot()
        return {"step": self.step, "history_digest": snap["historyDigest"], "last_step": snap["lastStep"]}

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        """Resumes at the saved step. The server must hold the same history (restart it with the same log)."""
        snap = self.scheduler.snapshot()
        if snap["historyDigest"] != state["history_digest"] or snap["lastStep"] != state["last_step"]:
            raise RuntimeError(
                f"EnvSchedSampler: the server's history (last step {snap['lastStep']}, digest {snap['historyDigest']}) is not the "
                f"checkpoint's (last step {state['last_step']}, digest {state['history_digest']}): restart envsched serve with the run's log"
            )
        self.step = int(state["step"])
