"""Run ``xcompleteness mock`` as a real child process (uvicorn on loopback) for a test.

``with mock_server(spec, plan_text) as url:`` writes the plan (YAML text, or None), starts
``python -m xcompleteness mock SPEC --port 0 [--faults PLAN]``, waits for its ``MOCK READY URL``
line and stops it (SIGTERM, then SIGKILL) afterwards.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

STARTUP_TIMEOUT_S = 60.0


@contextmanager
def mock_server(
    spec: Path, plan: str | None = None, *, extra: tuple[str, ...] = ()
) -> Iterator[str]:
    with tempfile.TemporaryDirectory() as tmp:
        args = [sys.executable, "-m", "xcompleteness", "mock", str(spec), "--port", "0", *extra]
        if plan is not None:
            plan_path = Path(tmp) / "plan.yaml"
            plan_path.write_text(plan, encoding="utf-8")
            args += ["--faults", str(plan_path)]
        proc = subprocess.Popen(
            args,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        found: list[str] = []
        errors: list[str] = []

        def read_out() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                if line.startswith("MOCK READY ") and not found:
                    found.append(line.split()[2])

        def read_err() -> None:
            assert proc.stderr is not None
            errors.extend(proc.stderr)

        threading.Thread(target=read_out, daemon=True).start()
        threading.Thread(target=read_err, daemon=True).start()
        try:
            deadline = time.monotonic() + STARTUP_TIMEOUT_S
            while not found:
                if proc.poll() is not None or time.monotonic() > deadline:
                    time.sleep(0.2)
                    raise RuntimeError("the mock did not start:\n" + "".join(errors[-40:]))
                time.sleep(0.05)
            yield found[0]
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


_CHECKED: dict[str, tuple[object, object]] = {}


@contextmanager
def mock_in_thread(spec: Path, plan: str | None = None) -> Iterator[str]:
    """The same mock in a uvicorn thread of this process (no start-up of a new interpreter);
    the spec is checked once per test session."""
    import socket

    import uvicorn
    from xcompleteness.check._pipeline import check_spec
    from xcompleteness.ir._build import build_ir
    from xcompleteness.testkit._mock import make_app, mock_from_check

    key = str(spec)
    if key not in _CHECKED:
        result = check_spec(spec)
        _CHECKED[key] = (result, build_ir(result, "mock"))
    result, ir = _CHECKED[key]
    with tempfile.TemporaryDirectory() as tmp:
        plan_path = None
        if plan is not None:
            plan_path = str(Path(tmp) / "plan.yaml")
            Path(plan_path).write_text(plan, encoding="utf-8")
        api = mock_from_check(result, plan_path, ir=ir)
    sock = socket.socket()
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no delayed-ACK stalls
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(make_app(api), log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the mock did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
