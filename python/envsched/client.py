"""The client: starts ``envsched serve`` as a subprocess (JSON Lines over its stdin/stdout) or talks
to a running server over HTTP. Protocol: docs/serve.md (version 1)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import tempfile
import threading
import urllib.error
import urllib.request
from collections import deque
from typing import Any, Mapping, Optional, Sequence

PROTOCOL_VERSION = 1


class EnvSchedError(Exception):
    """A request the server refused: ``source`` (the request), ``place`` (the field), ``problem``."""

    def __init__(self, source: str, place: str, problem: str):
        super().__init__(f"{source}:{place}: {problem}")
        self.source = source
        self.place = place
        self.problem = problem


def default_command() -> list[str]:
    """How to start the CLI: $ENVSCHED_COMMAND, else ``envsched`` on PATH, else this checkout's bin/envsched.js."""
    env = os.environ.get("ENVSCHED_COMMAND")
    if env:
        return shlex.split(env)
    found = shutil.which("envsched")
    if found:
        return [found]
    here = os.path.dirname(os.path.abspath(__file__))
    local = os.path.normpath(os.path.join(here, "..", "..", "bin", "envsched.js"))
    if os.path.exists(local):
        return [shutil.which("node") or "node", local]
    raise FileNotFoundError("cannot find the envsched command: install the npm package, put envsched on PATH, or set ENVSCHED_COMMAND")


class Scheduler:
    """One scheduler per training job.

    ``graph``: a ``.graph.json`` / ``.graph.bin`` file (ignored with ``url``); ``config``: a JSON
    file or a dict of configuration keys; ``log``: the run log (a restart with the same log
    continues exactly where the run stopped); ``url``: a server already running (``envsched serve
    --listen``) instead of a subprocess.
    """

    def __init__(
        self,
        graph: Optional[str] = None,
        config: Optional[str | Mapping[str, Any]] = None,
        log: Optional[str] = None,
        url: Optional[str] = None,
        command: Optional[Sequence[str]] = None,
        timeout: float = 600.0,
    ):
        self.last: Optional[dict] = None
        self._last_observe: dict = {}
        self._url = url
        self._timeout = timeout
        self._process: Optional[subprocess.Popen] = None
        self._stderr: deque[str] = deque(maxlen=50)
        self._config_file: Optional[str] = None
        self._lock = threading.Lock()
        self._id = 0
        if url is not None:
            return
        if graph is None:
            raise ValueError("Scheduler needs a graph file (or the url of a running server)")
        args = list(command) if command is not None else default_command()
        args += ["serve", "--graph", os.fspath(graph)]
        if isinstance(config, Mapping):
            fd, self._config_file = tempfile.mkstemp(prefix="envsched-config-", suffix=".json")
            with os.fdopen(fd, "w") as f:
                json.dump(dict(config), f)
            args += ["--config", self._config_file]
        elif config is not None:
            args += ["--config", os.fspath(config)]
        if log is not None:
            args += ["--log", os.fspath(log)]
        self._process = subprocess.Popen(
            args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1
        )
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    def _drain_stderr(self) -> None:
        assert self._process is not None and self._process.stderr is not None
        for line in self._process.stderr:
            self._stderr.append(line.rstrip("\n"))

    # ---- transport ----

    def request(self, op: str, **fields: Any) -> Any:
        """Sends one request; returns its result or raises EnvSchedError."""
        with self._lock:
            self._id += 1
            body = {"v": PROTOCOL_VERSION, "id": self._id, "op": op, **{k: v for k, v in fields.items() if v is not None}}
            text = json.dumps(body, allow_nan=False)
            response = self._post(text) if self._url is not None else self._exchange(text)
        if not response.get("ok"):
            error = response.get("error") or {}
            raise EnvSchedError(str(error.get("source", "server")), str(error.get("place", "-")), str(error.get("problem", response)))
        return response.get("result")

    def _exchange(self, text: str) -> dict:
        process = self._process
        if process is None or process.stdin is None or process.stdout is None:
            raise RuntimeError("this scheduler is closed")
        try:
            process.stdin.write(text + "\n")
            process.stdin.flush()
            line = process.stdout.readline()
        except (BrokenPipeError, OSError):
            line = ""
        if not line:
            process.wait(timeout=10)
            raise RuntimeError(f"envsched serve exited (code {process.returncode}): " + " | ".join(self._stderr))
        return json.loads(line)

    def _post(self, text: str) -> dict:
        request = urllib.request.Request(self._url, data=text.encode("utf-8"), method="POST", headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=self._timeout) as reply:
                return json.loads(reply.read().decode("utf-8"))
        except urllib.error.HTTPError as error:  # 400: a structured error in the body
            return json.loads(error.read().decode("utf-8"))

    # ---- operations ----

    def next(self, step: Optional[int] = None, extras: int = 0) -> list[str]:
        """The batch for ``step`` (default: one past the last observed step) as task ids, in batch
        order. The whole answer (indices, phases, q, predicted variance, extras, relaxations,
        metrics) is in ``last``."""
        result = self.request("next", step=step, extras=extras or None)
        self.last = result
        return [pick["task"] for pick in result["batch"]]

    def observe(
        self,
        step: int,
        rewards: Mapping[str, Sequence[float]],
        flags: Optional[Mapping[str, Sequence[bool]]] = None,
        costs: Optional[Mapping[str, float]] = None,
    ) -> dict:
        """Commits the groups of ``step`` (task id -> its K rewards in [0, 1]); flushed to the log
        before this returns."""
        groups = []
        for task, values in rewards.items():
            group: dict[str, Any] = {"task": task, "rewards": [float(r) for r in values]}
            if flags is not None and task in flags:
                group["flags"] = [bool(f) for f in flags[task]]
            if costs is not None and task in costs:
                group["cost"] = float(costs[task])
            groups.append(group)
        result = self.request("observe", step=step, groups=groups)
        self._last_observe = result.get("metrics", {})
        return result

    def scores(self, step: Optional[int] = None, tasks: Optional[Sequence[str]] = None) -> dict:
        return self.request("scores", step=step, tasks=list(tasks) if tasks is not None else None)

    def config(self, **changes: Any) -> dict:
        """The configuration; keyword arguments change keys first (logged)."""
        return self.request("config", set=changes or None)["config"]

    def snapshot(self) -> dict:
        return self.request("snapshot")

    def history(self, since: int = 0) -> list[dict]:
        return self.request("history", **({"from": since} if since else {}))["history"]

    def simulate(self, step: int, tasks: Sequence[str]) -> dict:
        """Simulated rewards for a batch (the project's rollout simulator stands in for a trainer)."""
        return self.request("simulate", step=step, tasks=list(tasks))

    @property
    def metrics(self) -> dict:
        """Metrics of the last next and observe, with ``/``-separated keys (for an experiment tracker)."""
        merged = dict(self.last.get("metrics", {})) if self.last else {}
        merged.update(self._last_observe)
        return merged

    def close(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            try:
                if process.poll() is None and process.stdin is not None:
                    process.stdin.write(json.dumps({"v": PROTOCOL_VERSION, "op": "shutdown"}) + "\n")
                    process.stdin.flush()
                    process.stdin.close()
                process.wait(timeout=30)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                process.kill()
                process.wait()
            for stream in (process.stdout, process.stderr):
                if stream is not None:
                    stream.close()
        if self._config_file is not None:
            try:
                os.unlink(self._config_file)
            except OSError:
                pass
            self._config_file = None

    def __enter__(self) -> "Scheduler":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass
