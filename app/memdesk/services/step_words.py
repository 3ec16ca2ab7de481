"""History's action names as a person reads them, for steps recorded before they were
written that way: "Restore held:2" reads "Restore held write 2 from Trash". Every view of
History (the window, `memdesk history`) shows a step's label through ``readable``."""

from __future__ import annotations

import re

from memdesk.core.privacy import TargetKind, parse_stored
from memdesk.services.trash import PREFIXES, restore_label

# Older labels named an item by its Trash id or its private-item target, and ran a decision
# into the held write's own verb ("Approve Save entry gym").
_RESTORE = re.compile(rf"^Restore ({'|'.join(PREFIXES)}):(.+)$")
_PRIVATE = re.compile(rf"^(Make|Stop making) ((?:{'|'.join(TargetKind)}):.+) private$")
_DECIDED_ONE = re.compile(r"^(Approve|Reject) ([A-Z].*)$")
_APPROVED_MANY = re.compile(r"^Approve (\d+) writes$")


def readable(label: str) -> str:
    """``label`` as a person says it; a label already in words comes back as it is."""
    if restored := _RESTORE.match(label):
        return restore_label(restored[1], restored[2])
    if private := _PRIVATE.match(label):
        return f"{private[1]} {parse_stored(private[2]).words} private"
    if decided := _DECIDED_ONE.match(label):
        return f"{decided[1]}: {decided[2]}"
    if approved := _APPROVED_MANY.match(label):
        return f"Approve {approved[1]} held writes"
    return label
