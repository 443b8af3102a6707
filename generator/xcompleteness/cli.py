"""The xcompleteness command line: check, audit, generate, mock and verify.

Exit codes (documented in docs/cli.md): 0 clean, 1 findings (errors, or warnings with
``--strict``; drift for ``generate --check``), 2 unusable input or bad arguments.
No input ever produces a Python traceback: unexpected internal errors are reported as
``XC000`` with exit code 2 and a request to file a bug.

This module only parses arguments, calls :mod:`xcompleteness.api` and formats its results
(text on stderr; JSON, SARIF 2.1.0 or GitHub annotation lines on stdout): every decision and
every exit code comes from the api.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from xcompleteness import api
from xcompleteness._version import __version__
from xcompleteness.diagnostics import (
    Diagnostic,
    ExitCode,
    InputError,
    Severity,
    exception_text,
    library_failure,
    render_json,
    render_text,
)
from xcompleteness.progress import Progress
from xcompleteness.sarif import BASE_CODES, CodeHelp, render_github, render_sarif

FORMATS = ("text", "json", "sarif", "github")
_MACHINE = ("json", "sarif", "github")  # formats written to stdout

_EPILOG = """Run 'xcompleteness COMMAND --help' for a command's options.
Exit codes: 0 clean, 1 findings (or drift for generate --check), 2 unusable input.
Documentation: docs/cli.md."""

__all__ = [
    "build_parser",
    "main",
    "run_audit",
    "run_check",
    "run_generate",
    "run_mock",
    "run_verify",
]


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
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="diagnostic format: text (stderr), json, sarif (SARIF 2.1.0) or github (workflow "
        "annotation lines) on stdout",
    )
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
    parser = _Parser(
        prog="xcompleteness",
        description="OpenAPI completeness contracts: check, audit, generate, mock and verify.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(
        dest="command", required=True, parser_class=_Parser, metavar="COMMAND"
    )

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
    audit.add_argument(
        "--force", action="store_true", help="let --emit-overlay replace an existing file"
    )
    audit.add_argument(
        "--responses",
        metavar="FILE|DIR",
        help="cross-check the drafts against recorded responses (a HAR file or a folder of "
        "saved JSON pages); secrets in them are never printed or copied",
    )

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
        "--tools",
        action="append",
        default=[],
        metavar="SELECTOR",
        help="agent tools only for these operations: operationId, tool name, OpenAPI tag or glob "
        "(repeat or comma-separate); mutations and the listings whose evidence they need come "
        "together (docs/agents.md)",
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
    verify.add_argument("--base-url", help="base URL of the live API (http or https)")
    verify.add_argument(
        "--recorded",
        metavar="FILE|DIR",
        help="walk recorded traffic offline instead of a live API (a HAR file or a folder of "
        "saved JSON pages); the same XC71x findings as a live run",
    )
    verify.add_argument(
        "--auth-header",
        action="append",
        type=_header,
        default=[],
        metavar="'K: V'",
        help="header sent with every request (repeatable)",
    )
    verify.add_argument(
        "--param",
        action="append",
        type=_param,
        default=[],
        metavar="NAME=VALUE",
        help="value for a required parameter (repeatable)",
    )
    verify.add_argument("--max-pages", type=int, default=20, help="pages per walk (default 20)")
    verify.add_argument(
        "--time-limit", type=float, default=60.0, help="seconds for the whole run (default 60)"
    )


def _header(text: str) -> tuple[str, str]:
    name, sep, value = text.partition(":")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected 'Name: value', got {text!r}")
    return name.strip(), value.strip()


def _param(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name, value


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    commands = {
        "check": run_check,
        "audit": run_audit,
        "generate": run_generate,
        "mock": run_mock,
        "verify": run_verify,
    }
    from xcompleteness.load import documents_live_with_the_process

    try:
        # one run, one process (see there); check only reads its document after loading
        with documents_live_with_the_process(pause_collector=args.command == "check"):
            code = int(commands[args.command](args))
        sys.stdout.flush()  # a closed pipe is found here, not in the interpreter's last flush
        return code
    except InputError as exc:  # raised outside the api: mock's server (XC705, XC706)
        _emit(list(exc.diagnostics), args.format)
        return int(ExitCode.UNUSABLE)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # ``| head``: the reader left; nothing more can be said
        _silence_closed_streams()
        return int(ExitCode.UNUSABLE)
    except BaseException as exc:  # noqa: BLE001 - the last line of defence against tracebacks
        if not library_failure(exc):  # SystemExit and the like (KeyboardInterrupt is above)
            raise
        diag = Diagnostic(
            file=str(getattr(args, "spec", "")),
            pointer="",
            code="XC000",
            severity=Severity.ERROR,
            message=f"internal error: {type(exc).__name__}: {exception_text(exc)}",
            hint="this is a bug in xcompleteness; please report it with the input that caused it",
        )
        _emit([diag], getattr(args, "format", "text"))
        return int(ExitCode.UNUSABLE)


def _silence_closed_streams() -> None:
    """Point stdout and stderr at /dev/null, so the interpreter's final flush of a pipe whose
    reader has gone raises nothing (docs/cli.md: a closed output pipe ends the run with 2)."""
    null = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        try:
            os.dup2(null, stream.fileno())
        except (OSError, ValueError):  # not a real file (a host's StringIO): nothing to flush
            pass
    os.close(null)


def code_catalog() -> dict[str, CodeHelp]:
    """Every diagnostic code with its meaning, severity and docs page (SARIF's rules)."""
    from xcompleteness.declare import VOCABULARY_CODES
    from xcompleteness.rules import RULES

    catalog = dict(BASE_CODES)
    vocabulary = "docs/vocabulary.md#diagnostics-of-the-vocabulary-stage"
    for code, text in VOCABULARY_CODES.items():
        severity = Severity.WARNING if code == "XC051" else Severity.ERROR
        catalog[code] = CodeHelp(text, severity, vocabulary)
    for code, (severity, text) in RULES.items():
        catalog[code] = CodeHelp(text, severity, "docs/cli.md#codes-semantic-rules-xc1xx")
    return catalog


def _emit(diagnostics: Sequence[Diagnostic], fmt: str) -> None:
    """Diagnostics as text on stderr, or as JSON, SARIF or GitHub annotations on stdout."""
    if fmt == "json":
        out = render_json(diagnostics)
    elif fmt == "sarif":
        out = render_sarif(diagnostics, code_catalog(), version=__version__)
    elif fmt == "github":
        out = render_github(diagnostics)
        if not out:
            return
    else:
        out = render_text(diagnostics)
    print(out, file=sys.stdout if fmt in _MACHINE else sys.stderr)


def _note(text: str) -> None:
    print(text, file=sys.stderr)


# -- the commands: call the api, format its result, return its exit code ----------------------


def run_check(args: argparse.Namespace) -> ExitCode:
    """``xcompleteness check`` (exit codes: docs/cli.md)."""
    with Progress("check", quiet=args.quiet) as bar:
        report = api.check(
            args.spec,
            args.overlay,
            strict=args.strict,
            allow_external_refs=args.allow_external_refs,
            today=args.today,
            show_effective=args.show_effective,
            progress=bar.update,
        )
    if report.result is not None and report.exit_code is ExitCode.UNUSABLE:
        _note(render_text(report.diagnostics))  # --show-effective of an unknown operation
    elif args.format == "json":
        out = json.loads(render_json(report.diagnostics))
        if report.effective is not None:
            out["effective"] = report.effective
        print(json.dumps(out, indent=2, sort_keys=True))
    elif args.format in ("sarif", "github"):
        _emit(report.diagnostics, args.format)
        if report.summary and not args.quiet:
            _note(report.summary)
    else:
        if report.effective is not None:
            print(_yaml(report.effective), end="")
        if report.diagnostics:
            _note(render_text(report.diagnostics))
        if report.summary and not args.quiet:
            _note(report.summary)
    return report.exit_code


def _yaml(value: Any) -> str:
    import yaml

    return yaml.safe_dump(value, sort_keys=False, allow_unicode=True, width=100)


def run_audit(args: argparse.Namespace) -> ExitCode:
    """``xcompleteness audit``: the report on stdout, the summary on stderr."""
    with Progress("audit", quiet=args.quiet) as bar:
        result = api.audit(
            args.spec,
            args.overlay,
            allow_external_refs=args.allow_external_refs,
            emit_overlay=args.emit_overlay,
            force=args.force,
            responses=args.responses,
            progress=bar.update,
        )
    if result.report is None:
        _emit(result.diagnostics, args.format)
    elif args.format in ("sarif", "github"):
        _emit((*result.diagnostics, *result.findings), args.format)
        if not args.quiet:
            _note(result.summary)
    elif args.format == "json":
        out = result.report.to_json()
        if result.diagnostics:  # XC018: recorded entries or files that were not read
            out["diagnostics"] = json.loads(render_json(result.diagnostics))["diagnostics"]
        print(json.dumps(out, indent=2, sort_keys=True))
    else:
        print(result.report.to_text())
        if result.diagnostics:
            _note(render_text(result.diagnostics))
        if not args.quiet:
            _note(result.summary)
    return result.exit_code


def run_generate(args: argparse.Namespace) -> ExitCode:
    """``xcompleteness generate``: exit 0 written/in sync, 1 spec errors or drift, 2 unusable."""
    with Progress("generate", quiet=args.quiet) as bar:
        result = api.generate(
            args.spec,
            args.output,
            args.overlay,
            package=args.package,
            tests=args.tests,
            check=args.check,
            allow_external_refs=args.allow_external_refs,
            cache=not args.no_cache,
            progress=bar.update,
            tools=tuple(args.tools),
        )
    if not result.files:  # unusable input (exit 2) or refused: the spec has errors (exit 1)
        _emit(result.diagnostics, args.format)
        return result.exit_code
    # info diagnostics only for --check; the findings about OUT (XC604) come last, on their own
    found = [d for d in result.diagnostics if d not in result.write_diagnostics]
    shown = [d for d in found if d.severity is not Severity.INFO or args.check]
    if shown:
        _emit(shown, args.format)
    if result.write_diagnostics:
        _emit(result.write_diagnostics, args.format)
    elif args.check:
        sys.stdout.write(result.diff)
    else:
        _note(
            f"generated {len(result.files)} files in {result.out} "
            f"({len(result.written)} written, {len(result.unchanged)} unchanged, "
            f"{len(result.removed)} removed)"
        )
        if not args.quiet:
            _note(result.summary)
        for rel in result.kept:
            _note(f"kept {rel}: edited by hand since it was generated; remove it yourself")
    return result.exit_code


def run_verify(args: argparse.Namespace) -> ExitCode:
    """``xcompleteness verify``: diagnostics, then one summary line per listing walked."""
    result = api.verify(
        args.spec,
        args.base_url,
        args.overlay,
        headers=dict(args.auth_header),
        params=dict(args.param),
        max_pages=args.max_pages,
        time_limit=args.time_limit,
        allow_external_refs=args.allow_external_refs,
        recorded=args.recorded,
    )
    if args.format == "json":
        out = json.loads(render_json(result.diagnostics))
        out["operations"] = list(result.operations)
        print(json.dumps(out, indent=2, sort_keys=True))
    elif args.format in ("sarif", "github"):
        _emit(result.diagnostics, args.format)
        for line in result.summary:
            _note(line)
    else:
        if result.diagnostics:
            _note(render_text(result.diagnostics))
        for line in result.summary:
            _note(line)
    return result.exit_code


def run_mock(args: argparse.Namespace) -> ExitCode:
    """``xcompleteness mock``: serve until stopped (exit 2 on unusable input)."""
    from xcompleteness.testkit import listen, require_server, serve

    require_server()
    result = api.mock(
        args.spec, args.overlay, faults=args.faults, allow_external_refs=args.allow_external_refs
    )
    if result.api is None:
        _emit(result.diagnostics, args.format)
        return result.exit_code
    sock = listen(args.host, args.port)
    port = sock.getsockname()[1]
    host = f"[{args.host}]" if ":" in args.host else args.host
    listings = [op.id for op in result.api.ops if op.listing]
    _note(f"mock serving {len(listings)} listing(s): {', '.join(listings)}")
    serve(result.api, sock, on_ready=lambda: print(f"MOCK READY http://{host}:{port}", flush=True))
    return ExitCode.OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
