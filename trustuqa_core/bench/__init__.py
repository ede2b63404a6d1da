"""Benchmark scripts that print numbers (speed, memory); not unit tests."""
