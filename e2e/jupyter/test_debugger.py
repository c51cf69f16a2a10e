"""JupyterLab's debugger for Go cells, driven by Debian's jupyter_client.

The flow is the one ipykernel's own debugger tests follow, and the one
JupyterLab's debugger panel sends: initialize, attach, debugInfo, dumpCell,
setBreakpoints, configurationDone, execute, the stopped event, stackTrace,
scopes, variables, next, continue, inspectVariables, richInspectVariables,
disconnect; and the "panics" exception filter (setExceptionBreakpoints,
the stop with reason "exception" where the panic was raised,
exceptionInfo). Where /opt/gocl/venv has ipykernel and debugpy, the same flow
runs against ipykernel too, and the shapes of the two kernels' answers are
compared rather than guessed.
"""
import json
import os
import signal
import unittest

import goclenv

share = goclenv.setup()
from jupyter_client.manager import KernelManager  # noqa: E402  (after JUPYTER_PATH is set)

TIMEOUT = int(os.environ.get("GOCL_DEBUG_TIMEOUT", "60"))
VENV_PYTHON = "/opt/gocl/venv/bin/python"


def murmur2(text, seed):
    """MurmurHash2, 32 bits, of text's UTF-8 bytes: JupyterLab's hash of a cell."""
    data = text.encode("utf-8")
    m, mask = 0x5BD1E995, 0xFFFFFFFF
    h = (seed ^ len(data)) & mask
    whole = len(data) - len(data) % 4
    for i in range(0, whole, 4):
        k = int.from_bytes(data[i:i + 4], "little")
        k = (k * m) & mask
        k ^= k >> 24
        k = (k * m) & mask
        h = ((h * m) & mask) ^ k
    tail = data[whole:]
    if tail:
        h ^= int.from_bytes(tail, "little")
        h = (h * m) & mask
    h ^= h >> 13
    h = (h * m) & mask
    h ^= h >> 15
    return h


def ipykernel_spec():
    """A kernelspec for the venv's ipykernel, or None when it has none."""
    if not os.path.exists(VENV_PYTHON):
        return None
    import subprocess
    if subprocess.run([VENV_PYTHON, "-c", "import ipykernel, debugpy"], capture_output=True).returncode != 0:
        return None
    d = os.path.join(share, "kernels", "ipyref")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "kernel.json"), "w") as f:
        json.dump({"argv": [VENV_PYTHON, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                   "display_name": "ipykernel (reference)", "language": "python"}, f)
    return "ipyref"


class Session:
    """One kernel and a debug client, as JupyterLab's debugger drives it."""

    def __init__(self, kernel_name):
        self.km = KernelManager(kernel_name=kernel_name)
        self.km.start_kernel()
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=TIMEOUT)
        self.seq = 0

    def close(self):
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)

    def request(self, command, arguments=None):
        self.seq += 1
        msg = self.kc.session.msg("debug_request", {
            "type": "request", "seq": self.seq, "command": command, "arguments": arguments or {}})
        self.kc.control_channel.send(msg)
        while True:
            reply = self.kc.get_control_msg(timeout=TIMEOUT)
            if reply["parent_header"].get("msg_id") == msg["header"]["msg_id"]:
                assert reply["msg_type"] == "debug_reply", reply["msg_type"]
                return reply["content"]

    def ok(self, command, arguments=None):
        reply = self.request(command, arguments)
        assert reply.get("success"), f"{command}: {reply}"
        return reply.get("body", {})

    def event(self, name):
        while True:
            msg = self.kc.get_iopub_msg(timeout=TIMEOUT)
            if msg["msg_type"] == "debug_event" and msg["content"].get("event") == name:
                return msg["content"].get("body", {})

    def execute_reply(self, msg_id):
        while True:
            reply = self.kc.get_shell_msg(timeout=TIMEOUT)
            if reply["parent_header"].get("msg_id") == msg_id:
                return reply["content"]

    def run(self, code):
        msg_id = self.kc.execute(code)
        reply = self.execute_reply(msg_id)
        assert reply["status"] == "ok", reply
        return reply

    def top(self, thread):
        frames = self.ok("stackTrace", {"threadId": thread})["stackFrames"]
        return frames[0], frames

    def scope_vars(self, frame_id, scope):
        scopes = self.ok("scopes", {"frameId": frame_id})["scopes"]
        ref = next(s for s in scopes if s["name"] == scope)["variablesReference"]
        return {v["name"]: v for v in self.ok("variables", {"variablesReference": ref})["variables"]}


