# One image for every ratingdb process: the migrate step, the API and the scheduler
# (docker-compose.yml). Built from this directory: docker compose build
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Dependencies first, so that a code change does not reinstall them.
COPY pyproject.toml README.md ./
COPY ratingdb ./ratingdb
COPY jobs ./jobs
COPY migrations ./migrations
RUN pip install .

# `ratingdb db upgrade` and /health read the Alembic scripts next to the code
# (ratingdb/db/migrate.py: pyproject.toml and migrations/ in the project root), which the
# wheel does not carry: run the code from /app, with the dependencies pip installed.
ENV PYTHONPATH=/app

RUN useradd --system --uid 10001 --home-dir /app ratingdb
USER ratingdb

EXPOSE 8000
CMD ["ratingdb", "serve", "--host", "0.0.0.0", "--port", "8000"]
