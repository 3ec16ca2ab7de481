"""``memdesk health``: live facts that disagree or repeat each other, and their fixes."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from memdesk.cli.io import one_line

if TYPE_CHECKING:
    from memdesk.services.health import Finding
    from memdesk.services.memdesk import Memdesk


def register(subparsers: argparse._SubParsersAction) -> None:
    health = subparsers.add_parser(
        "health",
        help="facts that disagree or are stored twice, and their fixes",
        description="List conflicts (two live facts that fill one slot with different values) and "
        "near-duplicates (one fact stored twice in other words) across the profile, patterns and "
        "facts documents, knowledge entries and app memories; fix one. Every fix is one step "
        "`memdesk undo` takes back.",
    )
    health.add_argument("--json", action="store_true", help="print JSON")
    health.set_defaults(handler=health_list)
    sub = health.add_subparsers(dest="action", metavar="ACTION")
    keep = sub.add_parser("keep", help="keep one fact of a finding and remove the other")
    keep.add_argument("id", metavar="ID", type=int)
    keep.add_argument("which", choices=("first", "second"), help="the fact to keep, as listed")
    keep.set_defaults(handler=health_keep)
    merge = sub.add_parser("merge", help="rewrite the first fact as TEXT and remove the second")
    merge.add_argument("id", metavar="ID", type=int)
    merge.add_argument("text", metavar="TEXT")
    merge.set_defaults(handler=health_merge)
    ignore = sub.add_parser("ignore", help="stop listing a finding (until either fact changes)")
    ignore.add_argument("id", metavar="ID", type=int)
    ignore.set_defaults(handler=health_ignore)


def _finding_json(finding: Finding) -> dict[str, object]:
    return {
        "id": finding.id,
        "kind": str(finding.kind),
        "slot": finding.slot,
        "first": finding.first.described(),
        "second": finding.second.described(),
    }


def health_list(args: argparse.Namespace, app: Memdesk) -> int:
    findings = app.health.findings()
    if args.json:
        print(json.dumps([_finding_json(finding) for finding in findings], ensure_ascii=False, indent=2))
        return 0
    for finding in findings:
        what = f"conflict ({finding.slot})" if finding.kind == "conflict" else "near-duplicate"
        print(f"#{finding.id}\t{what}")
        print(f"\tfirst: {finding.first.name}: {one_line(finding.first.text)}")
        print(f"\tsecond: {finding.second.name}: {one_line(finding.second.text)}")
    if not findings:
        print("Memory health: no conflicts or near-duplicates.")
    else:
        print("Fix one with `memdesk health keep ID first|second`, `merge ID TEXT` or `ignore ID`.")
    return 0


def _done(step: int | None, what: str) -> int:
    print(f"{what} (history step {step}; `memdesk undo` takes it back)")
    return 0


def health_keep(args: argparse.Namespace, app: Memdesk) -> int:
    return _done(app.health.keep(args.id, args.which), f"kept the {args.which} fact of #{args.id}")


def health_merge(args: argparse.Namespace, app: Memdesk) -> int:
    return _done(app.health.merge(args.id, args.text), f"merged #{args.id}")


def health_ignore(args: argparse.Namespace, app: Memdesk) -> int:
    return _done(app.health.ignore(args.id), f"ignoring #{args.id}")
