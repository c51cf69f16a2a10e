"""Issue 3 through Debian's jupyter_client: completion, inspection,
is_complete, history, stdin and the display package, as Notebook and Lab
drive them."""
import atexit
import os
import shutil
import tempfile
import time
import unittest

import goclenv

goclenv.setup()
# The kernelspec prefix is shared with the other test modules that discover
# loads with this one: remove it at exit, not when this module is done.
atexit.register(goclenv.teardown)
from jupyter_client.manager import KernelManager  # noqa: E402  (after JUPYTER_PATH is set)


def start(env=None):
    km = KernelManager(kernel_name="gocl")
    km.start_kernel(env={**os.environ, **(env or {})})
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    return km, kc


def stop(km, kc):
    kc.stop_channels()
    km.shutdown_kernel(now=False)


def cursor_at(code):
    """Removes the "|" from code; returns it and the cursor in code points."""
    i = code.find("|")
    if i < 0:
        return code, len(code)
    return code[:i] + code[i + 1:], i  # Python str indices are code points


class ConveniencesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.km, cls.kc = start()
        reply = cls.kc.execute_interactive(
            "type Sample struct {\n\tAlpha int\n\tbeta  string\n}\n\n"
            "func (s Sample) Twice() int { return 2 * s.Alpha }\n\n"
            "// mySum adds two numbers.\nfunc mySum(a, b int) int { return a + b }\n\n"
            "myVar := Sample{Alpha: 3, beta: \"b\"}\nñandú := 1.5", timeout=60)
        assert reply["content"]["status"] == "ok", reply["content"]

    @classmethod
    def tearDownClass(cls):
        stop(cls.km, cls.kc)

    def run_cell(self, code, **kw):
        outputs = []
        reply = self.kc.execute_interactive(code, timeout=60, output_hook=outputs.append, **kw)
        return reply["content"], outputs

    def complete(self, code):
        code, cur = cursor_at(code)
        self.kc.complete(code, cur)
        c = self.kc.get_shell_msg(timeout=20)["content"]
        self.assertEqual(c["status"], "ok")
        return c

    def inspect(self, code, detail=0):
        code, cur = cursor_at(code)
        self.kc.inspect(code, cur, detail)
        c = self.kc.get_shell_msg(timeout=20)["content"]
        self.assertEqual(c["status"], "ok")
        return c

    def test_complete(self):
        cases = [
            ("my|", {"mySum", "myVar"}, 0, 2),
            ("strings.Fie|", {"Fields", "FieldsFunc"}, 8, 11),
            ("display.Pro|", {"Progress"}, 8, 11),
            ("cl.Plat|", {"Platforms"}, 3, 7),
            ("myVar.|", {"Alpha", "beta", "Twice"}, 6, 6),
            ("fu|", {"func"}, 0, 2),
            ("n := le|", {"len"}, 5, 7),
            ("s := \"日本語\"; ña|", {"ñandú"}, 12, 14),
            ("for i := 0; i < 3; i++ {\n\tif i > 1 {\n\t\tmyV|", {"myVar"}, 39, 42),
        ]
        for code, want, start, end in cases:
            with self.subTest(code=code):
                c = self.complete(code)
                self.assertTrue(want <= set(c["matches"]), c["matches"])
                self.assertEqual((c["cursor_start"], c["cursor_end"]), (start, end))
        self.assertNotIn("Xbeta", self.complete("myVar.|")["matches"])

    def test_inspect(self):
        cases = [
            ("strings.Fie|lds(s)", ["func Fields(s string) []string"]),
            ("display.HT|ML(s)", ["func HTML(s string)"]),
            ("cl|", ["clapi", "OpenCL"]),
            ("mySu|m(1, 2)", ["func mySum(a, b int) int", "adds two numbers"]),
            ("myVar|", ["Sample", "Alpha:3", "beta:b"]),
            ("ñandú|", ["float64", "1.5"]),
        ]
        for code, want in cases:
            with self.subTest(code=code):
                c = self.inspect(code)
                self.assertTrue(c["found"], c)
                text = c["data"]["text/plain"]
                for w in want:
                    self.assertIn(w, text)
                self.assertIn("text/markdown", c["data"])
                self.assertNotIn("Xbeta", text)  # yaegi's name for the unexported field
        self.assertFalse(self.inspect("noSuchThing|")["found"])

    def test_is_complete(self):
        for code, status in [("x := 1", "complete"), ("func f() {", "incomplete"),
                             ("if true {\n\tx := 1", "incomplete"), ("x := )", "invalid")]:
            with self.subTest(code=code):
                self.kc.is_complete(code)
                c = self.kc.get_shell_msg(timeout=20)["content"]
                self.assertEqual(c["status"], status, c)
                if status == "incomplete":
                    self.assertIn("indent", c)

    def test_stdin_bufio_and_scan(self):
        prompts = []
        answers = iter(["Ada Lovelace", "36"])

        def hook(msg):
            prompts.append(msg["content"]["prompt"])
            self.kc.input(next(answers))

        c, outs = self.run_cell(
            'import "bufio"\nfmt.Print("Your name: ")\nr := bufio.NewReader(os.Stdin)\n'
            'name, _ := r.ReadString(\'\\n\')\nfmt.Print("noted\\nAge? ")\nvar age int\nfmt.Scan(&age)\n'
            'fmt.Printf("%s is %d\\n", strings.TrimSpace(name), age)',
            allow_stdin=True, stdin_hook=hook)
        self.assertEqual(c["status"], "ok", c)
        self.assertEqual(prompts, ["Your name: ", "Age? "])
        out = "".join(o["content"]["text"] for o in outs if o["msg_type"] == "stream")
        self.assertIn("Ada Lovelace is 36", out)

    def test_stdin_not_allowed_fails_at_once(self):
        start = time.time()
        c, outs = self.run_cell("var v string\n_, err := fmt.Scanln(&v)\nerr", allow_stdin=False)
        self.assertLess(time.time() - start, 30)  # a hang guard, not a timing test
        self.assertEqual(c["status"], "ok")
        res = [o for o in outs if o["msg_type"] == "execute_result"]
        self.assertEqual(len(res), 1)
        self.assertIn("allow_stdin", res[0]["content"]["data"]["text/plain"])

    def test_interrupt_while_waiting_for_input(self):
        self.run_cell("survivor := 9")
        msg_id = self.kc.execute("var s string\nfmt.Print(\"waiting: \")\nfmt.Scanln(&s)\nfmt.Println(\"not reached\")",
                                 allow_stdin=True)
        req = self.kc.get_stdin_msg(timeout=20)
        self.assertEqual(req["msg_type"], "input_request")
        self.assertEqual(req["content"]["prompt"], "waiting: ")
        self.km.interrupt_kernel()
        reply = self.kc.get_shell_msg(timeout=20)
        self.assertEqual(reply["parent_header"]["msg_id"], msg_id)
        self.assertEqual(reply["content"]["ename"], "Interrupted")
        c, outs = self.run_cell("survivor")
        self.assertEqual([o["content"]["data"]["text/plain"] for o in outs if o["msg_type"] == "execute_result"], ["9"])

    def test_display_package(self):
        c, outs = self.run_cell(
            'display.HTML("<b>b</b>")\ndisplay.Markdown("*m*")\n'
            'display.SVG(`<svg xmlns="http://www.w3.org/2000/svg"/>`)\n'
            'display.PNG([]byte("\\x89PNG\\r\\n\\x1a\\n"))\ndisplay.JPEG([]byte{0xff, 0xd8, 0xff})\n'
            'display.JSON([]int{1, 2})\ndisplay.Text("t")')
        self.assertEqual(c["status"], "ok", c)
        mimes = [sorted(set(o["content"]["data"]) - {"text/plain"}) for o in outs if o["msg_type"] == "display_data"]
        self.assertEqual(mimes, [["text/html"], ["text/markdown"], ["image/svg+xml"], ["image/png"],
                                 ["image/jpeg"], ["application/json"], []])

        c, outs = self.run_cell('fmt.Println("gone")\ndisplay.Clear(true)\nfmt.Println("kept")')
        kinds = [o["msg_type"] for o in outs if o["msg_type"] in ("stream", "clear_output")]
        self.assertEqual(kinds, ["stream", "clear_output", "stream"])
        self.assertTrue([o for o in outs if o["msg_type"] == "clear_output"][0]["content"]["wait"])

        c, outs = self.run_cell('h := display.New("v1")\nh.Update("v2")')
        shown = [o for o in outs if o["msg_type"] == "display_data"]
        updated = [o for o in outs if o["msg_type"] == "update_display_data"]
        self.assertEqual(len(shown), 1)
        self.assertEqual(len(updated), 1)
        did = shown[0]["content"]["transient"]["display_id"]
        self.assertTrue(did)
        self.assertEqual(updated[0]["content"]["transient"]["display_id"], did)
        self.assertEqual(updated[0]["content"]["data"]["text/plain"], "v2")

        start = time.time()
        c, outs = self.run_cell("bar := display.Progress(200)\nfor i := 0; i < 200; i++ {\n"
                                "\ttime.Sleep(4 * time.Millisecond)\n\tbar.Add(1)\n}\nbar.Done()")
        took = time.time() - start
        shown = [o for o in outs if o["msg_type"] == "display_data"]
        updated = [o for o in outs if o["msg_type"] == "update_display_data"]
        self.assertEqual(len(shown), 1)
        did = shown[0]["content"]["transient"]["display_id"]
        self.assertTrue(updated)
        self.assertTrue(all(u["content"]["transient"]["display_id"] == did for u in updated))
        self.assertLessEqual(len(updated), int(took * 10) + 3)  # not one redraw per Add
        self.assertIn("200/200", updated[-1]["content"]["data"]["text/plain"])

        d = tempfile.mkdtemp()
        try:
            path = os.path.join(d, "page.html")
            c, outs = self.run_cell(f'display.Save(display.Bundle{{"text/html": "<p>saved</p>"}}, "{path}")')
            self.assertEqual(c["status"], "ok", c)
            with open(path) as f:
                self.assertIn("<p>saved</p>", f.read())
        finally:
            shutil.rmtree(d)


