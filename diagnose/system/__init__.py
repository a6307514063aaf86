"""The seam between probes and a machine: real, simulated (profile) or replayed (snapshot)."""
from .base import DEFAULT_TIMEOUT, CommandResult, Identity, StatInfo, System, Uname, decode
from .real import RealSystem
from .replay import RecordingSystem, ReplaySystem, call_key, scrub, scrub_text
from .simulated import PROFILES_DIR, Profile, ProfileError, SimulatedSystem, command_key, list_profiles, load_profile

__all__ = [
    "DEFAULT_TIMEOUT", "CommandResult", "Identity", "StatInfo", "System", "Uname", "decode",
    "RealSystem", "RecordingSystem", "ReplaySystem", "call_key", "scrub", "scrub_text",
    "PROFILES_DIR", "Profile", "ProfileError", "SimulatedSystem", "command_key", "list_profiles", "load_profile",
]
