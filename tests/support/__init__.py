"""Helpers shared by the test areas (importable as ``support`` because tests/ is on sys.path)."""
