/**
 * @module The add form's and the edit dialog's "Audience" section (docs/audiences.md), folded away (its fields made
 * when it is first opened) and open when one of its fields has a message: who the mapping is for, its priority
 * among the URL's audience mappings, and, while an audience is set, its holdout and the goals that measures. The
 * messages are the contract schema's and the API's holdout messages, each under its field.
 */
import { CONTINENTS, DEVICES, HOLDOUT_MAX, VISITOR_KINDS } from "#contract/audience-values";
import { REFERRER_TYPES } from "#contract/referrers";
import { FieldError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { TagInput } from "@/components/ui/tag-input";
import { ToggleChips } from "@/components/ui/toggle-chips";
import { useId, useState } from "react";
import { CountryPicker } from "./audience-country-picker";
import { hasAudience, type AudienceInput } from "./audience-input";
import { AUDIENCE_TEXT, CHOICE_TEXT, type AudienceLanguage } from "./audience-text";

interface AudienceSectionProps {
  value: AudienceInput;
  onChange: (value: AudienceInput) => void;
  /** The form's messages, by dotted field (`audience.country`, `priority`, `holdout`, `goals`). */
  errors: Partial<Record<string, string>>;
  lang?: AudienceLanguage;
}

/** The first message of a field or of any field under it (`audience.query.plan` is the query's). */
const errorOf = (errors: Partial<Record<string, string>>, field: string) =>
  errors[field] ?? Object.entries(errors).find(([key]) => key.startsWith(`${field}.`))?.[1];

export function AudienceSection({ value, onChange, errors, lang = "en" }: AudienceSectionProps) {
  const text = AUDIENCE_TEXT[lang];
  const choices = CHOICE_TEXT[lang];
  const conditionErrorId = useId();
  const set =
    <K extends keyof AudienceInput>(field: K) =>
    (v: AudienceInput[K]) =>
      onChange({ ...value, [field]: v });
  const hasErrors = Object.keys(errors).some(
    (field) => field.startsWith("audience") || ["priority", "holdout"].includes(field) || field.startsWith("goals"),
  );
  // Its fields are made once the section is first opened: a form whose customer uses no audience carries none.
  const [shown, setShown] = useState(false);
  const tags = (
    field: "language" | "utmSource" | "utmMedium" | "utmCampaign" | "query" | "goals",
    placeholder?: string,
  ) => <TagInput value={value[field]} onChange={set(field)} removeLabel={text.remove} placeholder={placeholder} />;

  return (
    <details className="rounded-md border p-4" open={hasErrors || undefined}>
      <summary className="cursor-pointer text-sm font-medium" onClick={() => setShown(true)}>
        {text.section}
      </summary>
      {(shown || hasErrors) && (
        <div className="mt-4 space-y-4">
          <p className="text-sm text-muted-foreground">{text.intro}</p>
          <FormField label={text.name} error={errors["audience.name"]}>
            <Input
              value={value.name}
              onChange={(e) => set("name")(e.target.value)}
              placeholder={text.namePlaceholder}
            />
          </FormField>
          <FieldError id={conditionErrorId} error={errors.audience} />
          <div className="grid gap-4 md:grid-cols-2">
            <FormField label={text.country} error={errors["audience.country"]}>
              <CountryPicker value={value.country} onChange={set("country")} lang={lang} />
            </FormField>
            <div className="space-y-4">
              <ToggleChips
                legend={text.continent}
                options={CONTINENTS}
                labels={choices.continent}
                value={value.continent}
                onChange={set("continent")}
              />
              <FormField label={text.eu} error={errors["audience.eu"]}>
                <select
                  value={value.eu}
                  onChange={(e) => set("eu")(e.target.value as AudienceInput["eu"])}
                  className="flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none md:text-sm"
                >
                  <option value="">{text.euAny}</option>
                  <option value="in">{text.euIn}</option>
                  <option value="out">{text.euOut}</option>
                </select>
              </FormField>
            </div>
            <ToggleChips
              legend={text.device}
              options={DEVICES}
              labels={choices.device}
              value={value.device}
              onChange={set("device")}
            />
            <ToggleChips
              legend={text.visitor}
              options={VISITOR_KINDS}
              labels={choices.visitor}
              value={value.visitor === "" ? [] : [value.visitor]}
              onChange={(chosen) => set("visitor")(chosen[0] ?? "")}
              single
            />
            <div className="md:col-span-2">
              <ToggleChips
                legend={text.referrer}
                options={REFERRER_TYPES}
                labels={choices.referrer}
                value={value.referrer}
                onChange={set("referrer")}
              />
            </div>
            <FormField label={text.language} error={errorOf(errors, "audience.language")}>
              {tags("language", text.languagePlaceholder)}
            </FormField>
            <FormField label={text.query} error={errorOf(errors, "audience.query")}>
              {tags("query", text.queryPlaceholder)}
            </FormField>
            <FormField label={text.utmSource} error={errors["audience.utm.source"] ?? errors["audience.utm"]}>
              {tags("utmSource")}
            </FormField>
            <FormField label={text.utmMedium} error={errors["audience.utm.medium"]}>
              {tags("utmMedium")}
            </FormField>
            <FormField label={text.utmCampaign} error={errors["audience.utm.campaign"]}>
              {tags("utmCampaign")}
            </FormField>
            <FormField label={text.priority} error={errors.priority}>
              <Input
                type="number"
                inputMode="numeric"
                min={0}
                step={1}
                value={value.priority}
                onChange={(e) => set("priority")(e.target.value)}
                disabled={!hasAudience(value)}
              />
            </FormField>
          </div>
          <p className="text-xs text-muted-foreground">
            {text.tagsHint} {text.priorityHint}
          </p>
          {hasAudience(value) && (
            <div className="space-y-2">
              <div className="grid gap-4 md:grid-cols-2">
                <FormField label={text.holdout} error={errors.holdout}>
                  <Input
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={HOLDOUT_MAX}
                    step={1}
                    value={value.holdout}
                    onChange={(e) => set("holdout")(e.target.value)}
                    placeholder="0"
                  />
                </FormField>
                <FormField label={text.holdoutGoals} error={errorOf(errors, "goals")}>
                  {tags("goals", text.holdoutGoalsPlaceholder)}
                </FormField>
              </div>
              <p className="text-xs text-muted-foreground">{text.holdoutHint}</p>
            </div>
          )}
        </div>
      )}
    </details>
  );
}
