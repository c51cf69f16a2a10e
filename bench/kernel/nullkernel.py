#!/usr/bin/python3
"""A do-nothing Jupyter kernel: the floor of an execute round trip.

It answers kernel_info_request, and execute_request with busy, execute_input,
execute_reply and idle, doing no work; it echoes heartbeats and ends on
shutdown_request. bench/kernel/supervisedbench.py measures gocl against it
through the same jupyter_client client in the same run.

  python3 nullkernel.py -f CONNECTION_FILE
"""
import json
import sys
import threading

import zmq
from jupyter_client.session import Session


def main():
    cf = sys.argv[sys.argv.index("-f") + 1]
    with open(cf) as f:
        ci = json.load(f)
    key = ci["key"].encode()
    session = Session(key=key, username="null")
    ctx = zmq.Context()
    url = lambda port: "%s://%s:%d" % (ci["transport"], ci["ip"], ci[port])
    shell = ctx.socket(zmq.ROUTER)
    shell.bind(url("shell_port"))
    control = ctx.socket(zmq.ROUTER)
    control.bind(url("control_port"))
    stdin = ctx.socket(zmq.ROUTER)
    stdin.bind(url("stdin_port"))
    iopub = ctx.socket(zmq.PUB)
    iopub.bind(url("iopub_port"))
    hb = ctx.socket(zmq.REP)
    hb.bind(url("hb_port"))

    def beat():
        while True:
            hb.send(hb.recv())

    threading.Thread(target=beat, daemon=True).start()
    count = 0
    poller = zmq.Poller()
    poller.register(shell, zmq.POLLIN)
    poller.register(control, zmq.POLLIN)
    while True:
        for sock, _ in poller.poll():
            idents, msg = session.feed_identities(sock.recv_multipart())
            msg = session.deserialize(msg)
            typ = msg["header"]["msg_type"]
            session.send(iopub, "status", {"execution_state": "busy"}, parent=msg)
            if typ == "kernel_info_request":
                session.send(sock, "kernel_info_reply", {
                    "status": "ok", "protocol_version": "5.3", "implementation": "null",
                    "implementation_version": "0", "banner": "",
                    "language_info": {"name": "null", "version": "0", "mimetype": "text/plain",
                                      "file_extension": ".txt"}}, parent=msg, ident=idents)
            elif typ == "execute_request":
                count += 1
                session.send(iopub, "execute_input", {"code": msg["content"]["code"], "execution_count": count},
                             parent=msg)
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
