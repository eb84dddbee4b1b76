"""EnvSched as a slime data source (docs/training-loop.md).

slime builds the class named by ``--data-source-path envsched.slime.EnvSchedDataSource`` with its
``args``; ``get_samples(n)`` returns n prompt groups. Rewards reach the scheduler through
``--rollout-all-samples-process-path envsched.slime.observe_samples`` (slime calls it with every
generated group and the data source). Settings come from the environment: ``ENVSCHED_GRAPH``,
``ENVSCHED_CONFIG``, ``ENVSCHED_LOG``, ``ENVSCHED_URL``, ``ENVSCHED_TASK_KEY`` (the prompt file's
field holding the task id, default ``task_id``). Prompts are read from ``args.prompt_data`` (JSONL).
slime is imported only when a sample is made.
"""

from __future__ import annotations

import copy
import json
import os
from typing import Any, Optional

from .client import Scheduler


class EnvSchedDataSource:
    """A slime ``DataSource``: EnvSched chooses which prompts each rollout gets."""

    def __init__(self, args: Any, scheduler: Optional[Scheduler] = None):
        self.args = args
        self.task_key = os.environ.get("ENVSCHED_TASK_KEY", "task_id")
        self.rows: dict[str, dict] = {}
        with open(args.prompt_data, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    row = json.loads(line)
                    self.rows.setdefault(str(row[self.task_key]), row)
        self.scheduler = scheduler or Scheduler(
            os.environ.get("ENVSCHED_GRAPH"), config=os.environ.get("ENVSCHED_CONFIG"), log=os.environ.get("ENVSCHED_LOG"), url=os.environ.get("ENVSCHED_URL")
        )
        self.rollout_id = self.scheduler.snapshot()["lastStep"] + 1
        self.sample_index = 0

    def _sample(self, task: str) -> Any:
        from slime.utils.types import Sample

        row = self.rows[task]
        metadata = dict(row.get(getattr(self.args, "metadata_key", "metadata")) or {})
        metadata["envsched_task"] = task
        return Sample(prompt=row[getattr(self.args, "input_key", "prompt")], label=row.get(getattr(self.args, "label_key", "label")), metadata=metadata)

    def get_samples(self, num_samples: int) -> list[list[Any]]:
        tasks = self.scheduler.next(self.rollout_id, extras=max(0, num_samples - self.scheduler.config()["B"]))
        tasks += [p["task"] for p in (self.scheduler.last or {}).get("extras", [])]
        groups = []
        for g, task in enumerate(tasks[:num_samples]):
            prototype = self._sample(task)
            group = []
            for _ in range(self.args.n_samples_per_prompt):
                sample = copy.deepcopy(prototype)
                sample.group_index = g
                sample.index = self.sample_index
                self.sample_index += 1
                group.append(sample)
            groups.append(group)
        return groups

    def observe(self, groups: list[list[Any]]) -> dict:
        rewards: dict[str, list[float]] = {}
        for group in groups:
            for sample in group:
                task = sample.metadata["envsched_task"]
                reward = sample.reward if not isinstance(sample.reward, dict) else sample.reward.get("score", 0.0)
                rewards.setdefault(task, []).append(float(reward))
        result = self.scheduler.observe(self.rollout_id, rewards)
        self.rollout_id += 1
        return result

    def add_samples(self, samples: list[list[Any]]) -> None:
        raise RuntimeError("EnvSchedDataSource chooses every prompt itself: it has no buffer to add samples to")

    def save(self, rollout_id: int) -> None:
        """Nothing to write: the server's log is the state (restart it with the same log to resume)."""

    def load(self, rollout_id: Optional[int] = None) -> None:
        self.rollout_id = self.scheduler.snapshot()["lastStep"] + 1

    def __len__(self) -> int:
        return len(self.rows)


def observe_samples(args: Any, all_samples: list[list[Any]], data_source: EnvSchedDataSource) -> None:
    """slime's ``--rollout-all-samples-process-path`` hook: hands the rollout's rewards to EnvSched."""
    data_source.observe(all_samples)
