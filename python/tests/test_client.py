import os
import tempfile
import unittest

from helpers import COMMAND, TINY, reward

from envsched import EnvSchedError, Scheduler


class ClientTest(unittest.TestCase):
    def test_next_observe_metrics_and_errors(self):
        with Scheduler(TINY, config={"B": 6}, command=COMMAND) as s:
            tasks = s.next(0)
            self.assertEqual(len(tasks), 6)
            self.assertEqual([p["task"] for p in s.last["batch"]], tasks)
            self.assertEqual(s.last["step"], 0)
            s.observe(0, {t: [reward(0, t, k) for k in range(4)] for t in tasks})
            self.assertEqual(s.metrics["envsched/observed/groups"], 6)
            second = s.next(1, extras=3)
            self.assertEqual(len(second), 6)
            self.assertEqual(len(s.last["extras"]), 3)
            self.assertNotIn(s.last["extras"][0]["task"], second)
            self.assertEqual(s.metrics["envsched/step"], 1)
            with self.assertRaises(EnvSchedError) as caught:
                s.observe(1, {tasks[0]: [0.5, 2.0]})
            self.assertEqual(caught.exception.place, "groups[0].rewards[1]")
            with self.assertRaises(EnvSchedError) as caught:
                s.observe(0, {tasks[0]: [0.5]})
            self.assertEqual(caught.exception.place, "step")
            self.assertEqual(s.snapshot()["lastStep"], 0)
            self.assertEqual(s.config(rho=0.25)["rho"], 0.25)

    def test_restart_with_the_log_continues(self):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "run.jsonl")
            with Scheduler(TINY, config={"B": 5}, log=log, command=COMMAND) as s:
                for step in range(3):
                    tasks = s.next(step)
                    s.observe(step, {t: [reward(step, t, k) for k in range(4)] for t in tasks})
                expected = s.next(3)
                digest = s.snapshot()["historyDigest"]
            with Scheduler(TINY, config={"B": 5}, log=log, command=COMMAND) as s:
                self.assertEqual(s.snapshot()["historyDigest"], digest)
                self.assertEqual(s.next(3), expected)

    def test_http_client(self):
        import subprocess

        server = subprocess.Popen(COMMAND + ["serve", "--graph", TINY, "--listen", "127.0.0.1:0"], stderr=subprocess.PIPE, text=True)
        try:
            url = None
            for line in server.stderr:
                if "listening on " in line:
                    url = line.split("listening on ")[1].strip()
                    break
            self.assertIsNotNone(url)
            client = Scheduler(url=url)
            tasks = client.next(0)
            self.assertTrue(tasks)
            with self.assertRaises(EnvSchedError) as caught:
                client.observe(0, {"no-such-task": [1.0]})
            self.assertEqual(caught.exception.place, "groups[0].task")
            client.request("shutdown")
            self.assertEqual(server.wait(timeout=30), 0)
        finally:
            if server.poll() is None:
                server.kill()
            server.stderr.close()



class PackagingTest(unittest.TestCase):
    def test_pip_installs_it_offline(self):
        import importlib.util
        import subprocess
        import sys

        from helpers import ROOT

        if importlib.util.find_spec("pip") is None:
            self.skipTest("pip is not installed")
        with tempfile.TemporaryDirectory() as target:
            subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--target", target, os.path.join(ROOT, "python")], check=True, capture_output=True)
            probe = subprocess.run([sys.executable, "-c", "import envsched; print(envsched.__file__)"], cwd=target, capture_output=True, text=True, check=True)
            self.assertTrue(probe.stdout.strip().startswith(target))


if __name__ == "__main__":
    unittest.main()
