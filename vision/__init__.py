"""The camera: boards found by their markers, every slot classified, snapshots committed when still.

One job per module (docs/camera.md is the user's guide):

- ``tokens``: the token type names (Food for Thought's food ids, ``covered``).
- ``layout``: board layouts in millimetres (markers, patch, slot regions); ``data/layouts`` samples.
- ``markers``: ArUco detection; ``sheet``: the printable marker sheet.
- ``localize``: a board's homography from its markers, searched near where they were.
- ``motion``: busy / still from background subtraction on the rectified board.
- ``classify``: per-slot empty / token type / unknown against the calibration reference.
- ``calibration``: the empty-board and token-colour captures.
- ``tracker``: per-slot votes over still frames, committed ``board`` inputs.
- ``pipeline``: all of the above per frame; ``overlay`` draws it.
- ``sources``: picamera2, webcam, replay, synthetic; ``config``: the ``[camera]`` section.
- ``service``: the camera thread and its health; ``camera``: starting it with the server.
- ``web``: the /calibrate page's API; ``cli``: ``tofu-table markers`` and ``tofu-table vision``.
- ``check``: scoring readings against the truth; ``selftest``: the /calibrate page's camera self-test.
- ``synthetic``: the synthetic renderer (tests, benchmark, simulation).
"""
