"""A fourth game for the table's tests: a race to 10 on alternate d6 rolls (no rulings)."""
