"""List storage: how a published list is kept.

- ``chunks``: the list itself, its entries packed in list order (list_chunks, format
  ratingdb.db.chunks), written from the entries; ``chunk_reads``: what is read from them (a
  page, the entries around a rank, the whole list or some of its columns).
- ``changes``: a list's rows in list_entries, its changes against its parent (a row where a
  player's entry differs from the parent's carried forward, a marker where they leave), an
  index of the chunks by player (an imported list's rows are all its entries, from which its
  chunks are made); read through a list's ancestry by one ``resolve`` under the
  carry-forward rule of ratingdb.rules.carry_forward. The player statuses and calculations
  written with a computed list are there too.
- ``latest``: latest_entries, a copy of each category's latest list, written by an explicit
  call of whoever publishes the list (a close, an import), never as a side effect: from an
  import's rows, a close's changes, or else the list's chunks.
- ``players``: the players of a list's entries, read in the entries' order.

An entry is a ratingdb.rules.carry_forward.Entry.
"""
