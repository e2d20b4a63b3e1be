import { useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { describeError } from "@/lib/api";
import { useSchemaCheck } from "@/hooks/use-schema-check";
import { useMappingMatch } from "@/queries/mappings";
import { CONTINENTS, DEVICES, VISITOR_KINDS } from "#contract/audience-values";
import { REFERRER_TYPES } from "#contract/referrers";
import type { Mapping } from "#contract/responses";
import type { MappingMatchQuery } from "#contract/schemas";
import { countries } from "./audience-countries";
import { AUDIENCE_TEXT, CHOICE_TEXT } from "./audience-text";

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

/** The tested visitor as typed: "" is left out (a new desktop visitor, arriving directly, from nowhere known). */
interface VisitorInput {
  country: string;
  continent: string;
  device: string;
  referrer: string;
  visitor: string;
  language: string;
}

const ANY_VISITOR: VisitorInput = { country: "", continent: "", device: "", referrer: "", visitor: "", language: "" };

const SELECT_CLASS =
  "flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none md:text-sm";

/**
 * The URL tester: a page URL in, the mapping that serves it and why out (docs/url-rules.md), as the Worker decides
 * for every delivery path; with visitor attributes, the mapping a visitor with them gets where the URL has audience
 * mappings (docs/audiences.md). Everything shown is text.
 */
export function UrlTester() {
  const text = AUDIENCE_TEXT.en;
  const choices = CHOICE_TEXT.en;
  const [url, setUrl] = useState("");
  const [visitor, setVisitor] = useState(ANY_VISITOR);
  const [shown, setShown] = useState(false);
  const [tested, setTested] = useState<MappingMatchQuery>({ url: "" });
  const { errors, check } = useSchemaCheck((schemas) => schemas.mappingMatchQuery);
  const match = useMappingMatch(tested);
  const set = (field: keyof VisitorInput) => (event: { target: { value: string } }) =>
    setVisitor({ ...visitor, [field]: event.target.value });
  const given = Object.fromEntries(Object.entries(visitor).filter(([, value]) => value.trim() !== ""));
  const audience = match.data?.mapping?.audience;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const query = await check({ url, ...given });
    if (query) setTested(query);
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
      <details className="rounded-md border p-4" open={Object.keys(errors).some((f) => f !== "url") || undefined}>
        <summary className="cursor-pointer text-sm font-medium" onClick={() => setShown(true)}>
          {text.testerSection}
        </summary>
        <p className="mt-2 text-sm text-muted-foreground">{text.testerIntro}</p>
        {/* Its 250 countries are made once the section is first opened, not with every dashboard. */}
        {shown && (
          <div className="mt-4 grid gap-4 md:grid-cols-3">
            <FormField label={text.testerCountry} error={errors.country}>
              <select value={visitor.country} onChange={set("country")} className={SELECT_CLASS}>
                <option value="">{text.unknown}</option>
                {countries("en").map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.name} ({c.code})
                  </option>
                ))}
              </select>
            </FormField>
            <FormField label={text.testerContinent} error={errors.continent}>
              <select value={visitor.continent} onChange={set("continent")} className={SELECT_CLASS}>
                <option value="">{text.unknown}</option>
                {CONTINENTS.map((c) => (
                  <option key={c} value={c}>
                    {choices.continent[c]}
                  </option>
                ))}
              </select>
            </FormField>
            <FormField label={text.testerLanguage} error={errors.language}>
              <Input value={visitor.language} onChange={set("language")} placeholder={text.testerLanguagePlaceholder} />
            </FormField>
            <FormField label={text.device} error={errors.device}>
              <select value={visitor.device} onChange={set("device")} className={SELECT_CLASS}>
                <option value="">{choices.device.desktop}</option>
                {DEVICES.filter((d) => d !== "desktop").map((d) => (
                  <option key={d} value={d}>
                    {choices.device[d]}
                  </option>
                ))}
              </select>
            </FormField>
            <FormField label={text.referrer} error={errors.referrer}>
              <select value={visitor.referrer} onChange={set("referrer")} className={SELECT_CLASS}>
                <option value="">{choices.referrer.direct}</option>
                {REFERRER_TYPES.filter((r) => r !== "direct").map((r) => (
                  <option key={r} value={r}>
                    {choices.referrer[r]}
                  </option>
                ))}
              </select>
            </FormField>
            <FormField label={text.visitor} error={errors.visitor}>
              <select value={visitor.visitor} onChange={set("visitor")} className={SELECT_CLASS}>
                <option value="">{choices.visitor.new}</option>
                {VISITOR_KINDS.filter((v) => v !== "new").map((v) => (
                  <option key={v} value={v}>
                    {choices.visitor[v]}
                  </option>
                ))}
              </select>
            </FormField>
          </div>
        )}
      </details>
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
              {audience && <Badge variant="outline">{text.answersFor(audience.name)}</Badge>}
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
