from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SPEC_EXT = ROOT / "spec_ext"
TEMPLATES = ROOT / "templates"
