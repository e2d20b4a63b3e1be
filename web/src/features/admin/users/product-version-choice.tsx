import { useId } from "react";
import { Loading } from "@/components/loading";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { useAdminProductVersions } from "@/queries/admin/product-versions";
import { useAssignProductVersion } from "@/queries/admin/users";

/**
 * Every product version as a radio list, the default marked '(Standard)' and the user's 'Aktuelle Version';
 * choosing one assigns it at once.
 */
export function ProductVersionChoice({
  userId,
  productVersionId,
}: {
  userId: string;
  productVersionId: number | null;
}) {
  const versions = useAdminProductVersions();
  const assign = useAssignProductVersion();
  const idPrefix = useId();
  const titleId = `${idPrefix}-title`;
  const selected = assign.isPending ? assign.variables.versionId : productVersionId;

  return (
    <Card>
      <CardHeader>
        <CardTitle id={titleId} className="text-xl">
          Produktversion
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        {versions.isPending ? (
          <Loading />
        ) : versions.isError ? (
          <p className="text-sm text-destructive">Produktversionen konnten nicht geladen werden.</p>
        ) : (
          <>
            {productVersionId === null && (
              <p className="text-sm text-muted-foreground">Keine Produktversion zugewiesen.</p>
            )}
            <RadioGroup
              aria-labelledby={titleId}
              value={selected === null ? "" : String(selected)}
              disabled={assign.isPending}
              onValueChange={(value) => assign.mutate({ userId, versionId: Number(value) })}
            >
              {versions.data.map((version) => {
                const itemId = `${idPrefix}-${version.id}`;
                return (
                  <div key={version.id} className="flex items-center gap-2">
                    <RadioGroupItem id={itemId} value={String(version.id)} />
                    <Label htmlFor={itemId}>
                      {version.name}
                      {version.isDefault && " (Standard)"}
                    </Label>
                    {version.id === productVersionId && <Badge variant="success">Aktuelle Version</Badge>}
                  </div>
                );
              })}
            </RadioGroup>
          </>
        )}
      </CardContent>
    </Card>
  );
}
