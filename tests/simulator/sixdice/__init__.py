"""Tests of simulator/sixdice."""
