"""Evidence store: report PDFs parsed into citable figures, kept in SQLite."""
