"""The one shape of every refusal: a stable code, and a message that says what to do.

Whatever refuses an input (the protocol check, the tokens, a game's rules), the
input changed nothing and the caller gets ``{"code", "message"}``.
"""


class Refusal(Exception):
    """An input that was refused; ``code`` is stable snake_case, ``message`` is for people."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message

    def as_dict(self, audience: str = "table") -> dict:
        """The refusal as sent to ``audience``."""
        return {"code": self.code, "message": self.message}
