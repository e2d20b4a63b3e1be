/** @module One goal's results as a table (render only): per variant its visitors, conversions, rate and the rest. */
import type { VariantGoalResult } from "#contract/experiments";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { ExperimentLanguage } from "./experiment-sentence";
import { formatChance, formatCount, formatRate, formatUplift } from "./experiment-format";
import { EXPERIMENT_TEXT } from "./experiment-text";

export function ExperimentResultsTable({
  results,
  goal,
  lang = "en",
}: {
  /** One goal's results, the control first. */
  results: VariantGoalResult[];
  goal: string;
  lang?: ExperimentLanguage;
}) {
  const text = EXPERIMENT_TEXT[lang];
  const none = "–";
  return (
    <Table aria-label={`${text.goal}: ${goal}`}>
      <TableHeader>
        <TableRow>
          {text.columns.map((column) => (
            <TableHead key={column}>{column}</TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {results.map((result, i) => (
          <TableRow key={result.key}>
            <TableCell className="font-medium">
              {result.key}
              {i === 0 && (
                <>
                  {" "}
                  <span className="font-normal text-muted-foreground">{text.controlMark}</span>
                </>
              )}
            </TableCell>
            <TableCell className="tabular-nums">{formatCount(result.visitors, lang)}</TableCell>
            <TableCell className="tabular-nums">{formatCount(result.conversions, lang)}</TableCell>
            <TableCell className="tabular-nums">{formatRate(result.rate, lang)}</TableCell>
            <TableCell className="tabular-nums">
              {result.uplift === null ? none : formatUplift(result.uplift, lang)}
            </TableCell>
            <TableCell className="tabular-nums whitespace-nowrap">
              {result.upliftCi95
                ? `${formatUplift(result.upliftCi95[0], lang)} ${text.to} ${formatUplift(result.upliftCi95[1], lang)}`
                : none}
            </TableCell>
            <TableCell className="tabular-nums">
              {result.probabilityToBeatControl === null ? none : formatChance(result.probabilityToBeatControl)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
