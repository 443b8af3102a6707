"""A bench script's own server in a subprocess on 127.0.0.1 (bounded start, always stopped).

``LoopbackServer(script, *args)`` runs ``python SCRIPT --serve *ARGS PORT`` on a free port and, as
a context manager, returns the base URL once the port accepts connections.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LoopbackServer:
    def __init__(self, script: str, *args: str, start_timeout_s: float = 30) -> None:
        self.port = free_port()
        self.cmd = [sys.executable, script, "--serve", *args, str(self.port)]
        self.start_timeout_s = start_timeout_s
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> str:
        self.proc = subprocess.Popen(self.cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + self.start_timeout_s
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return f"http://127.0.0.1:{self.port}"
            except OSError:
                time.sleep(0.05)
        self.__exit__()
        raise RuntimeError("the bench server did not start")

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
