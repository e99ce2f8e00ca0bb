"""Where the queries live: select() statements returning rows or rules types. Repositories take
a Session and never commit; the caller owns the transaction."""
