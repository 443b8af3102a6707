#!/usr/bin/env bash
# x-completeness in CI: check (SARIF file + annotations) and generate --check, one exit status.
# Used by action.yml; runs the same in any shell (docs/ci.md). Inputs, from the environment:
#   XC_SPEC       the OpenAPI document (required)
#   XC_OVERLAYS   overlay files, separated by spaces or newlines (optional)
#   XC_SARIF      where to write the SARIF log (default: xcompleteness.sarif)
#   XC_OUTPUT     the generated output folder to compare with (optional: no drift check without it)
#   XC_PACKAGE    the generated package's name (with XC_OUTPUT)
#   XC_STRICT     "true": warnings fail the check too
#   XC_INSTALL    pip requirement to install first (optional; empty: use the xcompleteness on PATH)
#   XC_ANNOTATE   "true" (default under GitHub Actions): also print ::error annotation lines
# Writes sarif=PATH, check=STATUS, drift=STATUS to $GITHUB_OUTPUT when it is set.
# Exit status: 0 clean, 1 findings or drift, 2 unusable input (the largest of the steps').
set -u

if [ -z "${XC_SPEC:-}" ]; then
  echo "xcompleteness-ci: XC_SPEC (the spec to check) is required" >&2
  exit 2
fi
sarif="${XC_SARIF:-xcompleteness.sarif}"
annotate="${XC_ANNOTATE:-${GITHUB_ACTIONS:-false}}"

if [ -n "${XC_INSTALL:-}" ]; then
  python -m pip install --quiet "${XC_INSTALL}" || exit 2
fi

overlays=()
for f in ${XC_OVERLAYS:-}; do
  overlays+=(--overlay "$f")
done
strict=()
if [ "${XC_STRICT:-false}" = "true" ]; then
  strict=(--strict)
fi

xcompleteness check "$XC_SPEC" "${overlays[@]}" "${strict[@]}" --format sarif > "$sarif"
check=$?
if [ "$annotate" = "true" ]; then
  xcompleteness check "$XC_SPEC" "${overlays[@]}" "${strict[@]}" --format github --quiet
fi
echo "xcompleteness check: exit $check; SARIF log in $sarif" >&2

drift=0
if [ -n "${XC_OUTPUT:-}" ]; then
  package=()
  if [ -n "${XC_PACKAGE:-}" ]; then
    package=(--package "$XC_PACKAGE")
  fi
  xcompleteness generate "$XC_SPEC" "${overlays[@]}" -o "$XC_OUTPUT" "${package[@]}" --check --quiet
  drift=$?
  echo "xcompleteness generate --check: exit $drift" >&2
fi

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  { echo "sarif=$sarif"; echo "check=$check"; echo "drift=$drift"; } >> "$GITHUB_OUTPUT"
fi
status=$check
if [ "$drift" -gt "$status" ]; then
  status=$drift
fi
exit "$status"
