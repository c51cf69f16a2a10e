"""jupyter console (the terminal front end) driving gocl through a pty.

A user types a cell, sees its output, and leaves with `exit` or `quit`:
gocl answers those as ipykernel does, with the ask_exit payload, and the
console closes (it shuts the kernel down) instead of showing an error. The
session is repeated, since a hang seen once in 35 runs is what this guards.
"""
import os
import time
import unittest

import pexpect

import clientenv

clientenv.setup()

RUNS = int(os.environ.get("GOCL_CONSOLE_RUNS", "6"))


class ConsoleTest(unittest.TestCase):
    def session(self, i, leave):
        env = dict(os.environ, TERM="dumb", PYTHONUNBUFFERED="1")
        child = pexpect.spawn(clientenv.tool("jupyter"), ["console", "--kernel", "gocl", "--simple-prompt"],
                              env=env, encoding="utf-8", timeout=60, dimensions=(40, 200))
        try:
            child.expect(r"In \[1\]: ")
            child.sendline(f'fmt.Println("run", {i}*2)')
            child.expect(f"run {i * 2}")
            child.expect(r"In \[2\]: ")
            child.sendline(leave)
            start = time.monotonic()
            child.expect(pexpect.EOF, timeout=30)
            self.assertNotIn("CompileError", child.before)
            child.close()
            self.assertEqual(child.exitstatus, 0, f"run {i}: jupyter console exited with {child.exitstatus}")
            return time.monotonic() - start
        except pexpect.TIMEOUT:
            self.fail(f"run {i} ({leave!r}): jupyter console did not close (or hung); its screen:\n{child.before}")
        finally:
            if child.isalive():
                child.terminate(force=True)

    def test_exit_and_quit_close_the_console(self):
        for i in range(RUNS):
            self.session(i, ["exit", "quit", "exit()", "quit()"][i % 4])


if __name__ == "__main__":
    unittest.main()
