"""The back office: accounts, roles and (to come) submissions and publication, in its own
process (``ratingdb backoffice``), apart from the public read-only app, which never mounts it."""