class HistoryTest(unittest.TestCase):
    """History lives in a per-user file that outlives kernels."""

    def setUp(self):
        self.data = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.data)

    def history(self, kc, **kw):
        kc.history(raw=True, **kw)
        c = kc.get_shell_msg(timeout=20)["content"]
        self.assertEqual(c["status"], "ok")
        return [tuple(e) if not isinstance(e[2], list) else (e[0], e[1], tuple(e[2])) for e in c["history"]]

    def test_history_across_kernels(self):
        env = {"JUPYTER_DATA_DIR": self.data}
        km, kc = start(env)
        try:
            for code in ["a := 1", "a + 1", "fmt.Println(a)", "a + 1"]:
                kc.execute_interactive(code, timeout=30, output_hook=lambda m: None)
            tail = self.history(kc, hist_access_type="tail", n=2, output=True)
            session = tail[0][0]
            self.assertEqual([(e[1], e[2][0]) for e in tail], [(3, "fmt.Println(a)"), (4, "a + 1")])
            self.assertEqual(tail[1][2][1], "2")
            rng = self.history(kc, hist_access_type="range", session=0, start=1, stop=3, output=False)
            self.assertEqual([e[2] for e in rng], ["a := 1", "a + 1"])
            found = self.history(kc, hist_access_type="search", pattern="a*", unique=True, output=False)
            self.assertEqual([e[2] for e in found], ["a := 1", "a + 1"])
            found = self.history(kc, hist_access_type="search", pattern="*Print*", n=1, output=False)
            self.assertEqual([e[2] for e in found], ["fmt.Println(a)"])
            # A restart through the kernel manager: a new process, a new session.
            km.restart_kernel(now=False)
            kc.wait_for_ready(timeout=60)
            kc.execute_interactive("b := 2", timeout=30, output_hook=lambda m: None)
            tail = self.history(kc, hist_access_type="tail", n=1, output=False)
            self.assertEqual(tail, [(session + 1, 1, "b := 2")])
            prev = self.history(kc, hist_access_type="range", session=-1, start=1, output=False)
            self.assertEqual(len(prev), 4)
        finally:
            stop(km, kc)
        self.assertTrue(os.path.exists(os.path.join(self.data, "gocl", "history.jsonl")))


if __name__ == "__main__":
    unittest.main()
