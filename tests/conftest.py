"""Suite-wide Hypothesis settings.

Property tests assert invariants, not speed: a shared 2-core CI machine under load must not turn a
slow draw into a failure (HealthCheck.too_slow) or a slow example into a flaky DeadlineExceeded.
Tests that pass their own ``@settings`` inherit these for every field they leave unset.
"""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "xcompleteness", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("xcompleteness")


_CACHE_HOME: list[str] = []


def pytest_configure(config) -> None:
    """``generate`` caches results under $XDG_CACHE_HOME: the suite uses a private, empty one
    per session (and per xdist worker), never the user's cache; it is removed at the end."""
    import os
    import tempfile

    _CACHE_HOME.append(tempfile.mkdtemp(prefix="xc-test-cache-"))
    os.environ["XDG_CACHE_HOME"] = _CACHE_HOME[-1]
    for name in ("XC_CACHE_DIR", "XC_NO_CACHE"):  # the user's cache settings never apply here
        os.environ.pop(name, None)


def pytest_unconfigure(config) -> None:
    import shutil

    while _CACHE_HOME:
        shutil.rmtree(_CACHE_HOME.pop(), ignore_errors=True)
