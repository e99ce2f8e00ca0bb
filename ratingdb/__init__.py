"""ratingdb: a rating-history database for chess federations and clubs."""

__version__ = "0.1.0"
