"""What the tests share, so that a test shows only what it is about.

- ``cli``: running ``ratingdb`` in this process (exit code, stdout, stderr) or as a subprocess;
- ``files``: the CSV headers, TRF and FIDE fixed-width lines, and writing them to a file;
- ``factories``: the small federation most tests start from (players, lists, tournaments);
- ``sql``: reading a database back with plain SQL (what is stored, independently of the code).

The database fixtures themselves stay in tests/conftest.py and tests/databases.py.
"""
