"""Scripts that print the figures quoted in issue notes."""
