"""Reliability tables: which codecs and containers index, and how faults are handled."""
