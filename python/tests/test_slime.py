"""The slime adapter against a stand-in with slime's Sample type and its data-source calls."""

import json
import os
import sys
import tempfile
import textwrap
import types
import unittest

from helpers import COMMAND, TINY, reward

from envsched import Scheduler

SAMPLE = """
    from dataclasses import dataclass, field

    @dataclass
    class Sample:
        prompt: str = ""
        label: object = None
        metadata: dict = field(default_factory=dict)
        group_index: int = 0
        index: int = 0
        reward: object = None
"""


class SlimeDataSourceTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        os.makedirs(os.path.join(self.dir, "slime", "utils"))
        for path, text in {"slime/__init__.py": "", "slime/utils/__init__.py": "", "slime/utils/types.py": SAMPLE}.items():
            with open(os.path.join(self.dir, path), "w") as f:
                f.write(textwrap.dedent(text))
        sys.path.insert(0, self.dir)
        with open(TINY.replace(".graph.bin", ".graph.json")) as f:
            ids = [t["id"] for t in json.load(f)["tasks"]]
        self.prompts = os.path.join(self.dir, "prompts.jsonl")
        with open(self.prompts, "w") as f:
            for t in ids:
                f.write(json.dumps({"task_id": t, "prompt": f"solve {t}", "label": t.upper()}) + "\n")

    def tearDown(self):
        sys.path.remove(self.dir)

    def test_groups_from_the_batch_and_rewards_back(self):
        from envsched.slime import EnvSchedDataSource, observe_samples

        args = types.SimpleNamespace(prompt_data=self.prompts, n_samples_per_prompt=4, input_key="prompt", label_key="label", metadata_key="metadata")
        with Scheduler(TINY, config={"B": 5}, command=COMMAND) as sched:
            source = EnvSchedDataSource(args, scheduler=sched)
            for rollout in range(3):
                groups = source.get_samples(5)
                tasks = [g[0].metadata["envsched_task"] for g in groups]
                self.assertEqual(tasks, [p["task"] for p in sched.last["batch"]])
                self.assertTrue(all(len(g) == 4 and g[0].prompt == f"solve {g[0].metadata['envsched_task']}" for g in groups))
                for g in groups:
                    for k, sample in enumerate(g):
                        sample.reward = reward(rollout, sample.metadata["envsched_task"], k)
                observe_samples(args, groups, source)
            history = sched.history()
            self.assertEqual(len(history), 15)
            self.assertEqual(history[-1]["rewards"], [reward(2, history[-1]["task"], k) for k in range(4)])
            more = source.get_samples(7)  # more prompts than B: the ranked extras fill them
            self.assertEqual(len(more), 7)


if __name__ == "__main__":
    unittest.main()
