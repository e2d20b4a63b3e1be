import { useEffect, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { useSchemaCheck } from "@/hooks/use-schema-check";
import { useSaveUrlRules, useUrlRules } from "@/queries/url-rules";

const parseNames = (text: string) =>
  text
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");

/** The customer's own tracking parameters, comma-separated, besides the ones every URL drops. */
export function IgnoredParametersForm() {
  const rules = useUrlRules();
  const save = useSaveUrlRules();
  const [names, setNames] = useState("");
  const { errors, check } = useSchemaCheck((schemas) => schemas.urlRulesBody);

  const saved = rules.data?.ignoredParameters;
  const always = rules.data?.trackingParameters;
  useEffect(() => {
    if (saved) setNames(saved.join(", "));
  }, [saved]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const body = await check({ ignoredParameters: parseNames(names) });
    if (body) save.mutate(body);
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormField label="Also ignore these parameters" error={errors.ignoredParameters}>
        <Input value={names} onChange={(e) => setNames(e.target.value)} placeholder="ref, aff_*" />
      </FormField>
      {always && (
        <p className="text-sm text-muted-foreground">
          Always ignored: <span className="font-mono">{always.join(", ")}</span>
        </p>
      )}
      <Button type="submit" variant="outline" disabled={save.isPending}>
        {save.isPending ? "Saving..." : "Save Parameters"}
      </Button>
    </form>
  );
}
