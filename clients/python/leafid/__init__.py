"""A client of Leaf, the ID service: batches, failover and answer checks, standard library only."""
from .client import LeafClient
from .errors import (LeafError, LeafInvalidInputError, LeafLimitReachedError, LeafRequestError,
                     LeafUnavailableError, LeafUnknownKeyError)

__version__ = "1.0.0"
__all__ = ["LeafClient", "LeafError", "LeafInvalidInputError", "LeafLimitReachedError", "LeafRequestError",
           "LeafUnavailableError", "LeafUnknownKeyError", "__version__"]
