"""Placeholder: commands are registered here by their module owner."""
from __future__ import annotations
