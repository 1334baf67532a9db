"""The replay page: one self-contained HTML file that steps through a record (page) and the
parts it is made of (parts)."""
