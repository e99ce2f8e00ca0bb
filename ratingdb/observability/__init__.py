"""What operators see: Prometheus metrics (``metrics``: the figures; ``http``: the requests of
an app and its ``/metrics``) and structured logs (``logs``). Used by the edges (the API, the
back office, the scheduler); it listens to the services' events (``ratingdb.services.events``)
and the services never import it. docs/operations.md, "Metrics and logs".
"""