# The same program in both languages: a function in one cell, called by the
# next, whose line 2 has the breakpoint.
GO = {
    "decl": "func add(a, b int) int {\n\tc := a + b\n\treturn c\n}",
    "cell": "x := 2\ny := add(x, 3)\nz := y * 10\nfmt.Println(x, y, z)",
    "out": "2 5 50\n",
}
PY = {
    "decl": "def add(a, b):\n    c = a + b\n    return c\n",
    "cell": "x = 2\ny = add(x, 3)\nz = y * 10\nprint(x, y, z)",
    "out": "2 5 50\n",
}


def flow(test, s, prog):
    """ipykernel's debugger-test flow; returns what the shapes are compared on."""
    shapes = {}
    s.ok("initialize", {"clientID": "test-client", "clientName": "testClient", "adapterID": "",
                        "pathFormat": "path", "linesStartAt1": True, "columnsStartAt1": True,
                        "supportsVariableType": True, "supportsVariablePaging": True,
                        "supportsRunInTerminalRequest": True, "locale": "en"})
    s.ok("attach")
    info = s.ok("debugInfo")
    shapes["debugInfo"] = set(info)
    test.assertTrue(info["isStarted"])
    test.assertEqual(info["hashMethod"], "Murmur2")
    s.run(prog["decl"])
    path = s.ok("dumpCell", {"code": prog["cell"]})["sourcePath"]
    want = info["tmpFilePrefix"] + str(murmur2(prog["cell"], info["hashSeed"])) + info["tmpFileSuffix"]
    test.assertEqual(path, want, "the path JupyterLab computes from debugInfo")
    with open(path) as f:
        test.assertEqual(f.read(), prog["cell"])
    bps = s.ok("setBreakpoints", {"breakpoints": [{"line": 2}], "source": {"path": path},
                                  "sourceModified": False})["breakpoints"]
    test.assertEqual(len(bps), 1)
    test.assertTrue(bps[0]["verified"])
    test.assertEqual(bps[0]["line"], 2)
    info = s.ok("debugInfo")
    test.assertIn(path, [b["source"] for b in info["breakpoints"]])
    s.ok("configurationDone")

    msg_id = s.kc.execute(prog["cell"])
    stopped = s.event("stopped")
    test.assertEqual(stopped["reason"], "breakpoint")
    thread = stopped["threadId"]
    top, _ = s.top(thread)
    shapes["frame"] = set(top)
    test.assertEqual(top["line"], 2)
    test.assertEqual(top["source"]["path"], path)
    scopes = s.ok("scopes", {"frameId": top["id"]})["scopes"]
    test.assertIn("Locals", [sc["name"] for sc in scopes])
    glob = s.scope_vars(top["id"], "Globals")
    test.assertEqual(glob["x"]["value"], "2")
    shapes["variable"] = set(glob["x"])

    s.ok("next", {"threadId": thread})
    test.assertEqual(s.event("stopped")["reason"], "step")
    top, _ = s.top(thread)
    test.assertEqual(top["line"], 3)
    test.assertEqual(s.scope_vars(top["id"], "Globals")["y"]["value"], "5")

    s.ok("continue", {"threadId": thread})
    # ipykernel forgets the stopped thread (and then inspects variables in
    # the shell, not the frame) when this event comes.
    s.event("continued")
    reply = s.execute_reply(msg_id)
    test.assertEqual(reply["status"], "ok")

    names = [v["name"] for v in s.ok("inspectVariables")["variables"]]
    for n in ("x", "y", "z"):
        test.assertIn(n, names)
    rich = s.ok("richInspectVariables", {"variableName": "z"})
    test.assertIn("50", rich["data"]["text/plain"])
    s.ok("disconnect", {"restart": False, "terminateDebuggee": True})
    return shapes


