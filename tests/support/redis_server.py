"""A real redis-server on a free loopback port for the Redis token store tests.

``make test-services`` (run by ``.ci/run``) installs ``redis-server`` with apt where we are root;
where it is missing the Redis tests skip and say so (never silently pass).
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

STARTUP_TIMEOUT_S = 15.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def redis_binary() -> str:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip(
            "redis-server is not installed (run `make test-services` as root, or "
            "`apt-get install redis-server`); the Redis token store cannot be tested here"
        )
    return binary


@contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    """Run redis-server on 127.0.0.1 (data in ``folder``, append-only log on); yield its URL."""
    binary = redis_binary()
    port = free_port()
    folder.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen(
        [
            binary,
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--dir",
            str(folder),
            "--appendonly",
            "yes",
            "--save",
            "",
            "--protected-mode",
            "yes",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
