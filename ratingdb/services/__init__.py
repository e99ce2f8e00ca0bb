"""Services: load with the repositories, compute with the rules core, write, all inside the
caller's transaction (services never commit)."""
