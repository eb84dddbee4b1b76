"""The full training loop against the project's rollout simulator, trainer-free.

Each step asks ``envsched serve`` for a batch, rolls it out in the simulator (the server's
``simulate`` operation stands in for a trainer's rollouts and rewards), and observes the rewards
back. After 50 steps the simulator's fingerprint equals ``envsched simulate`` with the same
configuration and seed: the loop through the server is the same run.

    python3 examples/training_loop.py [--graph datasets/envscaler-rl/envscaler-rl.graph.bin] [--seed 7] [--steps 50]
"""

from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

from envsched import Scheduler  # noqa: E402

DEFAULT_GRAPH = os.path.join(HERE, "..", "datasets", "envscaler-rl", "envscaler-rl.graph.bin")


def run(graph: str = DEFAULT_GRAPH, seed: int = 7, steps: int = 50, log: str | None = None, quiet: bool = False) -> str:
    """Runs the loop; returns the simulator's fingerprint."""
    fingerprint = ""
    with Scheduler(graph, config={"seed": seed, "T": steps}, log=log) as sched:
        for step in range(steps):
            tasks = sched.next(step)
            rolled = sched.simulate(step, tasks)
            rewards = {g["task"]: g["rewards"] for g in rolled["groups"]}
            flags = {g["task"]: g["flags"] for g in rolled["groups"] if "flags" in g}
            sched.observe(step, rewards, flags=flags)
            fingerprint = rolled["fingerprint"]
            if not quiet and (step % 10 == 9 or step == steps - 1):
                m = sched.metrics
                print(
                    f"step {step:3d}: {m['envsched/batch/environments']:2d} environments, "
                    f"mean reward {m['envsched/observed/mean_reward']:.3f}, "
                    f"mean group variance {m['envsched/observed/mean_variance']:.4f}"
                )
    if not quiet:
        print(f"fingerprint {fingerprint}")
    return fingerprint


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--graph", default=DEFAULT_GRAPH)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--log")
    a = parser.parse_args()
    run(a.graph, a.seed, a.steps, a.log)
