"""Paths and the CLI for the Python tests (run from the repository, or by test/python.test.ts)."""

import os
import shlex
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
TINY = os.path.join(ROOT, "datasets", "tiny", "tiny.graph.bin")
RL = os.path.join(ROOT, "datasets", "envscaler-rl", "envscaler-rl.graph.bin")
COMMAND = shlex.split(os.environ.get("ENVSCHED_COMMAND") or f"node {os.path.join(ROOT, 'bin', 'envsched.js')}")
os.environ.setdefault("ENVSCHED_COMMAND", " ".join(shlex.quote(c) for c in COMMAND))


def reward(step: int, task: str, k: int) -> float:
    """A fixed reward for rollout k of a task at a step: some groups spread, some all equal."""
    h = 2166136261 ^ step
    for c in task + str(k):
        h = ((h ^ ord(c)) * 16777619) & 0xFFFFFFFF
    return 1.0 if h % 7 == 0 else (h % 5) / 4
