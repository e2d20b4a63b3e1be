import { useId, useState, type ChangeEvent } from "react";
import type { BulkFormat, ImportReport } from "#contract/bulk";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useExportMappings, useImportMappings } from "@/queries/mappings";

/** Refused rows shown at most; the report's message counts them all. */
const REFUSED_SHOWN = 100;

interface ChosenFile {
  name: string;
  text: string;
  format: BulkFormat;
}

const formatOf = (file: File): BulkFormat =>
  file.name.toLowerCase().endsWith(".json") || file.type === "application/json" ? "json" : "csv";

/**
 * Import and export of the customer's mappings (docs/bulk.md): a file is checked first and its report shown; only
 * a file without refused rows can then be imported, all of it at once.
 */
export function BulkCard() {
  const inputId = useId();
  const [file, setFile] = useState<ChosenFile | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const importMappings = useImportMappings();
  const exportMappings = useExportMappings();

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const input = event.target;
    const chosen = input.files?.[0];
    setReport(null);
    setFile(chosen ? { name: chosen.name, text: await chosen.text(), format: formatOf(chosen) } : null);
    // So that choosing the same file again, after fixing it, reads it again.
    input.value = "";
  }

  function run(dryRun: boolean) {
    if (!file) return;
    importMappings.mutate(
      { text: file.text, format: file.format, dryRun },
      {
        onSuccess: ({ data }) => {
          setReport(data);
          if (data.applied) setFile(null);
        },
      },
    );
  }

  const refused = report?.rows.filter((r) => r.action === "refuse") ?? [];
  const canApply = report?.dryRun === true && report.refused === 0 && file !== null;

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Import &amp; Export</CardTitle>
        <CardDescription>
          CSV or JSON with the columns url, htmlContent and optionally id, match, status, publishAt, unpublishAt,
          position, selector and the SEO fields; up to 10,000 rows, checked first, imported all or nothing.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-wrap items-center gap-2">
          <Button variant="outline" disabled={exportMappings.isPending} onClick={() => exportMappings.mutate("csv")}>
            Export CSV
          </Button>
          <Button variant="outline" disabled={exportMappings.isPending} onClick={() => exportMappings.mutate("json")}>
            Export JSON
          </Button>
        </div>
        <div className="space-y-2">
          <Label htmlFor={inputId}>Import file</Label>
          <input
            id={inputId}
            type="file"
            accept=".csv,.json,text/csv,application/json"
            onChange={choose}
            className="block text-sm"
          />
          {file && <p className="text-sm text-muted-foreground">Chosen: {file.name}</p>}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button disabled={!file || importMappings.isPending} onClick={() => run(true)}>
            {importMappings.isPending && importMappings.variables?.dryRun ? "Checking..." : "Check file"}
          </Button>
          <Button disabled={!canApply || importMappings.isPending} onClick={() => run(false)}>
            {importMappings.isPending && !importMappings.variables?.dryRun ? "Importing..." : "Import"}
          </Button>
        </div>
        {report && (
          <div className="space-y-2" role="status">
            <p className="text-sm font-medium">{report.applied ? `Imported: ${report.message}` : report.message}</p>
            {refused.length > 0 && (
              <Table aria-label="Refused rows">
                <TableHeader>
                  <TableRow>
                    <TableHead>Row</TableHead>
                    <TableHead>URL</TableHead>
                    <TableHead>Why</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {refused.slice(0, REFUSED_SHOWN).map((r) => (
                    <TableRow key={r.row}>
                      <TableCell>{r.row}</TableCell>
                      <TableCell className="max-w-xs truncate">{r.url ?? "–"}</TableCell>
                      <TableCell>{r.errors?.join("; ")}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
