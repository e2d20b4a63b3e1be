import { Download } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { toast } from "@/hooks/use-toast";
import { useAdminTransactions, type TransactionQuery } from "@/queries/admin-billing";
import { exportTransactions } from "./export-transactions";

/** Exports the rows of the current filters; waits while they load (the rows on screen may be the previous ones). */
export function ExportTransactionsButton({ query }: { query: TransactionQuery }) {
  const transactions = useAdminTransactions(query);
  const [exporting, setExporting] = useState(false);
  const rows = transactions.isPlaceholderData ? undefined : transactions.data;

  async function exportRows() {
    if (!rows) return;
    setExporting(true);
    try {
      await exportTransactions(rows);
    } catch (error) {
      console.error("Export failed", error);
      toast({ variant: "destructive", title: "Error", description: "The export failed." });
    } finally {
      setExporting(false);
    }
  }

  return (
    <Button variant="outline" disabled={!rows || exporting} onClick={() => void exportRows()}>
      <Download aria-hidden="true" />
      Export Full Details (XLSX)
    </Button>
  );
}
