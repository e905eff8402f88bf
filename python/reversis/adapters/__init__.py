"""Adapters that put other implementations of the Hearts family behind the driver protocol (spec/driver.md)."""
