"""Tests of simulator/vabg."""
