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
