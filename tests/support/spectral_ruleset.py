"""Build spec_ext/spectral.yaml from the vocabulary's published JSON Schemas.

Spectral does not follow a ``$ref`` from a ruleset to a file, so the ruleset embeds both schemas
verbatim (``tests/ci/test_spectral.py`` checks it is in sync). Refresh after a schema change:

    python tests/support/spectral_ruleset.py
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
RULESET = ROOT / "spec_ext" / "spectral.yaml"
OPERATIONS = "$.paths[*][get,put,post,delete,options,head,patch,trace]"

HEADER = """\
# Spectral ruleset for the x-completeness vocabulary (docs/ci.md#spectral). Generated from
# spec_ext/x-completeness.schema.json and spec_ext/x-completeness-registry.schema.json by
# tests/support/spectral_ruleset.py (embedded verbatim: Spectral does not follow a $ref to a file).
#
#   spectral lint openapi.yaml --ruleset spec_ext/spectral.yaml
#
# or in your own .spectral.yaml:  extends: [spectral:oas, ./path/to/spectral.yaml]
#
# It checks the structure of every declaration (the XC040-XC057 class of `xcompleteness check`)
# and that a declared operation has an operationId (XC101). The other semantic rules (XC1xx: does
# the items location exist in the response, is the cursor parameter declared ...) need the
# generator: run `xcompleteness check` for those.
"""


def _schema(name: str) -> dict:
    return json.loads((ROOT / "spec_ext" / name).read_text(encoding="utf-8"))


def ruleset() -> dict:
    return {
        "rules": {
            "x-completeness-declaration": {
                "description": "An operation's x-completeness declaration matches the vocabulary's"
                " JSON Schema (docs/vocabulary.md).",
                "message": "x-completeness: {{error}}",
                "severity": "error",
                "given": f"{OPERATIONS}.x-completeness",
                "then": {
                    "function": "schema",
                    "functionOptions": {
                        "dialect": "draft2020-12",
                        "allErrors": True,
                        "schema": _schema("x-completeness.schema.json"),
                    },
                },
            },
            "x-completeness-registry": {
                "description": "The document's x-completeness-registry (custom codes) matches the"
                " vocabulary's JSON Schema.",
                "message": "x-completeness-registry: {{error}}",
                "severity": "error",
                "given": "$.x-completeness-registry",
                "then": {
                    "function": "schema",
                    "functionOptions": {
                        "dialect": "draft2020-12",
                        "allErrors": True,
                        "schema": _schema("x-completeness-registry.schema.json"),
                    },
                },
            },
            "x-completeness-operation-id": {
                "description": "A declared operation has an operationId (XC101): tools, evidence"
                " and the client name it by it.",
                "message": "a declared operation needs an operationId",
                "severity": "error",
                "given": "$.paths[*][?(@ && @['x-completeness'])]",
                "then": {"field": "operationId", "function": "truthy"},
            },
        }
    }


def text() -> str:
    return HEADER + yaml.safe_dump(ruleset(), sort_keys=False, width=100, allow_unicode=True)


if __name__ == "__main__":
    RULESET.write_text(text(), encoding="utf-8")
    print(f"wrote {RULESET.relative_to(ROOT)}")
