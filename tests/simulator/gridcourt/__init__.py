"""Tests of simulator/gridcourt."""
