"""The errors of the Leaf client: a request the servers refuse, or no server that answers."""


class LeafError(Exception):
    """Anything the client raises."""


class LeafUnavailableError(LeafError):
    """No server gave a good answer within max_wait: every one was down, slow or answered badly."""


class LeafRequestError(LeafError):
    """A 4xx answer: the request's fault, the same on every server, so not retried.

    status: the HTTP status; type: the problem type (urn:leaf:problem:unknown-tag…); detail: the
    server's words.
    """

    def __init__(self, status, problem_type, detail):
        super().__init__(f"{status} {problem_type}: {detail}")
        self.status = status
        self.type = problem_type
        self.detail = detail


class LeafUnknownKeyError(LeafRequestError):
    """Unknown tag, app, shard or format, or the mode is off on the server."""


class LeafInvalidInputError(LeafRequestError):
    """400: the tag, key, count or gate pass is not one the server takes."""


class LeafLimitReachedError(LeafRequestError):
    """tag-exhausted or app-limit-reached: every server would say the same."""


LIMIT_TYPES = ("urn:leaf:problem:tag-exhausted", "urn:leaf:problem:app-limit-reached")


def request_error(status, problem_type, detail):
    """The typed error of a 4xx problem."""
    if problem_type in LIMIT_TYPES:
        return LeafLimitReachedError(status, problem_type, detail)
    if status == 404:
        return LeafUnknownKeyError(status, problem_type, detail)
    if status == 400:
        return LeafInvalidInputError(status, problem_type, detail)
    return LeafRequestError(status, problem_type, detail)
