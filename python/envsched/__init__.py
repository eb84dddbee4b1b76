"""EnvSched from Python: a client of ``envsched serve`` (standard library only, Python 3.10+).

>>> from envsched import Scheduler
>>> with Scheduler("pool.graph.bin", log="run.jsonl") as sched:
...     tasks = sched.next(0)                      # the batch's task ids, in batch order
...     sched.observe(0, {t: [0.0, 1.0] for t in tasks})

Adapters for trainers import their framework only when used: ``envsched.verl`` (a curriculum
sampler) and ``envsched.slime`` (a data source).
"""

from .client import EnvSchedError, Scheduler, default_command

__all__ = ["EnvSchedError", "Scheduler", "default_command"]
__version__ = "0.1.0"
