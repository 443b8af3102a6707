from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SPEC_EXT = ROOT / "spec_ext"
TEMPLATES = ROOT / "templates"

# The bundled examples with their overlays, as ``pytest.mark.parametrize`` arguments and ids.
EXAMPLE_SPECS: tuple[tuple[Path, tuple[Path, ...]], ...] = (
    (EXAMPLES / "service_accounts" / "openapi.yaml", ()),
    (EXAMPLES / "link_header_search" / "openapi.yaml", ()),
    (EXAMPLES / "github" / "excerpt.yaml", (EXAMPLES / "github" / "overlay.yaml",)),
)
EXAMPLE_IDS = ("service_accounts", "link_header_search", "github")
