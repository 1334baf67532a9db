"""Format converters over records: other tools' files read into records and written back."""
