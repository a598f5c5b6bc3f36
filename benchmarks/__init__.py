"""Benchmarks: engine speed, playouts, computer-player strength; results in README.md."""
