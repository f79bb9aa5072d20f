"""``tofu-table markers`` (the printable sheet) and ``tofu-table vision ...`` (the pipeline on still images).

    tofu-table markers -o markers.pdf [--boards shop,diet-1] [--dpi 300] [--paper a4|letter]
    tofu-table vision calibrate --layout FILE --empty IMAGE... --tokens IMAGE... --reference DIR [--lens FILE]
    tofu-table vision classify --layout FILE --reference DIR IMAGE... [--json] [--lens FILE]
    tofu-table vision check --layout FILE --reference DIR --truth FILE PHOTO_FOLDER [--json] [--lens FILE]
    tofu-table vision lens --sheet lens.pdf | PHOTO... | --camera [--views N] [--data DIR]

Only the parsers are here: every ``tofu-table`` command (``serve`` too) builds them, and the
commands themselves (vision/commands.py) need OpenCV, imported when one of them runs.
"""
from __future__ import annotations

PAPER_MM = {"a4": (210, 297), "letter": (215.9, 279.4), "a3": (297, 420)}


def add_parser(subparsers) -> None:
    """Add ``markers`` and ``vision`` to the tofu-table command."""
    p = subparsers.add_parser("markers", help="write the printable sheet of board markers and grey patches")
    p.add_argument("-o", "--output", default="markers.pdf", help="a .pdf, or a .png (one file per page)")
    p.add_argument("--boards", help="comma-separated board names (default: every layout)")
    p.add_argument("--data", help="data folder whose layouts to use (default: the shipped sample layouts)")
    p.add_argument("--dpi", type=int, default=300)
    p.add_argument("--paper", choices=sorted(PAPER_MM), default="a4")
    p.add_argument("--camera-height", type=float, metavar="METRES",
                   help="the camera's height above the table: say whether the markers are big enough")
    p.add_argument("--camera-width", type=int, default=1280,
                   help="picture width in pixels, of a 16:9 picture (default 1280: 1280x720)")
    p.add_argument("--fov", type=float, default=66.0,
                   help="the camera's horizontal field of view, degrees (default 66: Pi Camera Module 3)")
    p.add_argument("--tilt", type=float, default=0.0, metavar="DEGREES",
                   help="how far the camera leans from straight down (default 0); the far side gets smaller")
    p.add_argument("--area", default="1.6x0.9", metavar="WxD",
                   help="the play area the camera must cover, metres across x deep (default 1.6x0.9)")
    p.set_defaults(func=_later("markers"))

    v = subparsers.add_parser("vision", help="run the camera pipeline on still images")
    vsub = v.add_subparsers(dest="vision_command", required=True)
    c = vsub.add_parser("classify", help="print every slot's state and confidence for each image")
    c.add_argument("--layout", required=True, help="the board's layout file (JSON)")
    c.add_argument("--reference", required=True, help="folder with the board's colour reference (<board>.json)")
    c.add_argument("images", nargs="+")
    c.add_argument("--json", action="store_true", help="print JSON")
    _lens_option(c)
    c.set_defaults(func=_later("classify"))
    k = vsub.add_parser("calibrate", help="make a colour reference from still images")
    k.add_argument("--layout", required=True)
    k.add_argument("--empty", nargs="+", required=True, help="images of the empty board")
    k.add_argument("--tokens", nargs="+", required=True,
                   help="images with tokens laid as `--plan` prints (run it first)")
    k.add_argument("--reference", required=True, help="folder to write <board>.json into")
    _lens_option(k)
    k.set_defaults(func=_later("calibrate"))
    ch = vsub.add_parser("check", help="score the camera on photos whose true contents you wrote down")
    ch.add_argument("--layout", required=True)
    ch.add_argument("--reference", required=True)
    ch.add_argument("--truth", required=True,
                    help='JSON: {"photo.jpg": {"kitchen.1.1": "water", "kitchen.1.2": null, ...}, ...}')
    ch.add_argument("photos", help="the folder holding the photos")
    ch.add_argument("--json", action="store_true", help="print JSON")
    _lens_option(ch)
    ch.set_defaults(func=_later("check"))
    ln = vsub.add_parser("lens", help="calibrate the camera's lens with the printed ChArUco sheet")
    ln.add_argument("--sheet", metavar="FILE", help="write the sheet to print (.pdf or .png) and stop")
    ln.add_argument("--dpi", type=int, default=300)
    ln.add_argument("--paper", choices=sorted(PAPER_MM), default="a4")
    ln.add_argument("photos", nargs="*", help="photos of the sheet held at several angles and places")
    ln.add_argument("--camera", action="store_true", help="take the pictures with the configured camera")
    ln.add_argument("--views", type=int, default=12, help="--camera: how many different views to take")
    ln.add_argument("--timeout", type=float, default=180.0, help="--camera: give up after this many seconds")
    ln.add_argument("--data", help="the table's data folder (default: the one tofu-table serve uses)")
    ln.set_defaults(func=_later("lens"))
    pl = vsub.add_parser("plan", help="print where to lay each token type for `vision calibrate`")
    pl.add_argument("--layout", required=True)
    pl.set_defaults(func=_later("plan"))


def _lens_option(parser) -> None:
    parser.add_argument("--lens", metavar="FILE", help="the camera's lens file (DATA/vision/lens.json, from "
                                                      "`tofu-table vision lens`) for pictures taken by that camera")


def _later(name: str):
    """The command ``name`` of vision/commands.py, imported when it runs."""
    def run(args) -> int:
        from . import commands
        return getattr(commands, name)(args)
    return run
