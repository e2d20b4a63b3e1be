/**
 * @module The audience's countries: typing filters the countries by code and name (the exact code first), Enter or
 * a click takes the first or the chosen one, and each chosen country is a chip to remove. The field takes the id
 * and aria attributes a FormField gives.
 */
import { useId, useState, type KeyboardEvent } from "react";
import { Chip } from "@/components/ui/tag-input";
import { countryName, matchingCountries } from "./audience-countries";
import { AUDIENCE_TEXT, type AudienceLanguage } from "./audience-text";

interface CountryPickerProps {
  value: string[];
  onChange: (value: string[]) => void;
  lang?: AudienceLanguage;
  id?: string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
}

export function CountryPicker({ value, onChange, lang = "en", ...field }: CountryPickerProps) {
  const text = AUDIENCE_TEXT[lang];
  const listId = useId();
  const [typed, setTyped] = useState("");
  const matches = matchingCountries(typed, lang, value);

  function choose(code: string) {
    onChange([...value, code]);
    setTyped("");
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== "Enter") return;
    event.preventDefault();
    if (matches[0]) choose(matches[0].code);
  }

  return (
    <div className="space-y-2">
      {value.length > 0 && (
        <div className="flex flex-wrap gap-1">
          {value.map((code) => (
            <Chip
              key={code}
              label={`${countryName(code, lang)} (${code})`}
              removeLabel={text.remove(countryName(code, lang))}
              onRemove={() => onChange(value.filter((c) => c !== code))}
            />
          ))}
        </div>
      )}
      <input
        {...field}
        role="combobox"
        aria-expanded={matches.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder={text.countryPlaceholder}
        className="flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base placeholder:text-muted-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:outline-none aria-invalid:border-destructive md:text-sm"
      />
      <ul id={listId} role="listbox" aria-label={text.countrySuggestions} className="flex flex-wrap gap-1">
        {matches.map((country) => (
          <li
            key={country.code}
            role="option"
            aria-selected={false}
            tabIndex={-1}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(country.code)}
            className="cursor-pointer rounded-full border px-2 py-0.5 text-xs hover:bg-accent"
          >
            {country.name} ({country.code})
          </li>
        ))}
      </ul>
    </div>
  );
}
