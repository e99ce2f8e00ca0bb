# One image for every ratingdb process: the migrate step, the API and the scheduler
# (docker-compose.yml). Built from this directory: docker compose build
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Dependencies first, in their own layer, at the exact versions CI tested (constraints.txt):
# a code change does not reinstall them.
COPY pyproject.toml constraints.txt ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install -c constraints.txt -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# Then ratingdb itself, as a wheel would install it: migrations, templates and sample data
# travel inside the package, nothing is read from /app at run time.
COPY README.md LICENSE ./
COPY ratingdb ./ratingdb
COPY jobs ./jobs
COPY migrations ./migrations
RUN pip install -c constraints.txt --no-deps . && rm -rf /app/*

RUN useradd --system --uid 10001 --home-dir /app ratingdb
USER ratingdb

EXPOSE 8000
CMD ["ratingdb", "serve", "--host", "0.0.0.0", "--port", "8000"]
