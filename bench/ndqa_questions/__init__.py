"""NDQA question making, one module per concern; bench.questions_ndqa is its public face."""
