import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { UsageBar, type UsageBarProps } from "./usage-bar";

/** The 'Usage' card: one bar per limit. The customer's Usage tab and the admin's general tab both show it. */
export function UsageCard({ bars }: { bars: UsageBarProps[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Usage</CardTitle>
      </CardHeader>
      <CardContent className="space-y-6">
        {bars.map((bar) => (
          <UsageBar key={bar.label} {...bar} />
        ))}
      </CardContent>
    </Card>
  );
}
