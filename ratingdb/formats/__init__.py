"""Readers and writers of the files and payloads ratingdb exchanges with other tools."""
