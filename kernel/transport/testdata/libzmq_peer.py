"""A real front end (jupyter_client on libzmq) talking to a gocl transport.

Run by TestLibzmqInterop with a connection file; the Go test plays the
kernel. Exits non-zero with a traceback on any mismatch.
"""
import sys
import zmq
from jupyter_client import BlockingKernelClient

kc = BlockingKernelClient()
kc.load_connection_file(sys.argv[1])
kc.start_channels()

# Garbage first: the kernel must drop it and keep serving.
ctx = zmq.Context.instance()
junk = ctx.socket(zmq.DEALER)
junk.connect(kc._make_url("shell"))
junk.send_multipart([b"<IDS|MSG>", b"0" * 64, b"{}", b"{}", b"{}", b"{}"])
junk.send_multipart([b"no delimiter"])

msg_id = kc.kernel_info()
reply = kc.get_shell_msg(timeout=10)
assert reply["parent_header"]["msg_id"] == msg_id, reply
assert reply["content"]["status"] == "ok", reply
seen = []
while True:
    m = kc.get_iopub_msg(timeout=10)
    seen.append((m["msg_type"], m["content"].get("text") or m["content"].get("execution_state")))
    if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
        break
assert seen == [("status", "busy"), ("stream", "hello from gocl\n"), ("status", "idle")], seen

msg_id = kc.execute("name := input()", allow_stdin=True)
req = kc.get_stdin_msg(timeout=10)
assert req["msg_type"] == "input_request" and req["parent_header"]["msg_id"] == msg_id, req
kc.input("gopher")
reply = kc.get_shell_msg(timeout=10)
assert reply["msg_type"] == "execute_reply" and reply["parent_header"]["msg_id"] == msg_id, reply
text = ""
while True:
    m = kc.get_iopub_msg(timeout=10)
    if m["msg_type"] == "stream":
        text += m["content"]["text"]
    if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
        break
assert text == "hello, gopher\n", text

hb = ctx.socket(zmq.REQ)
hb.connect(kc._make_url("hb"))
for i in range(3):
    hb.send(b"ping %d" % i)
    assert hb.poll(10000), "no heartbeat echo"
    assert hb.recv() == b"ping %d" % i

msg_id = kc.shutdown()
reply = kc.get_control_msg(timeout=10)
assert reply["msg_type"] == "shutdown_reply" and reply["parent_header"]["msg_id"] == msg_id, reply
kc.stop_channels()
print("OK")
