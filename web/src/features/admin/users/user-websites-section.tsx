/**
 * The user's website claims (docs/edge-delivery.md), pending and proven, a page at a time; an admin releases one
 * after asking (a proven edge website is no longer served at once).
 */
import type { Website } from "#contract/responses";
import { ConfirmActionButton } from "@/components/confirm-action-button";
import { PagedRows } from "@/components/paged-rows";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { usePage } from "@/hooks/use-page";
import { formatGermanDayTime } from "@/lib/format-date";
import { useReleaseUserWebsite, useUserWebsites } from "@/queries/admin/users";

function ClaimStatus({ website }: { website: Website }) {
  return website.status === "active" ? (
    <Badge variant="success">Bestätigt</Badge>
  ) : (
    <Badge variant="secondary">Ausstehend</Badge>
  );
}

export function UserWebsitesSection({ userId }: { userId: string }) {
  const page = usePage(userId);
  const websites = useUserWebsites(userId, page.offset);
  const release = useReleaseUserWebsite();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Domains</CardTitle>
      </CardHeader>
      <CardContent>
        <PagedRows query={websites} page={page} loadError="Domains konnten nicht geladen werden.">
          {(rows) =>
            rows.length === 0 ? (
              <p className="text-sm text-muted-foreground">Keine Domains beansprucht.</p>
            ) : (
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>Hostname</TableHead>
                    <TableHead>Status</TableHead>
                    <TableHead>Modus</TableHead>
                    <TableHead>Origin</TableHead>
                    <TableHead>Bestätigt am</TableHead>
                    <TableHead />
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {rows.map((website) => (
                    <TableRow key={website.hostname}>
                      <TableCell className="font-medium break-all">{website.hostname}</TableCell>
                      <TableCell>
                        <ClaimStatus website={website} />
                      </TableCell>
                      <TableCell>{website.mode === "edge" ? "Edge" : "Snippet"}</TableCell>
                      <TableCell className="font-mono text-xs break-all">{website.origin}</TableCell>
                      <TableCell>{website.verifiedAt ? formatGermanDayTime(website.verifiedAt) : "-"}</TableCell>
                      <TableCell className="text-right">
                        <ConfirmActionButton
                          trigger={
                            <Button type="button" variant="destructive" size="sm" disabled={release.isPending}>
                              Freigeben
                            </Button>
                          }
                          title={`${website.hostname} freigeben?`}
                          description="Der Anspruch wird gelöscht; eine bestätigte Edge-Domain wird sofort nicht mehr ausgeliefert."
                          confirmLabel="Freigeben"
                          cancelLabel="Abbrechen"
                          onConfirm={() => release.mutate({ userId, hostname: website.hostname })}
                        />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )
          }
        </PagedRows>
      </CardContent>
    </Card>
  );
}
