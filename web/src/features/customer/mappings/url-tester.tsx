import { useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { describeError } from "@/lib/api";
import { useSchemaCheck } from "@/hooks/use-schema-check";
import { useMappingMatch } from "@/queries/mappings";
import type { Mapping } from "#contract/responses";

const PLACED = {
  before: "Placed before",
  after: "Placed after",
  inside: "Placed first inside",
  replace: "Placed instead of",
} as const;

/** Where the mapping puts its content and what it sets in <head> (docs/placement.md), as one line of text. */
function placementText({ placement, seo }: Mapping): string {
  const where =
    placement.position === "body-start"
      ? "Placed first in <body>"
      : `${PLACED[placement.position]} ${placement.selector}`;
  const fields = Object.keys(seo);
  return fields.length > 0 ? `${where}; sets ${fields.join(", ")} in <head>` : where;
}

/**
 * The URL tester: a page URL in, the mapping that serves it and why out (docs/url-rules.md), as the Worker decides
 * for every delivery path. Everything shown is text.
 */
export function UrlTester() {
  const [url, setUrl] = useState("");
  const [tested, setTested] = useState("");
  const { errors, check } = useSchemaCheck((schemas) => schemas.mappingMatchQuery);
  const match = useMappingMatch(tested);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const query = await check({ url });
    if (query) setTested(query.url);
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormField label="Page URL" error={errors.url}>
        <Input
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://example.com/page?utm_source=x"
        />
      </FormField>
      <Button type="submit" variant="outline" disabled={match.isFetching}>
        {match.isFetching ? "Testing..." : "Test URL"}
      </Button>
      {match.isError && <p className="text-sm text-destructive">{describeError(match.error)}</p>}
      {match.data && (
        <div role="status" className="space-y-2 rounded-md border p-4 text-sm">
          {match.data.mapping ? (
            <p className="flex flex-wrap items-center gap-2">
              <span>Served by</span>
              <span className="font-mono break-all">{match.data.mapping.url}</span>
              <Badge variant="secondary">{match.data.mapping.match === "prefix" ? "Prefix" : "Exact"}</Badge>
            </p>
          ) : (
            <p className="font-medium">No mapping serves this URL</p>
          )}
          <p className="text-muted-foreground">{match.data.reason}</p>
          {match.data.mapping && <p className="font-mono break-all">{placementText(match.data.mapping)}</p>}
        </div>
      )}
    </form>
  );
}
