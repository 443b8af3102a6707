"""Host credentials never reach the model: one scrubber for every tool answer, one re-binder for
the continuations the model sends back.

Why one mechanism and not a mask per message: an API may echo what it was sent anywhere. Its
next link (``Link: <...?page=2&key=SECRET>``, a body ``next`` URL) becomes the continuation
cursor the model is handed; an error body may quote the request URL or the bearer token; an item
may carry a signed URL. The host (:class:`.tooling.ToolHost`) passes every answer through
:meth:`Redactor.scrub` before the model sees it, and every continuation the model sends back
through :meth:`Redactor.rebind`, so the credential never travels through the model and a resumed
walk runs under the host's credential, whatever the continuation carried.

What counts as a host secret (:meth:`Redactor.of`, from the client the host calls through):

- every value of the client's query parameters (``--query`` / ``--query-env``, ``params=``);
- the value of every credential header (``Authorization``, ``Proxy-Authorization``, ``Cookie``
  and any header whose name holds ``auth``, ``token``, ``key``, ``secret``, ``session``,
  ``password``, ``signature`` or ``credential``): the whole value, the credential after its
  scheme word (``Bearer abc`` -> ``abc``), a Basic credential's decoded ``user:password`` and
  password, and each cookie's value;
- the password of the base URL's userinfo;
- the body credentials the host supplies (``--body-field``).

What :meth:`Redactor.scrub` replaces with ``***`` in every string of an answer (keys too):

- each secret of at least :data:`MIN_SECRET_CHARS` characters, raw or percent-encoded in any mix
  (either hex case, double-encoded, ``+`` for a space, JSON-escaped quote or backslash): shorter
  values are no secret worth the name, and replacing them everywhere would rewrite the data;
- the head of such a secret (:data:`MIN_HEAD_CHARS` characters or more) where a string ends or
  an ellipsis follows: what a message cut at its length limit leaves of it;
- the value of every host query parameter in a URL (``?key=...``, ``&key=...``, the name
  percent-encoded or not), whatever its length or value;
- the same inside the client's own continuation tokens (``xc1.``: decoded, scrubbed, written
  again), which are base64 and would otherwise carry a next URL unseen.

:meth:`Redactor.rebind` drops every host query parameter from a URL continuation (plain or
inside an ``xc1.`` token); the client then adds the host's own value to each request
(:meth:`.operations._ClientCore.with_params`). A model that writes ``key=...`` into a
continuation therefore cannot choose the principal either.

- each such secret (as sent or percent-encoded in any mix: the longest run of characters a URL
  never escapes stands for it when it is long enough) in the encodings servers wrap what they
  echo in: hexadecimal (either case) and base64 (standard or URL-safe alphabet, padded or not),
  wherever it sits inside a longer encoded text (an opaque cursor that is base64 of a URL or a
  JSON object holding the key). Base64 writes three bytes as four characters, so a secret inside
  a longer text is written one of three ways, by its offset; each way has a stretch of at least
  ten characters that depends on the secret alone, and that stretch is what is looked for. Where
  it is found, the whole encoded run around it (the characters of either alphabet, ``%``-escapes
  and trailing ``=``) becomes ``***``: a part left standing could be decoded back to a part of
  the secret.

Not covered: an encoding the host cannot know (encryption, compression, a custom alphabet, a
secret shorter than :data:`MIN_SECRET_CHARS`). A scrubbed opaque cursor (``***``) cannot be
resumed; the API refuses it, the credential stays with the host.

Standard library only: copied verbatim into generated packages.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import unquote, unquote_plus, urlsplit

from .walk_continuations import ContinuationMismatch, decode_continuation, encode_continuation

__all__ = ["MASK", "MIN_SECRET_CHARS", "Redactor", "encoded_forms", "is_credential_header"]

MASK = "***"
MIN_SECRET_CHARS = 8
_CREDENTIAL_WORDS = (
    "auth",
    "token",
    "key",
    "secret",
    "session",
    "cookie",
    "password",
    "signature",
    "credential",
)
_TOKEN_PREFIX = "xc1."


def is_credential_header(name: str) -> bool:
    """True for a header that carries a credential (folded: ``X-Api-Key`` is ``xapikey``)."""
    folded = name.lower().replace("-", "").replace("_", "")
    return any(word in folded for word in _CREDENTIAL_WORDS)


def _header_secrets(name: str, value: str) -> list[str]:
    out = [value]
    if name.lower() == "cookie":
        out += [part.split("=", 1)[1] for part in value.split(";") if "=" in part]
        return out
    scheme, sep, credential = value.strip().partition(" ")
    if sep:
        out.append(credential.strip())
        if scheme.lower() == "basic":
            try:
                pair = base64.b64decode(credential.strip(), validate=True).decode("utf-8")
            except (binascii.Error, ValueError):
                pair = ""
            out += [pair, pair.partition(":")[2]] if pair else []
    return out


def _char_pattern(ch: str) -> str:
    """``ch`` as written, or percent-encoded in either hex case (once or twice), ``+`` for a
    space, or JSON-escaped (a quote or backslash)."""

    def hexcase(byte: int) -> str:
        return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else c for c in f"{byte:02X}")

    encoded = "".join("%(?:25)?" + hexcase(b) for b in ch.encode("utf-8"))
    options = [re.escape(ch), encoded]
    if ch == " ":
        options.append(r"\+")
    if ch in '"\\':
        options.append(re.escape("\\" + ch))
    return "(?:" + "|".join(options) + ")"


MIN_HEAD_CHARS = 6
_AT_END = r'(?=(?:\u2026|\.\.\.)?(?:"|$))'


def _head_pattern(value: str) -> str:
    """The first MIN_HEAD_CHARS characters of ``value`` or more (each optional in turn)."""
    chars = [_char_pattern(c) for c in value[:-1]]
    tail = ""
    for c in reversed(chars[MIN_HEAD_CHARS:]):
        tail = f"(?:{c}{tail})?"
    return "".join(chars[:MIN_HEAD_CHARS]) + tail


def _name_pattern(name: str) -> str:
    return "".join(_char_pattern(c) for c in name)


_B64_STD_TO_URL = str.maketrans("+/", "-_")


_UNRESERVED = re.compile(r"[A-Za-z0-9._~-]+")


def _wire_forms(secret: str) -> set[str]:
    """What of ``secret`` any percent-encoding of it (in any mix) holds: itself when it has only
    characters a URL never escapes (most API keys), else its longest run of such characters when
    that is :data:`MIN_SECRET_CHARS` long, else the secret as sent and escaped the usual ways."""
    from urllib.parse import quote, quote_plus

    longest = max(_UNRESERVED.findall(secret), key=len, default="")
    if longest == secret or len(longest) >= MIN_SECRET_CHARS:
        return {longest}
    return {secret, quote(secret), quote(secret, safe=""), quote_plus(secret)}


def encoded_forms(secret: str) -> set[str]:
    """The stretches of text a server's hex or base64 of ``secret`` (as sent, or percent-encoded
    in any mix: :func:`_wire_forms`) always holds, wherever the secret sits in the encoded bytes:
    its hex in either case, and for each of base64's three offsets the characters that depend on
    the secret's bytes alone, in the standard and the URL-safe alphabet."""
    out: set[str] = set()
    for data in {form.encode("utf-8") for form in _wire_forms(secret)}:
        out |= {data.hex(), data.hex().upper()}
        bits = 8 * len(data)
        for lead in range(3):  # the secret starts at byte 0, 1 or 2 of a 3-byte group
            text = base64.b64encode(b"\0" * lead + data).decode("ascii")
            # character i holds bits 6i..6i+5: those inside the secret's bits only
            start, end = -(-8 * lead // 6), (8 * lead + bits) // 6
            stretch = text[start:end]
            out |= {stretch, stretch.translate(_B64_STD_TO_URL)}
    return out


def _encoded_pattern(stretch: str) -> str:
    """A hex/base64 stretch as written, its ``+`` and ``/`` also percent-encoded (in a URL)."""
    return "".join(_char_pattern(c) if c in "+/" else c for c in stretch)


_ENCODED_RUN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_%")


def _encoded_run(text: str, start: int, end: int, floor: int) -> tuple[int, int]:
    """The span of the hex/base64 run around ``text[start:end]`` (never before ``floor``), its
    ``=`` padding (plain or ``%3D``) included: one linear scan each way."""
    while start > floor and text[start - 1] in _ENCODED_RUN:
        start -= 1
    while end < len(text) and text[end] in _ENCODED_RUN:
        end += 1
    while end < len(text) and text[end] == "=":
        end += 1
    return start, end


class Redactor:
    """Scrubs host secrets out of what the model sees; re-binds continuations it sends back."""

    def __init__(self, secrets: Iterable[str], param_names: Iterable[str] = ()) -> None:
        values = sorted(
            {s for s in secrets if isinstance(s, str) and len(s) >= MIN_SECRET_CHARS},
            key=lambda s: (-len(s), s),  # the longest first: a value that holds another
        )
        self.param_names = frozenset(str(n) for n in param_names)
        parts = ["".join(_char_pattern(c) for c in v) for v in values]
        # hex/base64 of a secret: the whole encoded run around it is masked. Only the secrets
        # that hold no other: an encoding of ``Bearer TOKEN`` holds one of TOKEN's stretches.
        inner = [v for v in values if not any(o != v and o in v for o in values)]
        encoded = sorted({f for v in inner for f in encoded_forms(v)}, key=lambda f: (-len(f), f))
        if encoded:
            parts.append("(?P<enc>" + "|".join(_encoded_pattern(f) for f in encoded) + ")")
        # A secret cut short by a message's length limit still shows its head: the head (at
        # least MIN_HEAD_CHARS) where a string ends, or an ellipsis or a JSON quote follows.
        parts += [_head_pattern(v) + _AT_END for v in values if len(v) > MIN_HEAD_CHARS]
        if self.param_names:
            names = "|".join(_name_pattern(n) for n in sorted(self.param_names, key=len)[::-1])
            # ``?key=VALUE`` / ``&key=VALUE``: the value up to the next separator of a URL
            parts.append(rf"(?<=[?&;])(?P<name>{names})=[^&#\s\"'<>\\]*")
        self._pattern = re.compile("|".join(parts)) if parts else None
        # Literal needles, one of which any match holds once its text is percent-decoded (twice):
        # a cheap test (C-level substring scans) that spares the pattern nearly every answer.
        needles = {v[:MIN_HEAD_CHARS] for v in values}
        needles |= {v[:MIN_HEAD_CHARS].replace(" ", "+") for v in values}
        needles |= {json.dumps(v[:MIN_HEAD_CHARS])[1:-1] for v in values}
        needles |= {f"{sep}{n}=" for n in self.param_names for sep in "?&;"}
        needles |= set(encoded)
        self._needles = tuple(sorted(needles))
        self._needle = re.compile("|".join(re.escape(n) for n in self._needles))

    @classmethod
    def of(cls, client: Any, more: Iterable[str] = ()) -> Redactor:
        """The secrets of a generated client (its query parameters, its credential headers and
        the password of its base URL) and ``more`` (the host's body credentials)."""
        params = {str(k): str(v) for k, v in (getattr(client, "params", None) or {}).items()}
        secrets = [*params.values(), *(str(v) for v in more)]
        for name, value in (getattr(client, "headers", None) or {}).items():
            if is_credential_header(str(name)):
                secrets += _header_secrets(str(name), str(value))
        password = urlsplit(str(getattr(client, "base_url", ""))).password
        if password:
            secrets.append(password)
        return cls(secrets, params)

    @property
    def active(self) -> bool:
        return self._pattern is not None

    # -- toward the model -------------------------------------------------------------------

    def scrub(self, value: Any) -> Any:
        """``value`` (a JSON-like answer) with every host secret replaced by ``***``; the same
        object when nothing matched (one scan of its JSON text decides)."""
        if self._pattern is None:
            return value
        text = json.dumps(value, ensure_ascii=False, default=str)
        if _TOKEN_PREFIX not in text and not self._suspect(text):
            return value
        return self._walk(value)

    def _suspect(self, text: str) -> bool:
        """Whether ``text`` may hold a secret (never False when the pattern would match)."""
        if "%" in text:
            text = unquote(unquote(text))
        return any(needle in text for needle in self._needles)

    def _walk(self, value: Any) -> Any:
        if isinstance(value, str):
            return self._text(value)
        if isinstance(value, Mapping):
            return {
                self._text(k) if isinstance(k, str) else k: self._walk(v) for k, v in value.items()
            }
        if isinstance(value, (list, tuple)):
            return [self._walk(v) for v in value]
        return value

    def _text(self, text: str) -> str:
        assert self._pattern is not None
        if text.startswith(_TOKEN_PREFIX):
            return self._token(text, self._scrub_state, self._mask)
        return self._mask(text)

    def _mask(self, text: str) -> str:
        assert self._pattern is not None
        if self._needle.search(unquote(unquote(text)) if "%" in text else text) is None:
            return text  # the cheap test, per string (one C-level scan)
        pieces: list[str] = []
        done = 0  # text[:done] is in pieces
        for match in self._pattern.finditer(text):
            start, end = match.span()
            if start < done:
                continue  # inside an encoded run masked already
            if match.groupdict().get("enc") is not None:
                start, end = _encoded_run(text, start, end, done)
            pieces += [text[done:start], self._replace(match)]
            done = end
        return "".join(pieces) + text[done:] if pieces else text

    @staticmethod
    def _replace(match: re.Match[str]) -> str:
        name = match.groupdict().get("name")
        return MASK if name is None else f"{name}={MASK}"  # a URL parameter keeps its name

    def _scrub_state(self, state: dict[str, Any]) -> dict[str, Any]:
        return {k: self._walk(v) for k, v in state.items()}

    # -- from the model ---------------------------------------------------------------------

    def rebind(self, continuation: Any) -> Any:
        """A continuation the model sent, with every host query parameter dropped from the URL
        it holds (plain or inside an ``xc1.`` token): the client adds the host's own."""
        if not self.param_names or not isinstance(continuation, str):
            return continuation
        if continuation.startswith(_TOKEN_PREFIX):
            return self._token(continuation, self._rebind_state, self._drop_params)
        return self._drop_params(continuation)

    def _rebind_state(self, state: dict[str, Any]) -> dict[str, Any]:
        if isinstance(state.get("c"), str):
            return {**state, "c": self._drop_params(state["c"])}
        return state

    def _drop_params(self, url: str) -> str:
        head, qmark, rest = url.partition("?")
        if not qmark:
            return url
        query, hash_, fragment = rest.partition("#")
        kept = [
            part
            for part in query.split("&")
            if unquote_plus(part.split("=", 1)[0]) not in self.param_names
        ]
        if len(kept) == len(query.split("&")):
            return url
        return head + ("?" + "&".join(kept) if kept else "") + hash_ + fragment

    @staticmethod
    def _token(text: str, change: Any, fallback: Any) -> str:
        """An ``xc1.`` client continuation with its state changed by ``change`` (written again
        only when it changed; a token that does not decode is left to the walk to refuse)."""
        try:
            state = decode_continuation(text)
        except ContinuationMismatch:
            state = None
        if state is None:  # not ours after all: plain text
            return fallback(text)
        changed = change(state)
        return text if changed == state else encode_continuation(changed)
