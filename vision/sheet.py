"""The printable marker sheet: every board's markers at their real size, labelled, plus grey patches.

Pages are drawn at ``dpi`` on A4 (or any paper size) and written as a PNG
(one file per page, with the DPI recorded in the file so printers keep the
scale) or as one PDF.  Each page carries a 100 mm ruler to check the print
scale, each marker its id and side in millimetres, each board a grey/white
reference patch to stick on the board where its layout says.
"""
from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np

from . import lens
from .layout import Layout
from .markers import DICTIONARY_NAME, marker_image

PATCH_GREY = 128      # the printed grey of the reference patch (the white half is the paper)


def _mm(v: float, dpi: int) -> int:
    return int(round(v / 25.4 * dpi))


def _text(img, text, x, y, dpi, scale=1.0):
    size = dpi / 300 * 0.9 * scale
    cv2.putText(img, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, size, 0, max(1, int(size * 2)), cv2.LINE_AA)


def pages(layouts: list[Layout], dpi: int = 300, paper_mm: tuple[float, float] = (210, 297),
          margin_mm: float = 12) -> list[np.ndarray]:
    """The sheet's pages (greyscale images at ``dpi``)."""
    w, h = _mm(paper_mm[0], dpi), _mm(paper_mm[1], dpi)
    m = _mm(margin_mm, dpi)
    out: list[np.ndarray] = []
    page, y = None, 0

    def new_page():
        nonlocal page, y
        page = np.full((h, w), 255, np.uint8)
        out.append(page)
        _text(page, f"Tofu Table markers ({DICTIONARY_NAME}). Print at 100 % (no 'fit to page'): "
                    "the bar below must measure 100 mm.", m, m + _mm(4, dpi), dpi, 0.8)
        bar_y = m + _mm(8, dpi)
        cv2.rectangle(page, (m, bar_y), (m + _mm(100, dpi), bar_y + _mm(3, dpi)), 0, -1)
        for k in range(11):
            x = m + _mm(10 * k, dpi)
            cv2.line(page, (x, bar_y), (x, bar_y + _mm(6, dpi)), 0, max(1, dpi // 150))
        y = bar_y + _mm(14, dpi)

    new_page()
    room = h - m - y                    # a page's room for boards, below its ruler
    for layout in layouts:
        sizes = [s for (_, _, s) in layout.markers.values()]
        row_h = _mm(max(sizes) * 4 / 3 + 12, dpi)      # marker, its white border, its label
        per_row = max(1, (w - 2 * m) // (_mm(max(sizes) * 4 / 3 + 6, dpi)))
        rows = -(-(len(sizes) + (1 if layout.patch else 0)) // per_row)
        block = rows * row_h + _mm(8, dpi)
        first = row_h + _mm(8, dpi)       # a board's markers stay on one page when they fit on one
        if y + (block if block <= room else first) > h - m:
            new_page()
        _text(page, f"{layout.board}: {len(layout.markers)} markers, stick them where the layout says "
                    f"(patch: {'yes' if layout.patch else 'none'})", m, y, dpi)
        x = m
        top = y + _mm(5, dpi)

        def next_row(top, row_h=row_h):
            """Where the next row of markers starts: below this one, or on a new page."""
            if top + 2 * row_h <= h - m:
                return top + row_h
            new_page()
            return y + _mm(5, dpi)
        for mid, (_, _, side) in sorted(layout.markers.items()):
            px = _mm(side, dpi)
            quiet = _mm(side / 6, dpi)
            if x + px + 2 * quiet > w - m:
                x, top = m, next_row(top)
            page[top + quiet:top + quiet + px, x + quiet:x + quiet + px] = marker_image(mid, px)
            cv2.rectangle(page, (x, top), (x + px + 2 * quiet, top + px + 2 * quiet), 180, 1)   # cut line
            _text(page, f"id {mid}  {side:g} mm", x, top + px + 2 * quiet + _mm(5, dpi), dpi, 0.8)
            x += px + 2 * quiet + _mm(6, dpi)
        if layout.patch:
            _, _, pw, ph = layout.patch
            if x + _mm(pw, dpi) > w - m:
                x, top = m, next_row(top)
            px, py = _mm(pw, dpi), _mm(ph, dpi)
            page[top:top + py, x:x + px // 2] = PATCH_GREY
            cv2.rectangle(page, (x, top), (x + px, top + py), 0, 1)
            _text(page, f"patch {pw:g} x {ph:g} mm", x, top + py + _mm(5, dpi), dpi, 0.8)
        y = top + row_h + _mm(6, dpi)
    return out


def lens_page(dpi: int = 300, paper_mm: tuple[float, float] = (210, 297), margin_mm: float = 12) -> np.ndarray:
    """The ChArUco sheet for ``tofu-table vision lens``, on the paper turned sideways (greyscale at ``dpi``)."""
    w, h = _mm(max(paper_mm), dpi), _mm(min(paper_mm), dpi)
    m = _mm(margin_mm, dpi)
    page = np.full((h, w), 255, np.uint8)
    art = lens.board_image(dpi / 25.4)
    _text(page, "Tofu Table lens sheet (ChArUco). Keep it flat (tape it to card); any print scale works.",
          m, m - _mm(3, dpi), dpi, 0.8)
    y, x = (h - art.shape[0]) // 2, (w - art.shape[1]) // 2
    page[y:y + art.shape[0], x:x + art.shape[1]] = art
    return page


def write_png(img: np.ndarray, path: str | Path, dpi: int) -> None:
    """A PNG that records its DPI (a pHYs chunk), so it prints at the right size."""
    ok, buf = cv2.imencode(".png", img)
    data = buf.tobytes()
    ppm = int(round(dpi / 0.0254))
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    Path(path).write_bytes(data[:33] + chunk + data[33:])     # right after the IHDR chunk


def write_pdf(images: list[np.ndarray], path: str | Path, dpi: int) -> None:
    """A PDF with one page per image, each page exactly the image's size at ``dpi``."""
    objects: list[bytes] = []
    kids = []
    for img in images:
        h, w = img.shape[:2]
        pw, ph = w * 72 / dpi, h * 72 / dpi
        n = len(objects) + 3                      # objects 1 and 2 are the catalog and the page tree
        stream = zlib.compress(np.ascontiguousarray(img).tobytes())
        objects.append(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
                       b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n" % (w, h, len(stream))
                       + stream + b"\nendstream")
        content = b"q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q" % (pw, ph)
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Resources << /XObject "
                       b"<< /Im0 %d 0 R >> >> /Contents %d 0 R >>" % (pw, ph, n, n + 1))
        kids.append(n + 2)
    head = [b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % k for k in kids), len(kids))]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, obj in enumerate(head + objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(offsets) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(offsets) + 1, xref)
    Path(path).write_bytes(bytes(out))