class DebuggerTest(unittest.TestCase):
    def setUp(self):
        self.s = Session("gocl")

    def tearDown(self):
        self.s.close()

    def test_kernel_info_offers_the_debugger(self):
        self.s.kc.kernel_info()
        reply = self.s.kc.get_shell_msg(timeout=TIMEOUT)["content"]
        self.assertTrue(reply["debugger"])
        self.assertIn("debugger", reply["supported_features"])
        # JupyterLab enables its debugger only for a kernelspec whose metadata says so.
        with open(os.path.join(share, "kernels", "gocl", "kernel.json")) as f:
            self.assertTrue(json.load(f)["metadata"]["debugger"])

    def test_flow_matches_ipykernel(self):
        go = flow(self, self.s, GO)
        spec = ipykernel_spec()
        if spec is None:
            self.skipTest("no ipykernel with debugpy in /opt/gocl/venv: shapes not compared")
        ref = Session(spec)
        try:
            py = flow(self, ref, PY)
        finally:
            ref.close()
        self.assertEqual(go["debugInfo"], py["debugInfo"], "debugInfo's body keys")
        for what in ("frame", "variable"):
            missing = py[what] - go[what] - {"presentationHint", "moduleId", "type", "presentationHint"}
            self.assertFalse(missing, f"a {what} lacks ipykernel's keys {missing}")

    def test_step_into_a_function_of_an_earlier_cell(self):
        s = self.s
        s.ok("initialize", {"clientID": "test"})
        s.ok("attach")
        decl_path = s.ok("dumpCell", {"code": GO["decl"]})["sourcePath"]
        s.run(GO["decl"])
        path = s.ok("dumpCell", {"code": GO["cell"]})["sourcePath"]
        s.ok("setBreakpoints", {"breakpoints": [{"line": 2}], "source": {"path": path}})
        s.ok("configurationDone")
        msg_id = s.kc.execute(GO["cell"])
        thread = s.event("stopped")["threadId"]
        s.ok("stepIn", {"threadId": thread})
        s.event("stopped")
        top, frames = s.top(thread)
        self.assertEqual((top["name"], top["line"], top["source"]["path"]), ("add", 2, decl_path))
        self.assertEqual((frames[1]["line"], frames[1]["source"]["path"]), (2, path))
        local = s.scope_vars(top["id"], "Locals")
        self.assertEqual((local["a"]["value"], local["b"]["value"]), ("2", "3"))
        s.ok("stepOut", {"threadId": thread})
        s.event("stopped")
        s.ok("continue", {"threadId": thread})
        self.assertEqual(s.execute_reply(msg_id)["status"], "ok")

    def test_a_breakpoint_in_an_earlier_cell_hits(self):
        s = self.s
        s.ok("initialize", {"clientID": "test"})
        s.ok("attach")
        decl_path = s.ok("dumpCell", {"code": GO["decl"]})["sourcePath"]
        s.run(GO["decl"])
        s.ok("setBreakpoints", {"breakpoints": [{"line": 3}], "source": {"path": decl_path}})
        msg_id = s.kc.execute(GO["cell"])
        thread = s.event("stopped")["threadId"]
        top, _ = s.top(thread)
        self.assertEqual((top["line"], top["source"]["path"]), (3, decl_path))
        self.assertEqual(s.scope_vars(top["id"], "Locals")["c"]["value"], "5")
        s.ok("continue", {"threadId": thread})
        self.assertEqual(s.execute_reply(msg_id)["status"], "ok")

    def test_structs_slices_and_maps_expand(self):
        s = self.s
        s.ok("initialize", {"clientID": "test"})
        s.ok("attach")
        s.run("type P struct{ Name string; Tags []string }")
        code = "p := P{\"gpu\", []string{\"a\", \"b\"}}\nm := map[string]int{\"k\": 7}\n_ = m\nfmt.Println(p)"
        path = s.ok("dumpCell", {"code": code})["sourcePath"]
        s.ok("setBreakpoints", {"breakpoints": [{"line": 4}], "source": {"path": path}})
        msg_id = s.kc.execute(code)
        thread = s.event("stopped")["threadId"]
        top, _ = s.top(thread)
        glob = s.scope_vars(top["id"], "Globals")
        p = {v["name"]: v for v in s.ok("variables", {"variablesReference": glob["p"]["variablesReference"]})["variables"]}
        self.assertEqual(p["Name"]["value"], '"gpu"')
        tags = s.ok("variables", {"variablesReference": p["Tags"]["variablesReference"]})["variables"]
        self.assertEqual([t["value"] for t in tags], ['"a"', '"b"'])
        m = s.ok("variables", {"variablesReference": glob["m"]["variablesReference"]})["variables"]
        self.assertEqual([(e["name"], e["value"]) for e in m], [("[k]", "7")])
        s.ok("continue", {"threadId": thread})
        self.assertEqual(s.execute_reply(msg_id)["status"], "ok")

    def test_a_panic_stops_where_it_was_raised(self):
        s = self.s
        caps = s.ok("initialize", {"clientID": "test"})
        self.assertEqual([f["filter"] for f in caps["exceptionBreakpointFilters"]], ["panics"])
        s.ok("attach")
        bps = s.ok("setExceptionBreakpoints", {"filters": ["panics"]})["breakpoints"]
        self.assertEqual([b["verified"] for b in bps], [True])
        decl = "func at(xs []int, i int) int {\n\tv := xs[i]\n\treturn v\n}"
        decl_path = s.ok("dumpCell", {"code": decl})["sourcePath"]
        s.run(decl)
        code = "xs := []int{1, 2, 3}\ni := len(xs) + 1\nfmt.Println(at(xs, i))"
        path = s.ok("dumpCell", {"code": code})["sourcePath"]
        msg_id = s.kc.execute(code)
        stopped = s.event("stopped")
        self.assertEqual(stopped["reason"], "exception")
        self.assertIn("index out of range [4] with length 3", stopped["text"])
        thread = stopped["threadId"]
        top, frames = s.top(thread)
        self.assertEqual((top["name"], top["line"], top["source"]["path"]), ("at", 2, decl_path))
        self.assertEqual((frames[1]["line"], frames[1]["source"]["path"]), (3, path))
        self.assertEqual(s.scope_vars(top["id"], "Locals")["i"]["value"], "4")
        # evaluate: an expression over the frame's variables (Go's answer:
        # xs is [1 2 3] and i is 4 there), and one that would panic.
        ev = s.ok("evaluate", {"expression": "xs[len(xs)-1]*10 + i", "frameId": top["id"], "context": "repl"})
        self.assertEqual((ev["result"], ev["type"]), ("34", "int"))
        bad = s.request("evaluate", {"expression": "xs[i]", "frameId": top["id"], "context": "repl"})
        self.assertFalse(bad["success"])
        self.assertIn("index out of range [4] with length 3", bad["message"])
        info = s.ok("exceptionInfo", {"threadId": thread})
        self.assertEqual(info["breakMode"], "unhandled")
        self.assertIn("index out of range [4] with length 3", info["description"])
        s.ok("continue", {"threadId": thread})
        reply = s.execute_reply(msg_id)
        self.assertEqual(reply["status"], "error")
        self.assertIn("index out of range [4] with length 3", reply["evalue"])
        # With the filter off again, the same panic ends the cell at once.
        s.ok("setExceptionBreakpoints", {"filters": []})
        msg_id = s.kc.execute(code)
        self.assertEqual(s.execute_reply(msg_id)["status"], "error")
        self.assertEqual(s.ok("debugInfo")["stoppedThreads"], [])

    def test_bad_requests_get_error_responses(self):
        s = self.s
        r = s.request("noSuchCommand")
        self.assertFalse(r["success"])
        self.assertEqual(r["command"], "noSuchCommand")
        r = s.request("setBreakpoints", {"source": {}})
        self.assertFalse(r["success"])
        r = s.request("stackTrace", {"threadId": 1})
        self.assertFalse(r["success"])
        s.ok("initialize", {"clientID": "test"})
        code = "a := 1\n\n// nothing here\nb := a + 1\n_ = b"
        path = s.ok("dumpCell", {"code": code})["sourcePath"]
        bps = s.ok("setBreakpoints", {"breakpoints": [{"line": 2}, {"line": 9}], "source": {"path": path}})["breakpoints"]
        self.assertEqual((bps[0]["verified"], bps[0]["line"]), (True, 4), "a blank line moves to the next statement")
        self.assertFalse(bps[1]["verified"], "no statement at or after line 9")
        s.ok("disconnect")
        self.assertEqual(s.run("fmt.Println(1)")["status"], "ok")

    def test_interrupt_while_stopped(self):
        s = self.s
        s.ok("initialize", {"clientID": "test"})
        s.ok("attach")
        code = "n := 0\nfor i := 0; i < 3; i++ {\n\tn += i\n}\nfmt.Println(n)"
        path = s.ok("dumpCell", {"code": code})["sourcePath"]
        s.ok("setBreakpoints", {"breakpoints": [{"line": 3}], "source": {"path": path}})
        msg_id = s.kc.execute(code)
        s.event("stopped")
        self.s.km.interrupt_kernel()
        reply = s.execute_reply(msg_id)
        self.assertEqual(reply["status"], "error")
        s.event("continued")
        info = s.ok("debugInfo")
        self.assertEqual(info["stoppedThreads"], [])
        s.ok("setBreakpoints", {"breakpoints": [], "source": {"path": path}})
        self.assertEqual(s.run("fmt.Println(2)")["status"], "ok")


    def test_cl_objects_in_the_variables_panel(self):
        s = self.s
        s.ok("initialize", {"clientID": "test"})
        s.ok("attach")
        s.run("ctx := cl.CreateSomeContext()\nq := cl.NewQueue(ctx, cl.Profiling)")
        code = ("xs := make([]float32, 256)\nbuf := cl.NewBufferSize(ctx, cl.ReadWrite, 4*len(xs))\n"
                "ev := cl.EnqueueCopy(q, buf, xs)\nev.Wait()\npin := cl.NewPinnedHost(q, 4096)\n"
                "fmt.Println(buf.Size(), pin.Size())")
        path = s.ok("dumpCell", {"code": code})["sourcePath"]
        s.ok("setBreakpoints", {"breakpoints": [{"line": 6}], "source": {"path": path}})
        msg_id = s.kc.execute(code)
        thread = s.event("stopped")["threadId"]
        top, _ = s.top(thread)
        self.assertEqual(top["line"], 6)
        glob = s.scope_vars(top["id"], "Globals")

        def kids(name):
            ref = glob[name]["variablesReference"]
            self.assertGreater(ref, 0, f"{name} expands")
            return {v["name"]: v["value"] for v in s.ok("variables", {"variablesReference": ref})["variables"]}

        b = kids("buf")
        self.assertEqual(b["size"], "1024 bytes")
        self.assertIn("ReadWrite", b["flags"])
        self.assertTrue(b["device"])
        e = kids("ev")
        self.assertEqual(e["status"], "complete")
        self.assertIn("device time", e)
        self.assertIn("host blocked", e)
        p = kids("pin")
        self.assertEqual((p["size"], p["state"]), ("4096 bytes", "open"))
        rich = s.ok("richInspectVariables", {"variableName": "ev", "frameId": top["id"]})
        self.assertIn("text/html", rich["data"], "an event's card, as the notebook shows it")
        s.ok("continue", {"threadId": thread})
        self.assertEqual(s.execute_reply(msg_id)["status"], "ok")

    def test_pause_a_running_cell(self):
        s = self.s
        s.ok("initialize", {"clientID": "test"})
        s.ok("attach")
        s.ok("configurationDone")
        code = "n := 0\nfor i := 0; i < 2000000000; i++ {\n\tn += i\n}\nfmt.Println(n)"
        msg_id = s.kc.execute(code)
        import time
        time.sleep(1)
        s.ok("pause", {"threadId": 1})
        self.assertEqual(s.event("stopped")["reason"], "pause")
        top, _ = s.top(1)
        self.assertIn(top["line"], (2, 3))
        self.s.km.interrupt_kernel()
        self.assertEqual(s.execute_reply(msg_id)["status"], "error")


    def test_engine_crash_while_stopped(self):
        s = self.s
        s.ok("initialize", {"clientID": "test"})
        s.ok("attach")
        code = "a := 40\nb := a + 2\nfmt.Println(b)"
        path = s.ok("dumpCell", {"code": code})["sourcePath"]
        s.ok("setBreakpoints", {"breakpoints": [{"line": 2}], "source": {"path": path}})
        s.ok("setExceptionBreakpoints", {"filters": ["panics"]})
        msg_id = s.kc.execute(code)
        s.event("stopped")
        engines = engine_pids(s.km.provisioner.pid)
        self.assertEqual(len(engines), 1, engines)
        os.kill(engines[0], signal.SIGKILL)
        reply = s.execute_reply(msg_id)
        self.assertEqual(reply["status"], "error")
        s.event("continued")
        info = s.ok("debugInfo")
        self.assertTrue(info["isStarted"], "the fresh engine's debugger is started again")
        self.assertEqual(info["stoppedThreads"], [])
        self.assertIn(path, [b["source"] for b in info["breakpoints"]])
        msg_id = s.kc.execute(code)
        thread = s.event("stopped")["threadId"]
        self.assertEqual(s.top(thread)[0]["line"], 2)
        s.ok("continue", {"threadId": thread})
        self.assertEqual(s.execute_reply(msg_id)["status"], "ok")
        # The exception filter set before the crash holds in the fresh engine.
        msg_id = s.kc.execute("var m map[string]int\nm[\"k\"] = 1")
        stopped = s.event("stopped")
        self.assertEqual(stopped["reason"], "exception")
        self.assertEqual(s.top(stopped["threadId"])[0]["line"], 2)
        s.ok("continue", {"threadId": stopped["threadId"]})
        self.assertEqual(s.execute_reply(msg_id)["status"], "error")

    def test_restart_while_stopped(self):
        s = self.s
        s.ok("initialize", {"clientID": "test"})
        s.ok("attach")
        code = "a := 40\nb := a + 2\nfmt.Println(b)"
        path = s.ok("dumpCell", {"code": code})["sourcePath"]
        s.ok("setBreakpoints", {"breakpoints": [{"line": 2}], "source": {"path": path}})
        s.kc.execute(code)
        s.event("stopped")
        s.km.restart_kernel(now=False)
        s.kc.wait_for_ready(timeout=TIMEOUT)
        # A fresh kernel, as after ipykernel's restart: JupyterLab asks
        # debugInfo and starts the debugger again itself.
        info = s.ok("debugInfo")
        self.assertFalse(info["isStarted"])
        self.assertEqual(info["stoppedThreads"], [])
        self.assertEqual(s.run("fmt.Println(1)")["status"], "ok")


def engine_pids(kernel_pid):
    """The live `gocl engine` processes whose parent is kernel_pid."""
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{d}/cmdline", "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        if fields[0] != "Z" and fields[1] == str(kernel_pid) and b"engine" in cmd:
            out.append(int(d))
    return out


if __name__ == "__main__":
    unittest.main()
