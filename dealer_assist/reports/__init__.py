"""Session reconciliation and reports (docs/reports.md): everything from the session log alone.

``reconcile(paths)`` is the entry point; the exports (text, CSV, JSON, PDF), the chart data and
the GUI's reconciliation screen all read its result.
"""

from dealer_assist.reports.reconcile import Reconciliation, TableReport, check_integrity, reconcile
from dealer_assist.reports.transfers import TransferPlan, plan_transfers

__all__ = ["Reconciliation", "TableReport", "TransferPlan", "check_integrity", "plan_transfers",
           "reconcile"]
