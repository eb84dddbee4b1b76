import os
import re
import subprocess
import sys
import unittest

from helpers import COMMAND, RL, ROOT

sys.path.insert(0, os.path.join(ROOT, "examples"))
import training_loop  # noqa: E402


class ExampleTest(unittest.TestCase):
    def test_the_loop_through_the_server_is_the_simulated_run(self):
        fingerprint = training_loop.run(RL, seed=7, steps=50, quiet=True)
        cli = subprocess.run(COMMAND + ["simulate", "--dataset", RL, "--seed", "7", "--steps", "50"], capture_output=True, text=True, check=True)
        expected = re.search(r"fingerprint ([0-9a-f]{16})", cli.stdout).group(1)
        self.assertEqual(fingerprint, expected)


if __name__ == "__main__":
    unittest.main()
