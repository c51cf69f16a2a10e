#!/usr/bin/python3
"""A do-nothing Jupyter kernel on pyzmq: the floor any kernel's round trip
is measured against (issue 13: gocl's execute round trip within 1.15x of it).

  /usr/bin/python3 bench/kernel/nullkernel.py -f CONNECTION_FILE

It answers kernel_info_request and execute_request (busy, reply, idle; the
code is not run), shutdown_request, and echoes heartbeats. Everything else
is ignored. Signing and parsing are jupyter_client's Session, as ipykernel's.
"""
import json
import sys
import threading

import zmq
from jupyter_client.session import Session


def main():
    cf = sys.argv[sys.argv.index("-f") + 1]
    with open(cf) as f:
        info = json.load(f)
    key = info.get("key", "")
    session = Session(key=key.encode() if isinstance(key, str) else key, username="null")
    ctx = zmq.Context()
    url = lambda port: "%s://%s:%s" % (info.get("transport", "tcp"), info["ip"], info[port])
    shell = ctx.socket(zmq.ROUTER)
    shell.bind(url("shell_port"))
    control = ctx.socket(zmq.ROUTER)
    control.bind(url("control_port"))
    stdin = ctx.socket(zmq.ROUTER)
    stdin.bind(url("stdin_port"))
    iopub = ctx.socket(zmq.PUB)
    iopub.bind(url("iopub_port"))
    hb = ctx.socket(zmq.ROUTER)
    hb.bind(url("hb_port"))
    threading.Thread(target=zmq.proxy, args=(hb, hb), daemon=True).start()

    count = 0
    poller = zmq.Poller()
    poller.register(shell, zmq.POLLIN)
    poller.register(control, zmq.POLLIN)
    while True:
        for sock, _ in poller.poll():
            idents, msg = session.feed_identities(sock.recv_multipart())
            msg = session.deserialize(msg)
            typ = msg["msg_type"]
            session.send(iopub, "status", {"execution_state": "busy"}, parent=msg)
            if typ == "kernel_info_request":
                session.send(sock, "kernel_info_reply", {
                    "status": "ok", "protocol_version": "5.3", "implementation": "null",
                    "implementation_version": "0", "banner": "",
                    "language_info": {"name": "none", "version": "0", "file_extension": ".txt"},
                }, parent=msg, ident=idents)
            elif typ == "execute_request":
                count += 1
                session.send(sock, "execute_reply", {"status": "ok", "execution_count": count,
                                                     "user_expressions": {}, "payload": []},
                             parent=msg, ident=idents)
            elif typ == "shutdown_request":
                session.send(sock, "shutdown_reply", {"status": "ok", "restart": False}, parent=msg, ident=idents)
                session.send(iopub, "status", {"execution_state": "idle"}, parent=msg)
                return
            session.send(iopub, "status", {"execution_state": "idle"}, parent=msg)


if __name__ == "__main__":
    main()
