"""Start the service on 127.0.0.1 with real uvicorn, on a free port, and always stop it.

Two ways: in a thread of the current process (tests: they share the ``ServiceConfig`` object and
can break shards while the service runs) or as a child process (the demo: a real separate
server, stopped with SIGTERM then SIGKILL). Both wait a bounded time for start-up.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import uvicorn
from fastapi import FastAPI

STARTUP_TIMEOUT_S = 20.0


@dataclass
class ThreadService:
    """A uvicorn server running in a background thread of this process."""

    base_url: str
    server: uvicorn.Server
    thread: threading.Thread

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    def __enter__(self) -> ThreadService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _loopback_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    return sock


def start_in_thread(app: FastAPI) -> ThreadService:
    """Serve ``app`` on a free loopback port; returns once it accepts connections."""
    sock = _loopback_socket()
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="on", access_log=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            raise RuntimeError("the service did not start")
        time.sleep(0.02)
    return ThreadService(f"http://127.0.0.1:{port}", server, thread)


def serve_forever(app: FastAPI) -> None:
    """Child-process entry: serve on a free port and announce it on stdout."""
    sock = _loopback_socket()
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="on", access_log=False)
    server = uvicorn.Server(config)
    original = server.startup

    async def announce(sockets: list[socket.socket] | None = None) -> None:
        await original(sockets=sockets)
        print(f"READY http://127.0.0.1:{port}", flush=True)

    server.startup = announce  # type: ignore[method-assign]
    server.run(sockets=[sock])


@dataclass
class ProcessService:
    """The service as a child process (``python -m service``)."""

    base_url: str
    process: subprocess.Popen[str]
    log: list[str] = field(default_factory=list)

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        return self.process.returncode

    def __enter__(self) -> ProcessService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start_process(args: list[str], env: dict[str, str]) -> ProcessService:
    """Run ``python -m service ARGS`` from the example folder; wait for its READY line."""
    example = Path(__file__).resolve().parents[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "service", *args],
        cwd=example,
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []
    found: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("READY ") and not found:
                found.append(line.split()[1])

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while not found:
        if proc.poll() is not None or time.monotonic() > deadline:
            service = ProcessService("", proc, lines)
            service.stop()
            raise RuntimeError("the service did not start:\n" + "\n".join(lines[-20:]))
        time.sleep(0.05)
    return ProcessService(found[0], proc, lines)
