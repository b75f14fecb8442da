"""Benchmarks for Archipelago (`make bench`)."""
