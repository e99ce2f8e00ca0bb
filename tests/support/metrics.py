"""Reading a ``/metrics`` answer: the value of one sample, by name and labels."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of the exposition ``text``, by (name, labels)."""
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(text: str, name: str, **labels: str) -> float:
    """The sample ``name`` with exactly ``labels``; 0 when there is none yet (a series appears
    with its first observation)."""
    return samples(text).get((name, frozenset(labels.items())), 0.0)
