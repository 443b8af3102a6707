"""One module per operation with its client classes, imported by ``Client`` on first use."""
