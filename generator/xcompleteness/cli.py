"""The ``xcompleteness`` command line: ``check``, ``audit``, ``generate``.

Exit codes (documented in docs/cli.md): 0 clean, 1 findings (errors, or warnings with
``--strict``; drift for ``generate --check``), 2 unusable input or bad arguments.
No input ever produces a Python traceback: unexpected internal errors are reported as
``XC000`` with exit code 2 and a request to file a bug.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from collections.abc import Sequence

from xcompleteness._version import __version__
from xcompleteness.diagnostics import (
    Diagnostic,
    ExitCode,
    InputError,
    Severity,
    render_json,
    render_text,
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse exits 2 on bad arguments, like us
        self.print_usage(sys.stderr)
        self.exit(int(ExitCode.UNUSABLE), f"{self.prog}: error: {message}\n")


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", help="OpenAPI document (YAML or JSON)")
    p.add_argument(
        "--overlay",
        action="append",
        default=[],
        metavar="FILE",
        help="OpenAPI Overlay 1.0 file applied before anything else (repeatable, in order)",
    )
    p.add_argument("--format", choices=("text", "json"), default="text", help="diagnostic format")
    p.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no progress line and no summary (progress shows only on a terminal, not in CI)",
    )
    p.add_argument(
        "--allow-external-refs",
        action="store_true",
        help="allow $refs to other files inside the spec's folder (never the network)",
    )


def _iso_date(text: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a calendar date: {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="xcompleteness", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    check = sub.add_parser("check", help="validate a spec and its x-completeness declarations")
    _common(check)
    check.add_argument("--strict", action="store_true", help="warnings fail the check (exit 1)")
    check.add_argument(
        "--today",
        type=_iso_date,
        default=None,
        metavar="YYYY-MM-DD",
        help="date used for review-by checks (default: the current date), for reproducible CI",
    )
    check.add_argument(
        "--show-effective",
        metavar="OPERATION_ID",
        help="print the declaration of one operation with the document defaults merged in",
    )

    audit = sub.add_parser(
        "audit", help="find list/search/aggregate operations without a declaration"
    )
    _common(audit)
    audit.add_argument("--emit-overlay", metavar="FILE", help="write a draft Overlay 1.0 file")

    gen = sub.add_parser("generate", help="generate models, client, tools and MCP server")
    _common(gen)
    gen.add_argument("-o", "--output", required=True, metavar="OUT", help="output folder")
    gen.add_argument(
        "--package", default=None, metavar="NAME", help="package name (default: from title)"
    )
    gen.add_argument(
        "--check", action="store_true", help="compare with disk; exit 1 with a diff on drift"
    )
    gen.add_argument(
        "--tests", action="store_true", help="also write OUT/tests/: contract tests on the mock"
    )
    gen.add_argument(
        "--no-cache",
        action="store_true",
        help="always regenerate; do not read or write the cache (docs/generate.md)",
    )
    _register_testkit(sub)
    return parser


def _register_testkit(sub: argparse._SubParsersAction) -> None:
    """``mock`` and ``verify`` (docs/testing.md); their logic lives in mock.py / verify.py."""
    mock = sub.add_parser("mock", help="serve a spec's listings on loopback with injected faults")
    _common(mock)
    mock.add_argument("--faults", metavar="PLAN", default=None, help="fault plan (YAML or JSON)")
    mock.add_argument("--port", type=int, required=True, help="TCP port (0 picks a free one)")
    mock.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")

    verify = sub.add_parser("verify", help="drive a live API read-only and report violations")
    _common(verify)
    from xcompleteness.verify import add_arguments

    add_arguments(verify)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "check":
            from xcompleteness.check import run_check

            return int(run_check(args))
        if args.command == "audit":
            from xcompleteness.audit import run_audit

            return int(run_audit(args))
        if args.command == "mock":
            from xcompleteness.mock import run_mock

            return int(run_mock(args))
        if args.command == "verify":
            from xcompleteness.verify import run_verify

            return int(run_verify(args))
        from xcompleteness.generate import run_generate

        return int(run_generate(args))
    except InputError as exc:
        _emit(list(exc.diagnostics), args.format)
        return int(ExitCode.UNUSABLE)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 - the last line of defence against tracebacks
        diag = Diagnostic(
            file=str(getattr(args, "spec", "")),
            pointer="",
            code="XC000",
            severity=Severity.ERROR,
            message=f"internal error: {type(exc).__name__}: {exc}",
            hint="this is a bug in xcompleteness; please report it with the input that caused it",
        )
        _emit([diag], getattr(args, "format", "text"))
        return int(ExitCode.UNUSABLE)


def _emit(diagnostics: list[Diagnostic], fmt: str) -> None:
    out = render_json(diagnostics) if fmt == "json" else render_text(diagnostics)
    print(out, file=sys.stdout if fmt == "json" else sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
