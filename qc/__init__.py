"""QC: every number in an article checked against the figures of the reports it cites."""
