"""ipywidgets over comms, driven by Debian's jupyter_client as a widget front end does.

The test speaks the widget protocol 2.1.0 the way @jupyter-widgets/base 2.0.0
does in JupyterLab and Notebook: it receives each widget's comm_open with its
state, opens the jupyter.widget.control comm and asks for every state, sends
an update as a dragged slider does, and checks the echo_update, the Go
callback's output, and that a value set in Go reaches it as an update.
"""
import atexit
import queue
import time
import unittest
import uuid

import goclenv

goclenv.setup()
from jupyter_client.manager import KernelManager  # noqa: E402  (after JUPYTER_PATH is set)

VIEW = "application/vnd.jupyter.widget-view+json"


class WidgetTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.km = KernelManager(kernel_name="gocl")
        cls.km.start_kernel()
        cls.kc = cls.km.client()
        cls.kc.start_channels()
        cls.kc.wait_for_ready(timeout=60)

    @classmethod
    def tearDownClass(cls):
        cls.kc.stop_channels()
        cls.km.shutdown_kernel(now=False)

    def execute(self, code):
        """Run a cell; return its reply and every IOPub message it caused, up to idle."""
        msgs = []
        reply = self.kc.execute_interactive(code, timeout=60, output_hook=msgs.append)
        self.assertEqual(reply["content"]["status"], "ok", msgs)
        return reply["content"], msgs

    def send_shell(self, msg_type, content, metadata=None):
        """Send a shell message as a front end; return it."""
        msg = self.kc.session.msg(msg_type, content, metadata=metadata or {})
        self.kc.shell_channel.send(msg)
        return msg

    def iopub_until_idle(self, parent_id, timeout=30):
        """The IOPub messages whose parent is parent_id, from busy to idle."""
        got = []
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                m = self.kc.get_iopub_msg(timeout=1)
            except queue.Empty:
                continue
            if m["parent_header"].get("msg_id") != parent_id:
                continue
            got.append(m)
            if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
                return got
        self.fail(f"no idle for {parent_id} within {timeout}s; got {[m['msg_type'] for m in got]}")

    def test_widget_round_trip(self):
        _, msgs = self.execute(
            's := widgets.NewIntSlider("size", 0, 100, 10)\n'
            'out := widgets.NewOutput()\n'
            's.OutputTo(out)\n'
            's.OnChange(func(v int) { fmt.Println("callback saw", v, "twice is", 2*v) })\n'
            'widgets.Show(s, out)\n')
        opens = {m["content"]["comm_id"]: m for m in msgs if m["msg_type"] == "comm_open"}
        views = [m["content"]["data"][VIEW] for m in msgs
                 if m["msg_type"] == "display_data" and VIEW in m["content"]["data"]]
        self.assertEqual(len(views), 2, [m["msg_type"] for m in msgs])
        slider_id, out_id = views[0]["model_id"], views[1]["model_id"]
        self.assertEqual((views[0]["version_major"], views[0]["version_minor"]), (2, 0))
        slider = opens[slider_id]
        self.assertEqual(slider["content"]["target_name"], "jupyter.widget")
        self.assertEqual(slider["metadata"].get("version"), "2.1.0")
        state = slider["content"]["data"]["state"]
        self.assertEqual((state["_model_name"], state["_model_module"], state["_model_module_version"]),
                         ("IntSliderModel", "@jupyter-widgets/controls", "2.0.0"))
        self.assertEqual((state["value"], state["min"], state["max"], state["description"]), (10, 0, 100, "size"))
        self.assertIn(state["layout"][len("IPY_MODEL_"):], opens, "the layout is opened before the slider")
        self.assertEqual(opens[out_id]["content"]["data"]["state"]["_model_name"], "OutputModel")

        # comm_info as the widget manager asks it.
        info = self.send_shell("comm_info_request", {"target_name": "jupyter.widget"})
        reply = self.kc.get_shell_msg(timeout=10)
        self.assertEqual(reply["parent_header"]["msg_id"], info["header"]["msg_id"])
        self.assertEqual(reply["content"]["comms"][slider_id], {"target_name": "jupyter.widget"})

        # The control comm: every state in one message.
        ctl = uuid.uuid4().hex
        m = self.send_shell("comm_open", {"comm_id": ctl, "target_name": "jupyter.widget.control", "data": {}},
                            {"version": "2.1.0"})
        self.iopub_until_idle(m["header"]["msg_id"])
        m = self.send_shell("comm_msg", {"comm_id": ctl, "data": {"method": "request_states"}})
        got = self.iopub_until_idle(m["header"]["msg_id"])
        states = [g for g in got if g["msg_type"] == "comm_msg" and g["content"]["comm_id"] == ctl]
        self.assertEqual(len(states), 1, [g["msg_type"] for g in got])
        self.assertEqual(states[0]["content"]["data"]["method"], "update_states")
        self.assertEqual(states[0]["content"]["data"]["states"][slider_id]["state"]["value"], 10)

        # The user drags the slider to 42.
        m = self.send_shell("comm_msg", {"comm_id": slider_id,
                                         "data": {"method": "update", "state": {"value": 42}, "buffer_paths": []}})
        got = self.iopub_until_idle(m["header"]["msg_id"])
        kinds = [g["msg_type"] for g in got]
        self.assertEqual(kinds[0], "status", kinds)
        self.assertEqual(got[0]["content"]["execution_state"], "busy")
        comms = [g for g in got if g["msg_type"] == "comm_msg"]
        self.assertEqual(comms[0]["content"]["comm_id"], slider_id)
        self.assertEqual(comms[0]["content"]["data"]["method"], "echo_update")
        self.assertEqual(comms[0]["content"]["data"]["state"], {"value": 42})
        outs = [c["content"]["data"]["state"]["outputs"] for c in comms
                if c["content"]["comm_id"] == out_id and "outputs" in c["content"]["data"].get("state", {})]
        self.assertTrue(outs, kinds)
        text = "".join(o.get("text", "") for o in outs[-1])
        self.assertEqual(text, "callback saw 42 twice is 84\n")
        self.assertFalse([g for g in got if g["msg_type"] == "error"], got)

        _, msgs = self.execute("s.Value()")
        result = [m for m in msgs if m["msg_type"] == "execute_result"]
        self.assertEqual(result[0]["content"]["data"]["text/plain"], "42")

        # Go sets the value: the page gets an update.
        _, msgs = self.execute("s.SetValue(7)")
        updates = [m["content"]["data"] for m in msgs
                   if m["msg_type"] == "comm_msg" and m["content"]["comm_id"] == slider_id]
        self.assertEqual(updates[0], {"method": "update", "state": {"value": 7}, "buffer_paths": []})

        # The front end closes the widget: it is gone from comm_info.
        m = self.send_shell("comm_close", {"comm_id": slider_id, "data": {}})
        self.iopub_until_idle(m["header"]["msg_id"])
        self.send_shell("comm_info_request", {})
        reply = self.kc.get_shell_msg(timeout=10)
        self.assertNotIn(slider_id, reply["content"]["comms"])
        self.assertIn(ctl, reply["content"]["comms"])

    def test_callback_error_and_click(self):
        _, msgs = self.execute(
            'b := widgets.NewButton("boom")\n'
            'clicks := 0\n'
            'b.OnClick(func() { clicks++; if clicks == 2 { var m map[string]int; m["x"] = 1 }; fmt.Println("click", clicks) })\n'
            'b\n')
        area = [m["content"]["data"][VIEW]["model_id"] for m in msgs
                if m["msg_type"] == "display_data" and VIEW in m["content"]["data"]]
        button = [m["content"]["data"][VIEW]["model_id"] for m in msgs
                  if m["msg_type"] == "execute_result" and VIEW in m["content"]["data"]]
        self.assertEqual((len(area), len(button)), (1, 1), [m["msg_type"] for m in msgs])
        for n in (1, 2):
            m = self.send_shell("comm_msg", {"comm_id": button[0],
                                             "data": {"method": "custom", "content": {"event": "click"}}})
            got = self.iopub_until_idle(m["header"]["msg_id"])
            outs = [g["content"]["data"]["state"]["outputs"] for g in got
                    if g["msg_type"] == "comm_msg" and g["content"]["comm_id"] == area[0]]
            self.assertTrue(outs, [g["msg_type"] for g in got])
        last = outs[-1]
        self.assertEqual(last[0]["text"], "click 1\n")
        self.assertEqual(last[1]["output_type"], "error", last)
        self.assertIn("assignment to entry in nil map", last[1]["evalue"])
        _, msgs = self.execute("clicks")
        self.assertEqual([m for m in msgs if m["msg_type"] == "execute_result"][0]["content"]["data"]["text/plain"], "2")

    def test_widgets_complete_and_inspect(self):
        code = "widgets.NewIntSl"
        self.kc.complete(code, len(code))
        reply = self.kc.get_shell_msg(timeout=10)
        self.assertIn("NewIntSlider", reply["content"]["matches"])
        self.kc.inspect(code + "ider(", len(code) + 2)
        reply = self.kc.get_shell_msg(timeout=10)
        self.assertTrue(reply["content"]["found"], reply["content"])
        self.assertIn("clamped", reply["content"]["data"]["text/plain"])

    def test_comm_to_unknown_target_is_closed(self):
        cid = uuid.uuid4().hex
        m = self.send_shell("comm_open", {"comm_id": cid, "target_name": "no.such.target", "data": {}})
        got = self.iopub_until_idle(m["header"]["msg_id"])
        kinds = [g["msg_type"] for g in got]
        self.assertIn("comm_close", kinds)
        self.assertNotIn("error", kinds, "refusing a comm is the protocol, not a failure to show")
        closes = [g for g in got if g["msg_type"] == "comm_close"]
        self.assertEqual(closes[0]["content"]["comm_id"], cid)


# At exit, not in tearDownModule: the test modules share one kernelspec
# prefix, and removing it after the first module would leave the others
# running whatever "gocl" kernelspec the system has.
atexit.register(goclenv.teardown)


if __name__ == "__main__":
    unittest.main()
