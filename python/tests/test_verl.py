"""The verl adapter against a stand-in with verl's sampler interface: the abstract classes of
verl.experimental.dataset.sampler and a DataProto carrying what verl's trainer hands update()
(non_tensor_batch["uid"], batch["token_level_scores"])."""

import importlib
import json
import os
import sys
import tempfile
import textwrap
import unittest
import uuid

from helpers import TINY, reward

STAND_IN = {
    "verl/__init__.py": """
        class DataProto:
            def __init__(self, batch, non_tensor_batch):
                self.batch = batch
                self.non_tensor_batch = non_tensor_batch
    """,
    "verl/experimental/__init__.py": "",
    "verl/experimental/dataset/__init__.py": "",
    "verl/experimental/dataset/sampler.py": """
        from abc import ABC, abstractmethod

        class AbstractSampler(ABC):
            @abstractmethod
            def __init__(self, data_source, data_config):
                pass

        class AbstractCurriculumSampler(AbstractSampler):
            @abstractmethod
            def update(self, batch) -> None:
                pass
    """,
}


class Scores:
    """Token-level scores [responses][tokens] with the two tensor methods the adapter uses."""

    def __init__(self, rows):
        self.rows = rows

    def sum(self, dim):
        assert dim == -1
        return Scores([sum(r) for r in self.rows])

    def tolist(self):
        return self.rows


def setUpModule():
    global stand_in, DataProto, AbstractCurriculumSampler
    stand_in = tempfile.mkdtemp(prefix="verl-stand-in-")
    for path, text in STAND_IN.items():
        os.makedirs(os.path.dirname(os.path.join(stand_in, path)), exist_ok=True)
        with open(os.path.join(stand_in, path), "w") as f:
            f.write(textwrap.dedent(text))
    sys.path.insert(0, stand_in)
    from verl import DataProto  # noqa: F401
    from verl.experimental.dataset.sampler import AbstractCurriculumSampler  # noqa: F401


def tasks_of_graph():
    with open(TINY.replace(".graph.bin", ".graph.json")) as f:
        return [t["id"] for t in json.load(f)["tasks"]]


def trainer_steps(sampler, dataset, steps, n=4):
    """What verl's fit loop does: draw a batch of indices, roll out n responses per prompt, update()."""
    drawn = []
    it = iter(sampler)
    for _ in range(steps):
        indices = [next(it) for _ in range(sampler.batch_size)]
        step = sampler.step
        uids, tasks, rows = [], [], []
        for i in indices:
            uid = str(uuid.uuid4())
            task = dataset[i]["extra_info"]["task_id"]
            for k in range(n):
                uids.append(uid)
                tasks.append({"task_id": task})
                r = reward(step, task, k)
                rows.append([0.0, 0.0, r])  # verl puts the score on the last response token
        sampler.update(DataProto(batch={"token_level_scores": Scores(rows)}, non_tensor_batch={"uid": uids, "extra_info": tasks}))
        drawn.append([dataset[i]["extra_info"]["task_id"] for i in indices])
    return drawn


class VerlSamplerTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.config = os.path.join(self.dir, "c.json")
        with open(self.config, "w") as f:
            json.dump({"B": 6}, f)
        # the dataset in another order than the graph, as a parquet file would be
        self.dataset = [{"prompt": f"solve {t}", "extra_info": {"task_id": t}} for t in reversed(tasks_of_graph())]

    def data_config(self, log, batch=6):
        return {"train_batch_size": batch, "dataloader_num_workers": 0, "sampler": {"graph": TINY, "config": self.config, "log": log}}

    def test_batches_rewards_and_resume(self):
        from envsched.verl import EnvSchedSampler

        self.assertTrue(issubclass(EnvSchedSampler, AbstractCurriculumSampler))
        log = os.path.join(self.dir, "run.jsonl")
        sampler = EnvSchedSampler(self.dataset, self.data_config(log))
        self.assertEqual(len(sampler), (len(self.dataset) // 6) * 6)
        drawn = trainer_steps(sampler, self.dataset, 4)
        history = sampler.scheduler.history()
        for step, tasks in enumerate(drawn):
            groups = [h for h in history if h["step"] == step]
            # every prompt's n responses formed one group, rewards = summed token-level scores
            self.assertEqual(sorted(g["task"] for g in groups), sorted(tasks))
            for g in groups:
                self.assertEqual(g["rewards"], [reward(step, g["task"], k) for k in range(4)])
        self.assertIn("envsched/observed/mean_reward", sampler.metrics)
        state = sampler.state_dict()
        self.assertEqual(state["step"], 4)
        sampler.scheduler.close()

        # a fresh process on the same log resumes: the same batch as an uninterrupted sampler
        resumed = EnvSchedSampler(self.dataset, self.data_config(log))
        resumed.load_state_dict(state)
        after = trainer_steps(resumed, self.dataset, 2)
        resumed.scheduler.close()

        straight = EnvSchedSampler(self.dataset, self.data_config(os.path.join(self.dir, "straight.jsonl")))
        self.assertEqual(trainer_steps(straight, self.dataset, 6), drawn + after)
        with self.assertRaises(RuntimeError):
            straight.load_state_dict(state)  # its history is six steps long, not four
        straight.scheduler.close()

    def test_oversampling_fills_a_larger_batch_with_ranked_extras(self):
        from envsched.verl import EnvSchedSampler

        sampler = EnvSchedSampler(self.dataset, self.data_config(os.path.join(self.dir, "over.jsonl"), batch=9))
        drawn = trainer_steps(sampler, self.dataset, 3)
        self.assertEqual([len(d) for d in drawn], [9, 9, 9])
        self.assertTrue(all(len(set(d)) == 9 for d in drawn))
        # the first B of each step are EnvSched's batch, the rest its ranked extras
        self.assertEqual(sampler.scheduler.next(2, extras=3), drawn[2][:6])
        self.assertEqual([p["task"] for p in sampler.scheduler.last["extras"]], drawn[2][6:])
        sampler.scheduler.close()

    def test_import_envsched_does_not_import_verl(self):
        sys.modules.pop("envsched.verl", None)
        import envsched

        importlib.reload(envsched)
        self.assertNotIn("envsched.verl", sys.modules)


if __name__ == "__main__":
    unittest.main()
