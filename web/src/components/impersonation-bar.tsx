import { Button } from "@/components/ui/button";
import { useImpersonation } from "@/hooks/use-impersonation";

/** While an admin views the customer screens as a customer: who they are viewing, and the way back. */
export function ImpersonationBar() {
  const { impersonatedEmail, stop } = useImpersonation();
  if (!impersonatedEmail) return null;

  return (
    <div role="status" className="sticky top-0 z-40 border-b border-yellow-500 bg-yellow-300 text-yellow-950">
      <div className="container mx-auto flex flex-wrap items-center justify-between gap-2 px-4 py-2">
        <p className="font-medium">Eingeloggt als {impersonatedEmail}</p>
        <Button variant="outline" size="sm" onClick={stop} className="border-yellow-700 bg-yellow-100">
          Zurück zum Admin-Dashboard
        </Button>
      </div>
    </div>
  );
}
