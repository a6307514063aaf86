"""The Textual assistant (``ascend-doctor tui``). Only this package imports textual."""
