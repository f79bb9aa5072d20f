"""Who may reach the table from a browser: Host and Origin checks, and the pages' security headers.

DNS rebinding gives an attacker's page a name that resolves to the table, so the Host
header must be one of the table's own names; a page from another origin must not drive
the table from a visitor's browser, so an Origin, when sent, must be the table itself.
Both checks wrap the whole WSGI app, so they cover the Socket.IO handshake too.
"""
from __future__ import annotations

import ipaddress
import json
import socket
from urllib.parse import urlsplit

#: Sent with every response: no framing, no referrer (tokens travel in URLs), no sniffing.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; "
                               "style-src 'self' 'unsafe-inline'; script-src 'self'; "
                               "connect-src 'self'; object-src 'none'; base-uri 'none'; "
                               "form-action 'self'; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


def _host_name(netloc: str) -> str:
    """``netloc`` without its port (and without the brackets of an IPv6 address)."""
    if netloc.startswith("["):
        return netloc[1:netloc.find("]")] if "]" in netloc else netloc
    return netloc.rsplit(":", 1)[0] if netloc.count(":") == 1 else netloc


def table_names(public_url: str | None) -> set[str]:
    """The names the table answers to besides IP addresses (which cannot be rebound)."""
    names = {"localhost", socket.gethostname().lower(), socket.gethostname().lower() + ".local"}
    if public_url:
        names.add(_host_name(urlsplit(public_url).netloc).lower())
    return names


def host_allowed(netloc: str, names: set[str]) -> bool:
    """True for an IP address or one of ``names`` (any port)."""
    host = _host_name(netloc).lower().rstrip(".")
    if host in names:
        return True
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


class Guard:
    """WSGI middleware: refuse a foreign Host or Origin (403), add the security headers."""

    def __init__(self, app, public_url: str | None):
        self.app = app
        self.names = table_names(public_url)
        self.public_origin = public_url.rstrip("/") if public_url else None

    def _refusal(self, environ) -> tuple[str, str] | None:
        host = environ.get("HTTP_HOST", "")
        if not host_allowed(host, self.names):
            return "foreign_host", ("This table answers only to its own addresses; open it by its "
                                    "IP address or name as printed at start.")
        origin = environ.get("HTTP_ORIGIN")
        if origin and origin != "null" and urlsplit(origin).netloc != host and origin != self.public_origin:
            return "foreign_origin", "Pages from other sites may not use this table."
        return None

    def __call__(self, environ, start_response):
        refusal = self._refusal(environ)
        if refusal is not None:
            body = json.dumps({"error": {"code": refusal[0], "message": refusal[1]}}).encode()
            start_response("403 FORBIDDEN", [("Content-Type", "application/json"),
                                             ("Content-Length", str(len(body))),
                                             *SECURITY_HEADERS.items()])
            return [body]

        def with_headers(status, headers, exc_info=None):
            present = {k.lower() for k, _ in headers}
            headers = list(headers) + [(k, v) for k, v in SECURITY_HEADERS.items() if k.lower() not in present]
            return start_response(status, headers, exc_info)
        return self.app(environ, with_headers)
