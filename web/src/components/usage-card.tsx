import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { UsageBar, type UsageBarProps } from "./usage-bar";

/**
 * The 'Usage' card: one bar per limit, and beneath the title how fresh the numbers are (`note`). The customer's
 * Usage tab and the admin's general tab both show it.
 */
export function UsageCard({ bars, note }: { bars: UsageBarProps[]; note?: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Usage</CardTitle>
        {note && <CardDescription>{note}</CardDescription>}
      </CardHeader>
      <CardContent className="space-y-6">
        {bars.map((bar) => (
          <UsageBar key={bar.label} {...bar} />
        ))}
      </CardContent>
    </Card>
  );
}
