import { Download } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { toast } from "@/lib/toast";
import { fetchAllTransactions, type TransactionQuery } from "@/queries/admin/billing";
import { exportTransactions } from "./export-transactions";

/** Exports every transaction of the current filters (all pages, not just the one on screen). */
export function ExportTransactionsButton({ query }: { query: TransactionQuery }) {
  const [exporting, setExporting] = useState(false);

  async function exportRows() {
    setExporting(true);
    try {
      await exportTransactions(await fetchAllTransactions(query));
    } catch (error) {
      console.error("Export failed", error);
      toast({ variant: "destructive", title: "Error", description: "The export failed." });
    } finally {
      setExporting(false);
    }
  }

  return (
    <Button variant="outline" disabled={exporting} onClick={() => void exportRows()}>
      <Download aria-hidden="true" />
      Export Full Details (XLSX)
    </Button>
  );
}
